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
import Tracing

/// `opscope trace FILE`: run a scenario on the real engine and print every
/// observer notification in order.
enum TraceCommand: Subcommand {
    static let spec = CommandSpec(
        name: "trace", abstract: "Run a scenario on the real engine and print its event stream",
        usage: [
            ["trace", "FILE", .optional("format"), .optional("width"), .optional("speed"), .optional("verbose")],
            [
                "trace", "FILE", .required("watch"), .optional("format"), .optional("width"), .optional("speed"),
                .optional("verbose"),
            ],
            ["trace", "FILE", .required("repeat"), .optional("format", "text|jsonl"), .optional("speed")],
            ["trace", "RUN.jsonl", .optional("format"), .optional("width"), .optional("verbose")],
        ],
        about: """
            Runs the scenario on Foundation's real OperationQueues and prints every
            observer notification in the order the observers saw it: one aligned
            line per event (text), or one JSON object per line (jsonl), or the
            Trace Event Format that Perfetto (ui.perfetto.dev) and chrome://tracing
            open (chrome: a track per thread, a slice per execution, asynchronous
            operations in flight on tracks of their queue, flow arrows for
            dependencies, counters per queue), or a timeline as text (a lane per
            operation over time, grouped by queue), or the dependency graph with
            how each operation ended and when it ran (dot for Graphviz, mermaid
            for a Mermaid flowchart: nodes grouped by queue, an edge from each
            dependency to what depends on it, dashed when the dependency was
            cancelled). Text and timeline output end with each expectation held
            (✓) or failed (✗); with jsonl, chrome, dot and mermaid, that report
            goes to standard error so standard output stays the format's own. A
            run that stalls is reported by root cause: a line per cause with how
            many operations it holds and the first names (a suspended queue with
            who suspended it and what could still resume it, a deadlock named as
            the cycle it is).
            """,
        options: [
            .value(
                "format", TraceFormat.allCases.map(\.rawValue).joined(separator: "|"), "output format (default: text)"),
            .value("width", "N", "the timeline's width in columns, 40 to 1000 (default: 100)"),
            .speed("(default: 1; --speed 4 runs four times faster)"),
            .flag("verbose", "after a stall's causes, each stuck operation with its own reason"),
            .value(
                "repeat", "N",
                "run the file N times (1 to 10000), one after another, and print a summary instead of the stream: "
                    + "per expectation how often it held (\"held 17 of 20\"), the start orders seen, the facts that "
                    + "varied; jsonl gives it for scripts"),
            .flag(
                "watch",
                "trace the file, then wait; each time it is saved, print a line with the time and what changed, and "
                    + "trace it again (its errors, if it has any, instead); Ctrl-C ends the watch"),
        ],
        epilogue: """
            EXIT STATUS: 0 when the run ended and every expectation held; 1 when
            an expectation failed or the run stalled on an operation that no
            'expect stuck' names; 2 when the file has errors or the command line
            is wrong. With --repeat, 0 when every run passed and 1 when one did
            not. With --watch, Ctrl-C (SIGINT), SIGTERM, SIGHUP and SIGQUIT end
            it with 128 + the signal (130, 143, 129, 131), whether it waits for
            a save or traces (that trace stops as a trace does). A file that
            promises its expectations only up to a speed ('speed 1 up to 4')
            still shows them when traced faster, but they do not decide the
            status then.
            """)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.count == 1 else {
            throw UsageError(
                args.positionals.isEmpty
                    ? "'trace' needs a scenario file"
                    : "'trace' takes one scenario file, not \(args.positionals.count)")
        }
        let formatText = try args.choice("format", among: TraceFormat.allCases.map(\.rawValue), default: "text")
        let format = TraceFormat(rawValue: formatText) ?? .text
        let width = try args.whole("width", in: 40...1000, default: 100)
        if args.value("width") != nil && format != .timeline {
            throw UsageError("'--width' goes with '--format timeline'")
        }
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 1)
        let watching = args.has("watch")
        if watching, args.positionals[0].hasSuffix(".jsonl") {
            throw UsageError.oneRunAlready("watch")
        }
        if watching, args.value("repeat") != nil {
            throw UsageError("'--watch' traces the file once at each save; it does not go with '--repeat'")
        }
        let repeats = try TraceRepeat.count(
            args, format: format, recording: args.positionals[0].hasSuffix(".jsonl"))
        let verbose = args.has("verbose")
        if verbose && repeats != nil {
            throw UsageError("'--verbose' goes with a single trace: '--repeat' summarises its runs")
        }
        if args.positionals[0].hasSuffix(".jsonl") {
            if args.value("speed") != nil {
                throw UsageError.speedWithRecording
            }
            return try traceRecording(at: args.positionals[0], format: format, width: width, verbose: verbose)
        }
        let file = try ScenarioLoading.source(at: args.positionals[0])
        // Your classes (`class TYPE`) run in a child (`OwnClassRun`): the
        // child, given the library, reads them as any operation.
        let child = OwnClassRun.isChild
        let result = ScenarioLoading.read(file, ownCode: .accepted)
        if watching {
            return MainActor.assumeIsolated {
                TraceWatch.run(file, result, format: format, width: width, speed: speed, verbose: verbose)
            }
        }
        guard let scenario = result.scenario, !result.hasErrors else {
            return .usage
        }
        if !scenario.customOperations.isEmpty && !child {
            if let repeats {
                return try OwnClassRun.repeatTrace(
                    file, scenario, count: repeats, speed: speed, format: format,
                    countsExpectations: promises(scenario, at: speed, path: file.path))
            }
            return try OwnClassRun.trace(file, scenario, format: format, width: width, speed: speed, verbose: verbose)
        }
        let ownClasses = child ? try OwnClassRun.libraryForChild(scenario) : nil
        let promised = promises(scenario, at: speed, path: file.path)
        if let repeats {
            return MainActor.assumeIsolated {
                TraceRepeat.run(
                    scenario, path: file.path, count: repeats, speed: speed, format: format,
                    countsExpectations: promised)
            }
        }
        // The header (the scenario's whole text, for jsonl) is made inside,
        // so that nothing here holds it while the run goes.
        var traced = settings(
            scenario, file: file, format: format, width: width, countsExpectations: promised, verbose: verbose)
        traced.ownClasses = ownClasses
        if child && OwnClassLive.isLive { return OwnClassLive.serve(traced, speed: speed) }
        let session = MainActor.assumeIsolated { [traced] in TraceSession.start(traced, speed: speed) }
        // The main thread serves the main dispatch queue, so a scenario
        // queue declared `main` really is OperationQueue.main, running on
        // the main thread, until the run ends and the trace has its status.
        return MainActor.assumeIsolated { session.serve() }
    }

    /// Whether the file promises its expectations at `speed`; a warning
    /// when not. Faster than the file promises them, they are still judged
    /// and shown (what the engine did at this speed), but not counted.
    static func promises(_ scenario: Scenario, at speed: Double, path: String) -> Bool {
        let promised = scenario.promisedUpTo.map { speed <= $0 } ?? true
        if !promised, let fastest = scenario.promisedUpTo {
            MessagePrinter.standardError.warning(
                "\(path) promises its expectations only up to speed "
                    + "\(ScenarioPrinter.speedText(fastest)) (its 'speed' statement); at --speed "
                    + "\(ScenarioPrinter.speedText(speed)) they are judged and reported, but do not decide the exit "
                    + "status")
        }
        return promised
    }

    /// A trace of `scenario`, read from `file`.
    static func settings(
        _ scenario: Scenario, file: SourceFile, format: TraceFormat, width: Int, countsExpectations: Bool,
        verbose: Bool = false
    ) -> TraceSession.Settings {
        TraceSession.Settings(
            scenario: scenario, format: format, width: width, countsExpectations: countsExpectations,
            header: JSONLineEncoder.Header(
                opscope: Version.opscope, language: Version.language, path: file.path,
                source: String(decoding: file.bytes, as: UTF8.self),
                // The run takes the same reader (`RunOptions`' default).
                dispatchesObserved: EngineState.processDefault != nil),
            verbose: verbose)
    }

    /// `opscope trace RUN.jsonl`: a recording written again in any format,
    /// with its expectations judged, without running anything. What comes
    /// before a broken line is written; the line is named on standard error.
    static func traceRecording(at path: String, format: TraceFormat, width: Int, verbose: Bool = false)
        throws(UsageError) -> ExitStatus
    {
        guard let recording = try ReplayCommand.open(path) else { return .usage }
        if let problem = recording.problem {
            MessagePrinter.standardError.warning(
                ReplayCommand.brokenLine(path, problem) + "the trace has " + ReplayCommand.before(recording))
        }
        let session = MainActor.assumeIsolated {
            TraceSession.start(
                TraceSession.Settings(
                    scenario: recording.scenario, format: format, width: width, countsExpectations: true,
                    header: recording.header, verbose: verbose), recorded: recording.events)
        }
        return MainActor.assumeIsolated { session.serve() }
    }
}
