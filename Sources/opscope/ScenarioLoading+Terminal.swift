import CommandSupport
import CursesBackend
import ScenarioKit

/// The commands' reading of a scenario file: its diagnostics fitted to the
/// terminal standard error is on (asked of `CursesBackend`, the one module
/// that talks to the terminal).
extension ScenarioLoading {
    static func read(_ file: SourceFile) -> ParseResult {
        read(file, terminalColumns: TerminalSize.of(descriptor: 2)?.columns)
    }

    static func report(_ result: ParseResult, file: SourceFile) {
        report(result, file: file, terminalColumns: TerminalSize.of(descriptor: 2)?.columns)
    }
}
