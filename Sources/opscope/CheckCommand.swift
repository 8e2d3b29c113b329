import CommandSupport
import Foundation
import ScenarioKit
import TextKit

/// `opscope check FILE…`: validate scenario files without running them.
enum CheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "check", abstract: "Check scenario files for errors and warnings without running them",
        usage: [["check", "FILE..."]],
        about: """
            Reads each scenario file and reports every error and warning as
            FILE:LINE:COLUMN: severity: message, with the source line and a caret
            (on standard error). Prints one summary line per file on standard output.
            """,
        epilogue: """
            EXIT STATUS: 0 when no file has an error (warnings are allowed),
            2 when one has, or when the command line is wrong.
            """)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard !args.positionals.isEmpty else {
            throw UsageError("'check' needs at least one scenario file")
        }
        // Every file is checked even when an earlier one is missing or bad.
        var status = ExitStatus.success
        for path in args.positionals {
            let file: SourceFile
            do {
                file = try ScenarioLoading.source(at: path)
            } catch {
                _ = error.report()
                status = .usage
                continue
            }
            let result = ScenarioLoading.readAcceptingOwnCode(file)
            if result.hasErrors { status = .usage }
            // Unbuffered, so the summary follows the file's diagnostics
            // (on standard error) in order even when both go to one pipe.
            StandardOutput.write(summary(path: path, result: result) + "\n")
        }
        return status
    }

    /// `scenarios/01-chain.ops: ok (1 queue, 3 operations)` or
    /// `x.ops: 2 errors, 1 warning`.
    static func summary(path: String, result: ParseResult) -> String {
        let errors = result.errorCount
        let warnings = result.warningCount
        var parts: [String] = []
        if errors > 0 { parts.append(count(errors, "error")) }
        if warnings > 0 { parts.append(count(warnings, "warning")) }
        if let scenario = result.scenario, errors == 0 {
            let shape = [
                count(scenario.queues.count, "queue"),
                count(scenario.operations.count, "operation"),
                count(scenario.actions.count, "timed action"),
                count(scenario.expectations.count, "expectation"),
            ].joined(separator: ", ")
            let verdict = parts.isEmpty ? "ok" : "ok with " + parts.joined(separator: ", ")
            return "\(TerminalText.escaped(path)): \(verdict) (\(shape))"
        }
        return "\(TerminalText.escaped(path)): " + parts.joined(separator: ", ")
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
