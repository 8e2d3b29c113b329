import Board
import CommandSupport
import Foundation
import RunEvents
import RunFormats
import ScenarioKit

/// `opscope diff A B`: two runs compared (`RunDiff`), each a recording or a
/// scenario file run once on the real engine.
enum DiffCommand: Subcommand {
    static let spec = CommandSpec(
        name: "diff", abstract: "Compare two runs: where they part, and what differs per operation",
        usage: [["diff", "A", "B", .optional("format"), .optional("speed")]],
        about: """
            Compares two runs of a scenario (or of two scenarios, operation by
            operation name). A and B are each a recording (RUN.jsonl, as 'opscope
            trace FILE --format jsonl' or W in the interactive view writes it) or
            a scenario file, which is run once on the real engine, as 'trace'
            runs it (A first, then B).

            Says first what the two files say differently (up cap 2 → 3, fetch
            added), then the first step where the runs part (a step is a start, a
            cancel, a finish, a completion block, an action or the end) by
            something that is not a race, with the event each run had there;
            then the races among independent operations (steps within 10ms of
            each other, of operations no dependency, barrier or serial queue
            orders); then per operation what differs: how it ended, when it
            started and finished, whether it ran on the main thread, and whether
            it is in both files; then a summary. Order and endings are compared
            exactly, races aside; a time differs only when it is more than
            max(10ms, 10 % of the later time) away (at --speed X, 10ms × X).
            """,
        options: [
            .value(
                "format", Format.allCases.map(\.rawValue).joined(separator: "|"),
                "output format (default: text); jsonl is one JSON object per line, for scripts"),
            .speed("for the scenario files (default: 1)"),
        ],
        epilogue: """
            EXIT STATUS: 0 when the runs agree on what matters (the same steps in
            the same order but for races, each operation ending the same way;
            times may differ); 1 when they differ; 2 when a file cannot be read
            (a scenario with errors, a recording with a broken line) or the
            command line is wrong.
            """)

    enum Format: String, CaseIterable {
        case text
        case jsonl
    }

    /// One side of the diff, read and ready.
    enum Input {
        case recording(Recording, path: String)
        case scenario(Scenario, path: String)

        var path: String {
            switch self {
            case .recording(_, let path), .scenario(_, let path): path
            }
        }
    }

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.count == 2 else {
            throw UsageError(
                args.positionals.count < 2
                    ? "'diff' needs two runs: recordings (RUN.jsonl) or scenario files"
                    : "'diff' takes two runs, not \(args.positionals.count)")
        }
        let formatText = try args.choice("format", among: Format.allCases.map(\.rawValue), default: "text")
        let format = Format(rawValue: formatText) ?? .text
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 1)
        if args.value("speed") != nil, args.positionals.allSatisfy(isRecording) {
            throw UsageError.speedWithRecording
        }
        // Both are read before anything runs: a bad B costs no run of A.
        var inputs: [Input] = []
        for path in args.positionals {
            guard let input = try read(path) else { return .usage }
            inputs.append(input)
        }
        return MainActor.assumeIsolated { DiffSession.run(inputs, speed: speed, format: format) }
    }

    static func isRecording(_ path: String) -> Bool { path.hasSuffix(".jsonl") }

    /// The run at `path`; nil, having said why on standard error, when it
    /// cannot be read. A recording must be read whole: compared, a run cut
    /// off at a broken line would differ for the file's sake, not the run's.
    private static func read(_ path: String) throws(UsageError) -> Input? {
        if isRecording(path) {
            guard let recording = try ReplayCommand.open(path) else { return nil }
            if let problem = recording.problem {
                MessagePrinter.standardError.error(
                    ReplayCommand.brokenLine(path, problem) + "'diff' compares whole recordings ('opscope trace "
                        + "\(path) --format jsonl' writes " + ReplayCommand.before(recording) + " as one)")
                return nil
            }
            return .recording(recording, path: path)
        }
        let file = try ScenarioLoading.source(at: path)
        let result = ScenarioLoading.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else { return nil }
        if !scenario.customOperations.isEmpty {
            // Your classes run in a child (`OwnClassRun`), at speed 1 (their
            // code runs in real time); what it recorded is compared.
            guard let recorded = try OwnClassRun.record(file, scenario, speed: 1) else { return nil }
            defer { recorded.remove() }
            guard !recorded.isEmpty, recorded.ending == nil, let recording = try ReplayCommand.open(recorded.path)
            else {
                MessagePrinter.standardError.error("\(path): 'diff' compares whole runs, and this one did not end")
                return nil
            }
            return .recording(recording, path: path)
        }
        // Both runs need the main thread; a wait that never returns would
        // keep it from the second (and this command has no stand-in).
        if let wait = scenario.actions.first(where: \.action.isMainThreadWait) {
            throw UsageError(
                "\(path):\(wait.location.line): 'diff' runs both files in one process, and this one makes the main "
                    + "thread wait, which may block it for good; compare recordings of it instead ('opscope trace "
                    + "\(path) --format jsonl' writes one)")
        }
        return .scenario(scenario, path: path)
    }
}

/// Runs the scenario files of a diff one after the other on the main
/// queue (as `trace` runs one: a `main` queue is OperationQueue.main), then
/// compares and prints.
@MainActor
enum DiffSession {
    static func run(_ inputs: [DiffCommand.Input], speed: Double, format: DiffCommand.Format) -> ExitStatus {
        // A signal ends it at once, in either run or between them.
        let end = CommandEnd(stoppedBy: .process)
        var tolerance = RunDiff.Tolerance.standard
        if inputs.contains(where: { if case .scenario = $0 { true } else { false } }) {
            tolerance = tolerance.atSpeed(speed)
        }
        let labels = inputs.map { input in
            switch input {
            case .recording(let recording, let path):
                RunLabel(path: path, source: .recording(scenario: recording.header.path))
            case .scenario(_, let path):
                RunLabel(path: path, source: .scenario(speed: speed))
            }
        }
        func collect(_ index: Int, _ runs: [RunSteps]) {
            guard index < inputs.count else {
                let diff = RunDiff(runs[0], runs[1], tolerance: tolerance)
                let text =
                    format == .text
                    ? RunDiffText.render(diff, a: labels[0], b: labels[1])
                    : RunDiffJSON.render(diff, a: labels[0], b: labels[1])
                do {
                    try StandardOutput.writeOrThrow(text)
                    end.end(diff.agrees ? .success : .failed)
                } catch {
                    MessagePrinter.standardError.error("could not write the diff to standard output: \(error)")
                    end.end(.failed)
                }
                return
            }
            switch inputs[index] {
            case .recording(let recording, _):
                collect(index + 1, runs + [RunSteps(scenario: recording.scenario, events: recording.events)])
            case .scenario(let scenario, let path):
                if isatty(STDERR_FILENO) == 1 {
                    MessagePrinter.standardError.note(
                        "running \(index == 0 ? "A" : "B"), \(path), on the real engine…")
                }
                // Stopped at its end, so that nothing of it (an operation
                // that never finished, on the main queue) holds the next.
                MainQueueRun.start(scenario, speed: speed, stopsAtEnd: true) { events, _ in
                    collect(index + 1, runs + [RunSteps(scenario: scenario, events: events)])
                }
            }
        }
        collect(0, [])
        return MainThread.serve(until: end)
    }
}
