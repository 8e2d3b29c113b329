import CommandSupport
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Tracing

/// `opscope trace FILE --repeat N`: the scenario run N times, one run
/// after another in this process, each a fresh run on the real engine
/// judged as a single trace judges it; then a summary (`RepeatSummary`,
/// `RepeatReport`) instead of the stream.
enum TraceRepeat {
    /// How many runs `--repeat` takes.
    static let range = 1...10_000

    /// The runs `--repeat` asks for, nil without it. It cannot go with a
    /// recording (nothing is run there) or with a format that draws one run
    /// (chrome, timeline).
    static func count(_ args: Arguments, format: TraceFormat, recording: Bool) throws(UsageError) -> Int? {
        guard args.value("repeat") != nil else { return nil }
        let count = try args.whole("repeat", in: range, default: 1)
        if recording {
            throw UsageError.oneRunAlready("repeat")
        }
        guard format == .text || format == .jsonl else {
            throw UsageError(
                "'--repeat' writes a summary of the runs as 'text' or 'jsonl', not '\(format.rawValue)', which draws "
                    + "one run")
        }
        return count
    }

    /// Runs `scenario` `count` times and writes the summary; returns the
    /// trace's status.
    @MainActor
    /// `recordRun`, when given, makes each run instead of a run in this
    /// process: on a thread of its own, to its end, returning its events
    /// (the user's classes, run in a child: `OwnClassRun.recorder`).
    static func run(
        _ scenario: Scenario, path: String, count: Int, speed: Double, format: TraceFormat, countsExpectations: Bool,
        recordRun: (@Sendable () -> [LifecycleEvent])? = nil
    ) -> ExitStatus {
        let session = RepeatSession(
            summary: RepeatSummary(scenario: scenario, countsExpectations: countsExpectations),
            report: RepeatReport(path: path, speed: speed, planned: count), format: format, recordRun: recordRun)
        return session.serve()
    }
}

/// The runs of `trace --repeat`, one after another on the main queue: each
/// a `MainQueueRun` whose batches a `RepeatRunReader` folds and lets go
/// of, stopped and let go of once it ended, then folded into the summary.
/// The main thread serves the main queue throughout, so a `main` queue is
/// `OperationQueue.main` in every run.
@MainActor
private final class RepeatSession {
    private let end = CommandEnd()
    private var summary: RepeatSummary
    private var report: RepeatReport
    private let format: TraceFormat
    private let output = TraceOutput()
    private var reader: RepeatRunReader
    private var current: MainQueueRun?
    /// Takes the events while a wait of the scenario blocks the main thread.
    private let standIn = MainThreadStandIn()
    private var progress: RepeatProgressLine?
    /// Real seconds a run may take before it is counted as not ended (the
    /// engine ends every run by itself, completed or stalled: this only
    /// guards against one that never reports its end).
    private let timeLimit: Double
    private let recordRun: (@Sendable () -> [LifecycleEvent])?

    init(
        summary: RepeatSummary, report: RepeatReport, format: TraceFormat,
        recordRun: (@Sendable () -> [LifecycleEvent])?
    ) {
        self.summary = summary
        self.report = report
        self.format = format
        self.recordRun = recordRun
        reader = RepeatRunReader(scenario: summary.scenario)
        timeLimit = QuizSession.timeLimit(summary.scenario, speed: report.speed)
    }

    func serve() -> ExitStatus {
        TraceInterruption.install(output: output) { [self] signal, status in interrupted(signal, status: status) }
        progress = RepeatProgressLine.start(planned: report.planned)
        standIn.setDuty(
            MainThreadStandIn.asIfOnMain { [self] in
                current?.drainNow()
                // The run ended while a wait holds the main thread (a run
                // ends in a wait only when nothing can end that wait): the
                // thread never comes back, and every later run needs it.
                guard current == nil || end.hasEnded else { return }
                if !end.hasEnded {
                    MessagePrinter.standardError.note(
                        "stopped after run \(summary.runs) of \(report.planned): the main thread is blocked for good "
                            + "in a wait of the scenario (a deadlock), and every run needs it")
                    finish()
                }
                // The status cannot come back to `main`: the process ends here.
                if let status = end.status { Opscope.endWithoutMainThread(status) }
            })
        startRun()
        return MainThread.serve(until: end)
    }

    private func startRun() {
        guard !end.hasEnded else { return }
        reader = RepeatRunReader(scenario: summary.scenario)
        progress?.update(run: summary.runs + 1, failed: summary.failedRuns.count)
        if let recordRun {
            let made = Thread {
                let events = recordRun()
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard !self.end.hasEnded else { return }
                        self.reader.read(events)
                        self.runEnded()
                    }
                }
            }
            made.name = "opscope child run"
            made.start()
            return
        }
        current = MainQueueRun.start(
            summary.scenario, speed: report.speed, timeLimit: timeLimit, keepsStream: false, standIn: standIn,
            onBatch: { [self] batch in reader.read(batch) },
            onEnd: { [self] _, _ in runEnded() })
    }

    /// The run ended (or reached the time limit): it is let go of before
    /// the next starts, so only the summary grows.
    private func runEnded() {
        guard !end.hasEnded else { return }
        current?.stop()
        current = nil
        summary.add(reader)
        reader = RepeatRunReader(scenario: summary.scenario)
        if summary.runs == report.planned {
            finish()
            return
        }
        // After the ended run's own call has returned.
        DispatchQueue.main.async { MainActor.assumeIsolated { self.startRun() } }
    }

    private func finish() {
        guard !end.hasEnded else { return }
        progress?.finish()
        let (summary, report, format) = (summary, report, format)
        let failure = output.finish { out in
            switch format {
            case .jsonl: out.bytes.append(contentsOf: report.jsonLines(summary))
            default: out.append(report.text(summary))
            }
        }
        if let failure {
            MessagePrinter.standardError.error(TraceOutput.cannotWrite(failure))
            end.end(.failed)
        } else {
            end.end(report.status(summary))
        }
    }

    /// A signal: the run going on is stopped and not counted; the summary
    /// of the runs that ended is written, and the trace ends with the
    /// signal's status.
    private func interrupted(_ signal: String, status: ExitStatus) {
        guard !end.hasEnded else { return }
        current?.stop()
        current = nil
        report.stopped = (signal, status)
        finish()
    }
}
