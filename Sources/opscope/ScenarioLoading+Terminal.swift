import CommandSupport
import CursesBackend
import ScenarioKit

/// The commands' reading of a scenario file: its diagnostics fitted to the
/// terminal standard error is on (asked of `CursesBackend`, the one module
/// that talks to the terminal).
extension ScenarioLoading {
    static func read(_ file: SourceFile, ownCode: ScenarioReader.OwnCode = .refused) -> ParseResult {
        read(file, terminalColumns: TerminalSize.of(descriptor: 2)?.columns, ownCode: ownCode)
    }

    /// `read`, for the commands that read a scenario without running it
    /// (`check`, `swift`): `class TYPE` is accepted, and the `code` files
    /// and their classes are checked with the compiler (`OwnCodeCheck`).
    /// What swiftc said of the user's files comes first, then the
    /// scenario's diagnostics.
    static func readAcceptingOwnCode(_ file: SourceFile) -> ParseResult {
        var result = ScenarioReader.read(file, ownCode: .accepted)
        if let scenario = result.scenario, !scenario.code.isEmpty {
            let findings = OwnCodeCheck.check(scenario, scenarioPath: file.path)
            if !findings.compilerText.isEmpty { MessagePrinter.standardError.write(findings.compilerText) }
            if !findings.diagnostics.isEmpty || !findings.compilerText.isEmpty {
                let all = (result.diagnostics + findings.diagnostics).sorted { $0.location < $1.location }
                let errors = findings.diagnostics.count(where: \.isError) + findings.compilerErrors
                result = ParseResult(
                    scenario: findings.hasErrors ? nil : scenario, diagnostics: all,
                    errorCount: result.errorCount + errors,
                    warningCount: result.warningCount + findings.diagnostics.count(where: { !$0.isError }))
            }
        }
        report(result, file: file)
        return result
    }

    static func report(_ result: ParseResult, file: SourceFile) {
        report(result, file: file, terminalColumns: TerminalSize.of(descriptor: 2)?.columns)
    }
}
