import CommandSupport

/// Command-line errors more than one command gives, each written once.
extension UsageError {
    /// `opscope frobnicate`, `opscope help frobnicate`.
    static func unknownCommand(_ name: String) -> UsageError {
        UsageError("unknown command '\(name)'" + toTheCommands)
    }

    /// After an error that may be a command's option given without the
    /// command (`opscope --frobnicate FILE`).
    static let toTheCommands = "; run 'opscope --help' for the commands"

    /// `--speed` with a recording (`trace`, `why`, `diff`).
    static let speedWithRecording = UsageError(
        "'--speed' goes with a scenario file: a recording's times are already set")

    /// `--watch` or `--repeat` with a recording.
    static func oneRunAlready(_ option: String) -> UsageError {
        UsageError("'--\(option)' goes with a scenario file: a recording is one run, already made")
    }
}
