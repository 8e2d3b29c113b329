import CommandSupport
import Foundation
import Interactive
import RunEvents
import RunFormats
import ScenarioKit
import Screen

/// `opscope replay RUN.jsonl`: the interactive view over a recording.
enum ReplayCommand: Subcommand {
    static let spec = CommandSpec(
        name: "replay", abstract: "Open a recording of a run in the interactive view",
        usage: [["replay", "[options]", "RUN.jsonl"]],
        about: """
            Opens the interactive view over a recording: what 'opscope trace FILE
            --format jsonl' writes, or what W saves in the interactive view. The
            recording carries its scenario, so it needs nothing else. It opens
            paused at t=0: Space plays it at its recorded times, ] steps one
            notification, [ { } Home End and g move through its history as in a
            live run. Nothing acts on the engine: a replay shows what was
            recorded and cannot change it.

            A recording with a broken line opens with what comes before that
            line, and says which line it is.
            """,
        optionsHeading: "OPTIONS (before or after the file)",
        options: [
            .speed("(default: the scenario's own 'speed', or 1)"),
            .flag("lesson", "pause at each caption"),
            .ascii, .noColor,
        ],
        epilogue: "EXIT STATUS: 2 when the file cannot be read as a recording at all.", summaryColumn: 16)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.count == 1 else {
            throw UsageError(
                args.positionals.isEmpty
                    ? "'replay' needs a recording (opscope trace FILE --format jsonl > RUN.jsonl)"
                    : "'replay' takes one recording, not \(args.positionals.count)")
        }
        var options = InteractiveOptions()
        options.speed = try args.speed("speed", in: SpeedRange.interactive)
        options.lesson = args.has("lesson")
        options.ascii = args.has("ascii")
        options.noColor = args.has("no-color")
        let path = args.positionals[0]
        guard let recording = try open(path) else { return .usage }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw UsageError(PickerLauncher.notATerminal)
        }
        // What can be read opens; the first line that cannot is said first.
        let notice = recording.problem.map { problem in
            "replaying the \(recording.events.count) notifications before line \(problem.line): \(problem.message)"
        }
        let opening = ScenarioOpening(
            scenario: recording.scenario,
            file: RecordingFile(
                path: recording.header.path, source: recording.header.source,
                dispatchesObserved: recording.header.dispatchesObserved),
            source: .recording(recording.events), notice: notice)
        return MainActor.assumeIsolated {
            InteractiveApp.launch(opening, picker: PickerList([]), paths: [], options: options)
        }
    }

    /// The recording at `path`; nil, having said why on standard error,
    /// when it cannot open at all.
    static func open(_ path: String) throws(UsageError) -> Recording? {
        let file = try ScenarioLoading.source(at: path)
        do {
            return try RecordingDecoder.decode(file.bytes)
        } catch {
            MessagePrinter.standardError.error("\(location(path, error)): \(error.message)")
            return nil
        }
    }

    /// `RUN.jsonl:12:5: MESSAGE; `: a recording's broken line, before what
    /// a command does with the lines before it (`before`).
    static func brokenLine(_ path: String, _ problem: RecordingProblem) -> String {
        "\(location(path, problem)): \(problem.message); "
    }

    /// `the 12 notifications before that line`: what a recording with a
    /// broken line still gives.
    static func before(_ recording: Recording) -> String {
        "the \(recording.events.count) notifications before that line"
    }

    /// `RUN.jsonl:12:5` (the column when the problem has one).
    static func location(_ path: String, _ problem: RecordingProblem) -> String {
        "\(path):\(problem.line)" + (problem.column.map { ":\($0)" } ?? "")
    }
}
