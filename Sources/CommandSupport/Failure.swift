import Foundation
import ScenarioKit

/// Exit statuses shared by every command (SCENARIO-LANGUAGE.md, "Exit status").
package enum ExitStatus {
    package static let success: Int32 = 0
    /// A claim failed, or the run stalled on an operation no `expect stuck` names.
    package static let failed: Int32 = 1
    /// A file has errors, or the command line is wrong.
    package static let usage: Int32 = 2
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
        let hint = suggestion.map { " (did you mean '--\($0)'?)" } ?? ""
        var error = UsageError("unknown option '\(argument)'\(hint)")
        error.unknownOption = argument
        return error
    }

    package func report() -> Int32 {
        ErrorLine.write(message)
        return ExitStatus.usage
    }
}

/// The one place an error becomes text: `opscope: error: MESSAGE`.
package enum ErrorLine {
    package static func text(_ message: String) -> String { "opscope: error: \(message)" }

    /// Writes the line on standard error.
    package static func write(_ message: String) { StandardError.write(text(message) + "\n") }
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
