import Board
import CommandSupport
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit

/// `opscope why RUN X [Y]`: when X started and the chain of what held it
/// back (`CriticalPath`); with Y, first whether X waits for Y in the file,
/// and through what.
enum WhyCommand: Subcommand {
    static let spec = CommandSpec(
        name: "why",
        abstract: "Why an operation started when it did; whether it waits for another, and through what",
        usage: [["why", "RUN", "X", "[Y]", .optional("speed")]],
        about: """
            RUN is a recording (RUN.jsonl, as 'opscope trace FILE --format jsonl'
            or W in the interactive view writes it) or a scenario file, which is
            run once on the real engine, as 'trace' runs it.

            With Y, first answers "does X wait for Y?" from the file's 'after'
            clauses: the path from X to Y when X waits for it directly or through
            others; else what X depends on (and whether Y waits for X instead).

            Then says when X started and the chain of what held it back in this
            run, from the start of the run to that moment, one line per link with
            its interval and what it cost: an operation that ran, the dependency
            whose finish made X ready, the slot a finish freed, the resume or the
            raised cap that let a queue dispatch, the 'at' line the run had to
            reach, a completion block that performed an action, the wait between
            a dispatch and the start on a thread. The links add up to X's start
            time. Each link is an event of the run; where the events do not say
            what let an operation go, the link says so.
            """,
        options: [.speed("for a scenario file (default: 1)")],
        epilogue: """
            EXIT STATUS: 0 when X started (and, with Y, waits for Y); 1 when X
            never started, or does not wait for Y; 2 when the file cannot be read
            or the command line is wrong.
            """)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard (2...3).contains(args.positionals.count) else {
            throw UsageError(
                args.positionals.count < 2
                    ? "'why' needs a run (a recording or a scenario file) and an operation's name"
                    : "'why' takes a run and one or two operations' names, not \(args.positionals.count - 1)")
        }
        let path = args.positionals[0]
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 1)
        if path.hasSuffix(".jsonl") {
            if args.value("speed") != nil {
                throw UsageError.speedWithRecording
            }
            return try answer(recordingAt: path, shownAs: path, names: Array(args.positionals.dropFirst()))
        }
        let file = try ScenarioLoading.source(at: path)
        let result = ScenarioLoading.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else { return .usage }
        let names = try operations(Array(args.positionals.dropFirst()), in: scenario, path: path)
        if !scenario.customOperations.isEmpty {
            // Your classes run in a child (`OwnClassRun`); the answer is
            // about what it recorded.
            guard let recorded = try OwnClassRun.record(file, scenario, speed: speed) else { return .usage }
            defer { recorded.remove() }
            if recorded.isEmpty { return .failed }
            let status = try answer(
                recordingAt: recorded.path, shownAs: path, names: Array(args.positionals.dropFirst()))
            return recorded.ending == nil ? status : .failed
        }
        if let wait = scenario.actions.first(where: \.action.isMainThreadWait) {
            throw UsageError(
                "\(path):\(wait.location.line): this file makes the main thread wait, which may block it for good; "
                    + "ask about a recording of it instead ('opscope trace \(path) --format jsonl' writes one)")
        }
        return MainActor.assumeIsolated {
            // A signal ends it at once, the run going on or not.
            let end = CommandEnd(stoppedBy: .process)
            if isatty(STDERR_FILENO) == 1 {
                MessagePrinter.standardError.note("running \(path) on the real engine…")
            }
            MainQueueRun.start(scenario, speed: speed, stopsAtEnd: true) { events, _ in
                // The run takes the same reader (`RunOptions`' default).
                let observed = EngineState.processDefault != nil
                end.end(answer(names, scenario: scenario, events: events, dispatchesObserved: observed))
            }
            return MainThread.serve(until: end)
        }
    }

    /// The answer about the recording at `path` (`shownAs` in messages).
    static func answer(recordingAt path: String, shownAs: String, names: [String]) throws(UsageError) -> ExitStatus {
        guard let recording = try ReplayCommand.open(path) else { return .usage }
        if let problem = recording.problem {
            MessagePrinter.standardError.warning(
                ReplayCommand.brokenLine(shownAs, problem) + "the answer is about " + ReplayCommand.before(recording))
        }
        let ids = try operations(names, in: recording.scenario, path: shownAs)
        return answer(
            ids, scenario: recording.scenario, events: recording.events,
            dispatchesObserved: recording.header.dispatchesObserved)
    }

    /// The operations named, or a usage error naming the one not there.
    static func operations(_ names: [String], in scenario: Scenario, path: String) throws(UsageError)
        -> [OperationID]
    {
        var ids: [OperationID] = []
        for name in names {
            guard let index = scenario.operations.firstIndex(where: { $0.name == name }) else {
                let known = scenario.operations.prefix(6).map(\.name).joined(separator: ", ")
                throw UsageError(
                    "\(path) has no operation named '\(name)'"
                        + (known.isEmpty ? "" : " (it has \(known)\(scenario.operations.count > 6 ? ", …" : ""))"))
            }
            ids.append(OperationID(index))
        }
        return ids
    }

    /// Prints the answer and gives the status: the lines written as they
    /// are made, a chunk at a time (a chain of 100,000 operations is
    /// 200,000 lines). A run that observed no moment of dispatch
    /// (`dispatchesObserved` false) is said so first: its chain takes each
    /// start for its dispatch.
    static func answer(
        _ ids: [OperationID], scenario: Scenario, events: [LifecycleEvent], dispatchesObserved: Bool = true
    ) -> ExitStatus {
        // The facts alone: the answer asks no board.
        let timeline = RunTimeline(scenario: scenario, events: events, keepsBoards: false)
        var out = ChunkedOutput()
        if !dispatchesObserved {
            out.line(
                "note: " + LifecycleEvent.unobservedDispatchesNote + "; below, each dispatch is its start, so a wait "
                    + "for a worker thread shows as a wait for a slot")
        }
        var status = ExitStatus.success
        if ids.count == 2 {
            let (text, waits) = WhyAnswer.waitsFor(ids[0], ids[1], in: scenario)
            out.line(text)
            if !waits { status = .failed }
        }
        let path = timeline.criticalPath(to: ids[0])
        let started = WhyAnswer.chain(to: ids[0], in: timeline, path: path) { out.line($0) }
        if !started { status = .failed }
        if ids.count == 2, let path, let note = WhyAnswer.onTheChain(ids[1], path, in: scenario) { out.line(note) }
        if ids.count == 2, let note = WhyAnswer.holdsSlot(ids[1], for: ids[0], in: timeline) { out.line(note) }
        out.flush()
        if let error = out.error {
            MessagePrinter.standardError.error("could not write to standard output: \(error)")
            return .failed
        }
        return status
    }
}

/// Lines gathered into chunks of about a megabyte, each written through
/// `StandardOutput` (which escapes what a file held); after a failed write
/// the rest is dropped and `error` says why.
struct ChunkedOutput {
    private var chunk = ""
    private(set) var error: (any Error)?

    mutating func line(_ text: String) {
        guard error == nil else { return }
        chunk += text
        chunk += "\n"
        if chunk.utf8.count >= 1 << 20 { flush() }
    }

    mutating func flush() {
        guard error == nil, !chunk.isEmpty else { return }
        do {
            try StandardOutput.writeOrThrow(chunk)
        } catch {
            self.error = error
        }
        chunk = ""
    }
}
