import Board
import CommandSupport
import Dispatch
import Foundation
import Grading
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import TextKit

/// `opscope trace FILE`: run a scenario on the real engine and print every
/// observer notification in order.
enum TraceCommand: Subcommand {
    static let name = "trace"
    static let abstract = "Run a scenario on the real engine and print its event stream"
    static let help = """
        USAGE: opscope trace FILE [--format text|jsonl|chrome|timeline] [--width N] [--speed X]
               opscope trace RUN.jsonl [--format text|jsonl|chrome|timeline] [--width N]

        Runs the scenario on Foundation's real OperationQueues and prints every
        observer notification in the order the observers saw it: one aligned
        line per event (text), or one JSON object per line (jsonl), or the
        Trace Event Format that Perfetto (ui.perfetto.dev) and chrome://tracing
        open (chrome: a track per thread, a slice per execution, asynchronous
        operations in flight on tracks of their queue, flow arrows for
        dependencies, counters per queue), or a timeline as text (a lane per
        operation over time, grouped by queue). Text and timeline output
        end with each expectation held (✓) or failed (✗); with jsonl and
        chrome, that report goes to standard error so standard output stays
        pure JSON.

        OPTIONS:
          --format text|jsonl|chrome|timeline
                                output format (default: text)
          --width N             the timeline's width in columns, 40 to 1000
                                (default: 100)
          --speed X             scenario seconds per real second (default: 1;
                                --speed 4 runs four times faster)

        EXIT STATUS: 0 when the run ended and every expectation held; 1 when
        an expectation failed or the run stalled on an operation that no
        'expect stuck' names; 2 when the file has errors or the command line
        is wrong. A file that promises its expectations only up to a speed
        ('speed 1 up to 4') still shows them when traced faster, but they do
        not decide the status then.
        """

    enum Format: String {
        case text, jsonl, chrome, timeline
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let args = try Arguments(arguments, options: ["format", "speed", "width"])
        guard args.positionals.count == 1 else {
            throw UsageError(
                args.positionals.isEmpty
                    ? "'trace' needs a scenario file"
                    : "'trace' takes one scenario file, not \(args.positionals.count)")
        }
        let formatText = args.value("format") ?? "text"
        guard let format = Format(rawValue: formatText) else {
            throw UsageError("'--format' is 'text', 'jsonl', 'chrome' or 'timeline', not '\(formatText)'")
        }
        let width = try args.whole("width", in: 40...1000, default: 100)
        if args.value("width") != nil && format != .timeline {
            throw UsageError("'--width' goes with '--format timeline'")
        }
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 1)
        if args.positionals[0].hasSuffix(".jsonl") {
            if args.value("speed") != nil {
                throw UsageError("'--speed' goes with a scenario file: a recording's times are already set")
            }
            return try traceRecording(at: args.positionals[0], format: format, width: width)
        }
        let file = try ScenarioLoading.source(at: args.positionals[0])
        let result = ScenarioLoading.read(file)
        guard let scenario = result.scenario, !result.hasErrors else {
            return ExitStatus.usage
        }
        // Faster than the file promises its expectations: still judged and
        // shown (what the engine did at this speed), not counted.
        let promised = scenario.promisedUpTo.map { speed <= $0 } ?? true
        if !promised, let fastest = scenario.promisedUpTo {
            StandardError.write(
                "opscope: warning: \(file.path) promises its expectations only up to speed "
                    + "\(ScenarioPrinter.speedText(fastest)) (its 'speed' statement); at --speed "
                    + "\(ScenarioPrinter.speedText(speed)) they are judged and reported, but do not decide the exit "
                    + "status\n")
        }
        MainActor.assumeIsolated {
            let header = JSONLineEncoder.Header(
                opscope: Version.opscope, language: Version.language, path: file.path,
                source: String(decoding: file.bytes, as: UTF8.self))
            TraceSession.start(
                scenario: scenario, format: format, speed: speed, countsExpectations: promised, width: width,
                header: header)
        }
        // The main thread now serves the main dispatch queue, so a scenario
        // queue declared `main` really is OperationQueue.main, running on the
        // main thread. The session exits the process when the run ends.
        MainThread.serveForever()
    }

    /// `opscope trace RUN.jsonl`: a recording written again in any format,
    /// with its expectations judged, without running anything. What comes
    /// before a broken line is written; the line is named on standard error.
    static func traceRecording(at path: String, format: Format, width: Int) throws(UsageError) -> Int32 {
        guard let recording = try ReplayCommand.open(path) else { return ExitStatus.usage }
        if let problem = recording.problem {
            StandardError.write(
                "opscope: warning: \(ReplayCommand.location(path, problem)): \(problem.message); the trace has the "
                    + "\(recording.events.count) notifications before that line\n")
        }
        MainActor.assumeIsolated {
            TraceSession.start(
                scenario: recording.scenario, format: format, speed: 1, countsExpectations: true, width: width,
                header: recording.header, recorded: recording.events)
        }
        MainThread.serveForever()
    }
}

/// Prints a run's events as they come, then the report, and exits.
///
/// The stream is not kept: each batch is written into one byte buffer and
/// let go of, and the expectations are judged as the events pass
/// (`ExpectationJudge`), so a trace of a million operations holds what the
/// engine holds, not its millions of events.
@MainActor
enum TraceSession {
    static func start(
        scenario: Scenario, format: TraceCommand.Format, speed: Double, countsExpectations: Bool, width: Int = 100,
        header: JSONLineEncoder.Header? = nil, recorded: [LifecycleEvent]? = nil
    ) {
        let output = TraceOutput()
        let slot = WriterSlot()
        TraceInterruption.install(output: output) { signal, status in
            slot.progress?.finish()
            // Stopped before the writer was made: nothing was written yet.
            guard let writer = slot.writer else { exit(status) }
            writer.interrupt(signal, status: status)
        }
        if let recorded {
            // A recording: its events are the run, and nothing runs.
            let writer = TraceWriter(
                scenario: scenario, format: format, countsExpectations: countsExpectations, width: width,
                header: header, output: output)
            slot.writer = writer
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    writer.write(recorded)
                    writer.finish()
                }
            }
            return
        }
        // The run starts first: its thread builds the operations while this
        // one makes the encoders and writes the header (the scenario's whole
        // text, for jsonl). Nothing reaches the writer before then: batches
        // come on the main queue, which this thread serves only afterwards.
        let run = MainQueueRun.start(
            scenario, speed: speed, keepsStream: false, onBatch: { slot.writer?.write($0) },
            onEnd: { _, _ in
                slot.progress?.finish()
                if let writer = slot.writer { writer.finish() }
            })
        // Before the writer: making it takes a while for a large file.
        slot.progress = BuildProgressLine.start { run.buildProgress }
        let writer = TraceWriter(
            scenario: scenario, format: format, countsExpectations: countsExpectations, width: width, header: header,
            output: output)
        writer.waitLine = TraceWaitLine(scenario: scenario, speed: speed)
        slot.writer = writer
    }
}

/// Where the run's callbacks find the writer made after the run started,
/// and the progress line on the terminal.
@MainActor
private final class WriterSlot {
    var writer: TraceWriter?
    var progress: BuildProgressLine?
}

/// What a trace says after the stream: each expectation and the verdict.
struct TraceReport {
    let text: String
    let exitStatus: Int32

    /// With `countsExpectations` false (a speed faster than the file
    /// promises them), a failed expectation is shown but not counted.
    init(judge: ExpectationJudge, formatter: EventFormatter, countsExpectations: Bool = true) {
        let scenario = judge.scenario
        let facts = judge.facts
        let results = judge.results()
        let outcome = facts.outcome
        var lines: [String] = [""]
        let endTime = Spelling.secondsNumber(facts.endTime)
        switch outcome {
        case .completed:
            lines.append("run completed at \(endTime)s")
            let left = scenario.actions.count - facts.timedActionsPerformed
            if left > 0 {
                lines.append(
                    "  \(Spelling.count(left, "timed action")) came after every operation had finished: "
                        + "nothing was left for \(left == 1 ? "it" : "them") to change, and the run did not wait")
            }
        case .stalled(let stuck):
            lines.append("run stalled at \(endTime)s: nothing can progress any more")
            for op in stuck.keys.sorted() {
                lines.append("  \(scenario[operation: op].name): \(formatter.stuckText(stuck[op]!))")
            }
        case nil:
            lines.append("run did not end")
        }
        if !results.isEmpty {
            lines.append("expectations:")
            for result in results {
                let mark = result.held ? "✓" : "✗"
                lines.append("  \(mark) expect \(result.expectation.text) — \(result.explanation)")
            }
            let held = results.filter(\.held).count
            lines.append("\(held) of \(results.count) expectation\(results.count == 1 ? "" : "s") held")
            if !countsExpectations, let fastest = scenario.promisedUpTo {
                lines.append(
                    "  (not counted: the file promises them only up to speed \(ScenarioPrinter.speedText(fastest)))")
            }
        }
        text = lines.joined(separator: "\n") + "\n"
        exitStatus = ExpectationChecker.exitStatus(
            outcome: outcome, results: countsExpectations ? results : [], scenario: scenario)
    }
}
