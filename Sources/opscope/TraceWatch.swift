import CommandSupport
import Dispatch
import Foundation
import RunEvents
import ScenarioKit
import TextKit
import Tracing

/// `opscope trace FILE --watch`: the file traced, then again at each save,
/// each trace after a line with the time and what the save changed (the
/// file's diagnostics instead, when it has errors), until Ctrl-C (or
/// SIGTERM, SIGHUP, SIGQUIT).
///
/// Every trace runs on the main queue of this one process, one after
/// another: a save while one runs stops it (its output ends as a trace
/// stopped by a signal ends, `run stopped by a save of FILE`; its run is
/// stopped in the background, its adds ended after their chunk) before
/// the next starts. A save is read on a thread of the watch's
/// (`ScenarioWatch`), a newer one giving up the read of an older one, so
/// the main thread only ever starts the newest. A save with nothing to
/// read (removed, a folder or a link loop in its place) is said on one
/// line, and the trace going on goes on. The watch takes the signals for
/// all of them, and ends with 128 + the signal whether a trace runs (it
/// stops as a trace stopped by that signal does) or it waits for a save:
/// a supervisor tells a kill from the end of a trace.
@MainActor
final class TraceWatch {
    private let end = CommandEnd()
    /// Standard output, for every trace and the lines between them.
    private let output = TraceOutput()
    private let path: String
    private let format: TraceFormat
    private let width: Int
    private let speed: Double
    private let verbose: Bool
    private var watch: ScenarioWatch?
    /// The trace going on, if one is.
    private var current: TraceSession?
    /// The run of the user's classes going on in a child, before its
    /// trace is written, if one is: what stops it.
    private var child: StopRequest?
    /// A signal came: the watch ends once the trace going on has.
    private var stopping = false
    /// A save is stopping the trace going on, to trace again at once.
    private var replacing = false

    private init(path: String, format: TraceFormat, width: Int, speed: Double, verbose: Bool) {
        self.path = path
        self.format = format
        self.width = width
        self.speed = speed
        self.verbose = verbose
    }

    /// Traces `file` (its diagnostics were printed when `result` has
    /// errors), then watches it; returns the status it ends with.
    static func run(
        _ file: SourceFile, _ result: ParseResult, format: TraceFormat, width: Int, speed: Double, verbose: Bool
    ) -> ExitStatus {
        let session = TraceWatch(path: file.path, format: format, width: width, speed: speed, verbose: verbose)
        TraceInterruption.install(output: session.output) { signal, status in
            session.interrupted(signal, status: status)
        }
        let scenario = result.hasErrors ? nil : result.scenario
        session.watch = ScenarioWatch.start(
            file.path, scenario: scenario ?? Scenario(queues: [], operations: []), ownCode: .accepted
        ) { arrival in
            DispatchQueue.main.async { MainActor.assumeIsolated { session.saved(arrival) } }
        }
        guard session.watch != nil else {
            MessagePrinter.standardError.error("cannot watch '\(file.path)' for saves")
            return .failed
        }
        if let scenario {
            session.trace(scenario, file)
        } else {
            session.waiting()
        }
        let status = MainThread.serve(until: session.end)
        session.watch?.stop()
        return status
    }

    private func trace(_ scenario: Scenario, _ file: SourceFile) {
        // The user's Swift files are watched with it: a save of one traces
        // it again.
        watch?.watchCode(scenario.code.map { OwnCodeCheck.resolve($0, scenarioPath: file.path) })
        let promised = TraceCommand.promises(scenario, at: speed, path: file.path)
        let settings = TraceCommand.settings(
            scenario, file: file, format: format, width: width, countsExpectations: promised, verbose: verbose)
        if !scenario.customOperations.isEmpty {
            traceInChild(settings, file)
            return
        }
        current = TraceSession.start(
            settings, speed: speed, watched: TraceSession.Watched(output: output) { [self] status in traced(status) })
    }

    /// The user's classes: their library made (or found kept) and their
    /// run made by a child, on a thread of its own; then its recording
    /// written as any trace's, unless a save or a signal came meanwhile.
    private func traceInChild(_ settings: TraceSession.Settings, _ file: SourceFile) {
        let stop = StopRequest()
        child = stop
        let (path, speed, scenario) = (file.path, speed, settings.scenario)
        Thread.detachNewThread {
            let events: [LifecycleEvent]?
            switch OwnClassBuild.library(for: scenario, scenarioPath: path, stop: stop) {
            case .success(let library):
                events = OwnClassRun.recorder(path, library: library, speed: speed, stop: stop)()
            case .failure where stop.status != nil:
                events = nil
            case .failure(let why):
                if !why.compilerText.isEmpty { MessagePrinter.standardError.write(why.compilerText) }
                MessagePrinter.standardError.error("your classes cannot run: \(why.summary)")
                events = nil
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { [self] in
                    guard child === stop else { return }
                    child = nil
                    guard let events else {
                        traced(.failed)
                        return
                    }
                    current = TraceSession.start(
                        settings, recorded: events,
                        watched: TraceSession.Watched(output: output) { [self] status in traced(status) })
                }
            }
        }
    }

    /// A trace ended (or was stopped).
    private func traced(_ status: ExitStatus) {
        current = nil
        if replacing { return }
        if stopping {
            end.end(status)
        } else {
            waiting()
        }
    }

    /// On a terminal, what happens next.
    private func waiting() {
        guard isatty(STDERR_FILENO) == 1 else { return }
        MessagePrinter.standardError.note("watching \(path): each save traces it again; Ctrl-C ends the watch")
    }

    /// A save: the trace going on stops, a line says when and what
    /// changed, and the file is traced again (or its errors printed). One
    /// with nothing to read is said on one line; the trace going on, if
    /// any, goes on. A save a newer one made stale while it waited on the
    /// main queue is skipped.
    private func saved(_ arrival: ScenarioWatch.Arrival) {
        guard !end.hasEnded, !stopping, !arrival.isSuperseded else { return }
        let reload = arrival.reload
        if case .unreadable(let reason) = reload {
            // On standard error: a line in a trace's stream would break it.
            let going = current == nil ? "nothing traced; the last trace stands" : "the trace under way goes on"
            MessagePrinter.standardError.warning("\(Self.clock()) \(reason.text(path)): \(going)")
            return
        }
        if let running = current {
            replacing = true
            running.interrupted("a save of \(path)", status: .failed)
            replacing = false
            current = nil
        }
        // A run of the user's classes not written yet: stopped, nothing of
        // it written.
        child?.request(signal: SIGTERM)
        child = nil
        switch reload {
        case .scenario(let scenario, let file, let changes):
            // A save of the user's code leaves the scenario as it was.
            let what =
                changes.statements == 0 && !scenario.code.isEmpty
                ? "\(path) or its Swift files saved: the scenario is as it was; your classes traced again as they are now"
                : "\(path) saved: \(changes.summary); traced again"
            separate("\(Self.clock()) \(what)")
            trace(scenario, file)
        case .problems(let result, let file):
            separate("\(Self.clock()) \(path) saved: \(Spelling.count(result.errorCount, "error")), nothing traced")
            ScenarioLoading.report(result, file: file)
            waiting()
        case .unreadable:
            break
        }
    }

    /// The line between two traces: in the stream for text and the
    /// timeline; on standard error for jsonl, chrome and the graphs, whose
    /// standard output stays one recording or export after another.
    private func separate(_ text: String) {
        switch format {
        case .text, .timeline:
            let failure = output.finish { out in out.append("\n--- \(text) ---\n\n") }
            if let failure {
                MessagePrinter.standardError.error(TraceOutput.cannotWrite(failure))
            }
        case .jsonl, .chrome, .dot, .mermaid:
            MessagePrinter.standardError.note(text)
        }
    }

    /// `14:02:11`, local time.
    private static func clock() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }

    /// A signal: the trace going on stops as a trace stopped by it does
    /// (what it wrote kept whole), and the watch ends with 128 + the
    /// signal, as it does while it waits for a save.
    private func interrupted(_ signal: String, status: ExitStatus) {
        guard !end.hasEnded, !stopping else { return }
        stopping = true
        watch?.stop()
        child?.request(signal: SIGTERM)
        child = nil
        if let running = current {
            running.interrupted(signal, status: status)
        } else {
            end.end(status)
        }
    }
}
