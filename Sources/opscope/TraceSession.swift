import Board
import CommandSupport
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import Tracing

/// A trace as it goes: the run (or a recording) on the main queue, its
/// batches to the line that says what a quiet run waits for and to the
/// writer, and the status it ends with, once it ends or a signal stops it.
@MainActor
final class TraceSession {
    /// What is traced, and how.
    struct Settings {
        var scenario: Scenario
        var format: TraceFormat
        var width: Int
        var countsExpectations: Bool
        var header: JSONLineEncoder.Header?
        /// A stall's report adds each stuck operation (`--verbose`).
        var verbose = false
        /// The user's classes, loaded (`OwnClassRun`): the run makes its
        /// `class TYPE` operations from them.
        var ownClasses: OwnClassLibrary?
        /// Changes the run's options last (`OwnClassLive`: a board's child
        /// waits for the user at a stall).
        var configure: @Sendable (inout RunOptions) -> Void = { _ in }
    }

    /// The readers of each batch, in order: the wait line is erased before
    /// the batch is written.
    private static let readers = EventFanOut<TraceSession>().reading(\.waitLine).reading(\.writer)

    /// A trace of `trace --watch`: its output is the watch's (one for all
    /// its traces), the watch takes the signals, and it hears how each
    /// trace ended.
    struct Watched {
        var output: TraceOutput
        var ended: @MainActor (ExitStatus) -> Void
    }

    private let end = CommandEnd()
    /// Shared with the clock of a board's child (`OwnClassLive`), which
    /// writes its lines between two batches.
    nonisolated let output: TraceOutput
    private let watched: Watched?
    /// The run, once started (nil for a recording).
    private var run: MainQueueRun?
    /// Made after the run started (a large file's takes a while).
    private var writer: TraceWriter?
    /// On a terminal, what a quiet run waits for (standard error).
    private var waitLine: TraceWaitLine?
    /// On a terminal, how far a large run's handover to Foundation is.
    private var progress: BuildProgressLine?

    private init(watched: Watched?) {
        self.watched = watched
        // The child of a trace of the user's classes writes each batch at
        // once: a crash in their code loses none it had.
        output =
            watched?.output
            ?? (OwnClassRun.isChild
                ? TraceOutput(sink: FileDescriptorSink(OwnClassRun.recordingDescriptor), isTerminal: true)
                : TraceOutput())
    }

    /// Starts the run of the scenario (or the writing of `recorded`, a
    /// recording's events: nothing runs then); `serve()` carries it out.
    /// The settings are let go of once the header is written: a
    /// recording's holds the scenario's whole text.
    static func start(
        _ settings: consuming Settings, speed: Double = 1, recorded: [LifecycleEvent]? = nil,
        watched: Watched? = nil
    ) -> TraceSession {
        let session = TraceSession(watched: watched)
        if watched == nil {
            TraceInterruption.install(output: session.output) { signal, status in
                session.interrupted(signal, status: status)
            }
        }
        if let recorded {
            session.writer = session.makeWriter(settings)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    session.read(recorded)
                    session.finish()
                }
            }
        } else {
            session.start(settings, speed: speed)
        }
        return session
    }

    /// Serves the main queue until the trace ended; returns its status.
    func serve() -> ExitStatus {
        MainThread.serve(until: end)
    }

    /// The run starts first: its thread builds the operations while this
    /// one makes the encoders and writes the header (the scenario's whole
    /// text, for jsonl). Nothing reaches the writer before then: batches
    /// come on the main queue, which this thread serves only afterwards.
    private func start(_ settings: Settings, speed: Double) {
        let standIn = MainThreadStandIn()
        let run = MainQueueRun.start(
            settings.scenario, speed: speed, keepsStream: false, standIn: standIn, ownClasses: settings.ownClasses,
            configure: settings.configure, onBatch: { [self] in read($0) },
            onEnd: { [self] _, _ in finish() })
        standIn.setDuty(
            MainThreadStandIn.asIfOnMain { [self] in
                run.drainNow()
                // Ended while a wait holds the main thread: it never comes
                // back to return the status (the run ends in a wait only when
                // nothing can end that wait), so the trace ends the process
                // from here.
                // (`finish` wrote everything out.)
                if let status = end.status {
                    if watched != nil {
                        MessagePrinter.standardError.note(
                            "the watch stops: the main thread is blocked for good in a wait of the scenario, and "
                                + "every trace needs it")
                    }
                    Opscope.endWithoutMainThread(status)
                }
            })
        self.run = run
        // Before the writer: making it takes a while for a large file.
        progress = BuildProgressLine.start { run.buildProgress }
        writer = makeWriter(settings)
        waitLine = TraceWaitLine(scenario: settings.scenario, speed: speed)
    }

    /// The run, once made: what a board's child acts on (`OwnClassLive`).
    var mainQueueRun: MainQueueRun? { run }

    /// Takes what the run announced and writes it now.
    func drainNow() { run?.drainNow() }

    private func makeWriter(_ settings: Settings) -> TraceWriter {
        TraceWriter(
            scenario: settings.scenario, format: settings.format, countsExpectations: settings.countsExpectations,
            width: settings.width, header: settings.header, output: output,
            // The child's report is its parent's to write, from the
            // recording: its standard error carries the user's prints.
            messages: OwnClassRun.isChild ? MessagePrinter { _ in } : .standardError, verbose: settings.verbose)
    }

    private func read(_ batch: [LifecycleEvent]) {
        guard !end.hasEnded else { return }
        var session = self
        Self.readers.read(batch, into: &session)
    }

    /// The run ended: the report, and the trace's status.
    private func finish() {
        guard !end.hasEnded else { return }
        progress?.finish()
        waitLine?.stop()
        if let writer { end.end(writer.finish()) }
        endWatched()
    }

    /// Stopped by `signal` (or, with `--watch`, by a save: `signal` then
    /// says so, `a save of FILE`): what was written is kept whole.
    func interrupted(_ signal: String, status: ExitStatus) {
        guard !end.hasEnded else { return }
        progress?.finish()
        waitLine?.stop()
        // Stopped before the writer was made: nothing was written yet.
        end.end(writer?.interrupt(signal, status: status) ?? status)
        endWatched()
    }

    /// With `--watch`: the run is stopped in the background and let go of
    /// (the next trace runs in this process), after this call, so never
    /// from the stand-in's thread, and the watch hears the status.
    private func endWatched() {
        guard let watched, let status = end.status else { return }
        if let run {
            self.run = nil
            // Stopped without waiting: a large file's run may still be adding.
            DispatchQueue.main.async { MainActor.assumeIsolated { run.stopInBackground() } }
        }
        watched.ended(status)
    }
}
