import Foundation
import ScenarioKit
import TextKit

/// How a command ends: the status the process exits with
/// (SCENARIO-LANGUAGE.md, "Exit status"). Commands return one; only
/// `main` turns it into `exit()`.
package enum ExitStatus: Equatable, Sendable {
    case success
    /// A claim failed, the run stalled on an operation no `expect stuck`
    /// names or did not end, a quiz answer was wrong, a write failed.
    case failed
    /// A file has errors, or the command line is wrong.
    case usage
    /// Stopped by the signal of this number: 128 + it, as a shell reports
    /// a death by that signal.
    case stopped(signal: Int32)

    /// The number the process exits with.
    package var code: Int32 {
        switch self {
        case .success: 0
        case .failed: 1
        case .usage: 2
        case .stopped(let signal): 128 + signal
        }
    }
}

/// A wrong command line: one clear line on standard error, exit 2.
package struct UsageError: Error, Equatable {
    package var message: String
    /// The argument, when the error is an option that the command does not know.
    package var unknownOption: String?

    package init(_ message: String) { self.message = message }

    /// `unknown option '--frobnicate'`.
    /// `suggestion`: the nearest option of the command (without `--`).
    package static func unknownOption(_ argument: String, suggestion: String? = nil) -> UsageError {
        let hint = Suggestion.hint(suggestion.map { "--" + $0 })
        var error = UsageError("unknown option '\(argument)'\(hint)")
        error.unknownOption = argument
        return error
    }

    /// Says the error and returns the status it ends the command with.
    package func report(to printer: MessagePrinter = .standardError) -> ExitStatus {
        printer.error(message)
        return .usage
    }
}

/// One line of opscope's own on standard error: `opscope: error: MESSAGE`,
/// `opscope: warning: MESSAGE`, or a note, `opscope: MESSAGE`. (A
/// scenario's diagnostics, `FILE:LINE:COL: error: …`, are
/// `DiagnosticPrinter`'s.)
package struct ProgramMessage: Equatable, Sendable {
    package enum Severity: Sendable {
        case error, warning, note
    }

    package var severity: Severity
    package var text: String

    package static func error(_ text: String) -> ProgramMessage { ProgramMessage(severity: .error, text: text) }
    package static func warning(_ text: String) -> ProgramMessage { ProgramMessage(severity: .warning, text: text) }
    package static func note(_ text: String) -> ProgramMessage { ProgramMessage(severity: .note, text: text) }

    /// The line, without its newline: the one place it is spelt. A
    /// message is one line: what it quotes from a file (a path, a name)
    /// cannot break it or reach the terminal raw (`TerminalText`).
    package var line: String {
        let text = TerminalText.escaped(text)
        return switch severity {
        case .error: "opscope: error: \(text)"
        case .warning: "opscope: warning: \(text)"
        case .note: "opscope: \(text)"
        }
    }
}

/// Standard error, or what a test puts in its place: the one printer of
/// `ProgramMessage`s, and where a report written beside a stream goes.
package struct MessagePrinter: Sendable {
    private let sink: @Sendable (String) -> Void

    /// `sink` takes text as it is to be written.
    package init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    package static let standardError = MessagePrinter { StandardError.write($0) }

    /// Writes `message` as one line.
    package func print(_ message: ProgramMessage) { sink(message.line + "\n") }

    package func error(_ text: String) { print(.error(text)) }
    package func warning(_ text: String) { print(.warning(text)) }
    package func note(_ text: String) { print(.note(text)) }

    /// Text of the command's own (a trace's report), its lines kept, any
    /// other control character escaped (`TerminalText.plainLines`).
    package func write(_ text: String) { sink(TerminalText.plainLines(text)) }
}

/// Standard output for a command's text (a report, a table, a sheet):
/// its lines kept, any other control character escaped
/// (`TerminalText.plainLines`), so that nothing a file held reaches the
/// terminal raw. Written at once, without stdio's buffer.
package enum StandardOutput {
    package static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(TerminalText.plainLines(text).utf8))
    }

    /// The same, throwing when standard output cannot be written.
    package static func writeOrThrow(_ text: String) throws {
        try FileHandle.standardOutput.write(contentsOf: Data(TerminalText.plainLines(text).utf8))
    }
}

package enum StandardError {
    package static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Whether to colour text written to a stream: only on a terminal, and
/// never when `NO_COLOR` is set (https://no-color.org).
package func wantsColor(fileDescriptor: Int32) -> Bool {
    if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
    return isatty(fileDescriptor) == 1
}

/// The speeds each command takes, scenario seconds per real second.
package enum SpeedRange {
    /// `trace` and `quiz` (`Scenario.traceSpeedRange`).
    package static var trace: ClosedRange<Double> { Scenario.traceSpeedRange }
    /// The interactive view: the range of the language's `speed` (and of
    /// the `<` and `>` keys).
    package static var interactive: ClosedRange<Double> { Scenario.speedRange }
}

/// opscope's version and the scenario language's, as `--version` and a
/// recording's header give them.
package enum Version {
    package static let opscope = "0.1"
    package static let language = 1
}
