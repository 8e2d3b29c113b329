import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Synchronization

/// A run of a scenario whose events are taken on the main queue, for the
/// commands that print a run and exit (`trace`, `quiz`).
///
/// The engine wakes the main queue when its mailbox fills; a slow timer
/// drains beside the wake-ups in case one was missed; an optional limit
/// guards against a run that never reports its end. The caller then hands
/// the main thread to the main queue (`MainThread.serve(until:)`), so a
/// scenario queue declared `main` is OperationQueue.main on the main thread.
@MainActor
package final class MainQueueRun {
    package typealias Batch = @MainActor ([LifecycleEvent]) -> Void
    /// Called once with the whole stream (empty when the run keeps no
    /// stream), and the limit (real seconds) when the run did not end
    /// within it.
    package typealias End = @MainActor ([LifecycleEvent], _ timedOutAfter: Double?) -> Void

    private let slot = RunSlot()
    private var events: [LifecycleEvent] = []
    /// Events taken from the run and not yet handed to `onBatch`, from
    /// `backlogStart` on (`drain()`).
    private var backlog: [LifecycleEvent] = []
    private var backlogStart = 0
    /// A drain of the rest of the backlog is on the main queue.
    private var drainPosted = false
    /// How many events the last take brought: from `pacedFrom` on, the
    /// run is busy, and the next take comes by itself `pace` later rather
    /// than when the run wakes this thread (`takeEventsAndComeBack`).
    private var lastTake = 0
    /// The paced take is on the main queue.
    private var comeBackPosted = false
    /// Takes the events while a wait of the scenario blocks the main
    /// thread; a paced take is not made then (it would come back on the
    /// blocked main queue), the stand-in being woken by each event.
    private var standIn: MainThreadStandIn?
    private var finished = false
    private var keepsStream = true
    private var stopsAtEnd = false
    private var timers: [any DispatchSourceTimer] = []
    private let onBatch: Batch
    private let onEnd: End

    private init(onBatch: @escaping Batch, onEnd: @escaping End) {
        self.onBatch = onBatch
        self.onEnd = onEnd
    }

    /// Starts the run. `onBatch` gets each batch of events in order;
    /// `onEnd` is called once, after the `.end` event or the time limit.
    /// Without `keepsStream`, each batch is let go of once `onBatch` had
    /// it (by the run and here): a run that is only printed holds no more
    /// than a batch. `standIn`: what takes the events while a wait of the
    /// scenario blocks the main thread (its duty is set by the caller, and
    /// calls `drainNow()`); without one, they wait for the main thread.
    /// `configure` changes the run's options last (a live child's stall
    /// policy and lesson mode). With `stopsAtEnd`, the run is stopped before `onEnd`
    /// (`ScenarioRun.stop()`), so that nothing of it holds the main queue
    /// when another run follows in the same process (`diff`).
    @discardableResult
    package static func start(
        _ scenario: Scenario, speed: Double, timeLimit: Double? = nil, keepsStream: Bool = true,
        stopsAtEnd: Bool = false, standIn: MainThreadStandIn? = nil, ownClasses: OwnClassLibrary? = nil,
        configure: (inout RunOptions) -> Void = { _ in }, onBatch: @escaping Batch = { _ in }, onEnd: @escaping End
    ) -> MainQueueRun {
        let session = MainQueueRun(onBatch: onBatch, onEnd: onEnd)
        session.keepsStream = keepsStream
        session.stopsAtEnd = stopsAtEnd
        session.standIn = standIn
        let around: (@Sendable (Action, () -> Void) -> Void)? = standIn.map { standIn in
            { @Sendable _, wait in standIn.park(wait) }
        }
        let options = {
            var options = RunOptions(speed: speed, aroundMainThreadWait: around, keepsHistory: keepsStream)
            options.ownClasses = ownClasses
            configure(&options)
            return options
        }()
        let drainTimer = DispatchSource.makeTimerSource(queue: .main)
        drainTimer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        drainTimer.setEventHandler { MainActor.assumeIsolated { session.drain() } }
        drainTimer.resume()
        session.timers = [drainTimer]
        if let timeLimit {
            let giveUp = DispatchSource.makeTimerSource(queue: .main)
            giveUp.schedule(deadline: .now() + timeLimit)
            giveUp.setEventHandler { MainActor.assumeIsolated { session.finish(timedOutAfter: timeLimit) } }
            giveUp.resume()
            session.timers.append(giveUp)
        }
        // Made and started on a thread of its own, so that the main thread
        // takes and prints events while a large scenario is still being
        // added (a hundred thousand adds take a good part of a second), and
        // meanwhile makes whatever its caller makes after this call; started
        // here, the whole stream would pile up before the first take.
        let slot = session.slot
        let starter = Thread {
            let run = ScenarioRun(scenario: scenario, options: options) {
                DispatchQueue.main.async { MainActor.assumeIsolated { session.drain() } }
                standIn?.nudge()
            }
            if slot.publish(run) { run.start() }
        }
        starter.name = "opscope start"
        starter.start()
        return session
    }

    /// How far the run's start is in handing its operations to
    /// Foundation; nil until the run is made.
    package nonisolated var buildProgress: BuildProgress? { slot.run?.buildProgress }

    /// The run, once made (on a thread of its own): to act on it from any
    /// thread (`ScenarioRun` is safe from any).
    package nonisolated var scenarioRun: ScenarioRun? { slot.run }

    /// Takes what the run announced now (the stand-in's duty).
    package func drainNow() { drain() }

    /// Stops the run and lets go of it; `onBatch` and `onEnd` are not
    /// called any more. For a command that runs again in the same process
    /// (`trace --repeat`): the run holds this session (its wake-up) and
    /// this session the run, so a run never let go of would stay, with its
    /// queues and (when it stalled) its operations.
    package func stop() {
        finished = true
        for timer in timers { timer.cancel() }
        slot.take()?.stop()
    }

    /// `stop()`, without waiting for the run to stop
    /// (`ScenarioRun.stopInBackground`): a run of a large file still
    /// adding ends its adds after their chunk, and is stopped and let go
    /// of on a thread of its own. For a command whose next run should not
    /// wait for this one (`trace --watch`).
    package func stopInBackground() {
        finished = true
        for timer in timers { timer.cancel() }
        backlog = []
        slot.take()?.stopInBackground()
    }

    /// Most events handed to `onBatch` at once: a run that got ahead of
    /// its printing (a large file's adds) is printed a slice at a time,
    /// so that what else waits on the main queue (a save, a signal) comes
    /// between two slices, not after the whole backlog.
    static let slice = 16_384

    /// A take of at least this many events makes the next one paced.
    static let pacedFrom = 512
    /// The wait before a paced take: a busy run (a hundred thousand
    /// operations) woke this thread some three thousand times a second,
    /// each time taking the run's lock from its engine threads and
    /// putting one of them off its core.
    static let pace = DispatchTimeInterval.milliseconds(4)

    /// The paced take, `pace` from now (once, however many ask).
    private func comeBack() {
        guard !comeBackPosted else { return }
        comeBackPosted = true
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.pace) {
            MainActor.assumeIsolated {
                self.comeBackPosted = false
                self.drain()
            }
        }
    }

    private func drain() {
        guard !finished, let run = slot.run else { return }
        if backlogStart >= backlog.count {
            let paced = lastTake >= Self.pacedFrom && standIn?.isParked != true
            backlog = paced ? run.takeEventsAndComeBack() : run.takeEvents()
            lastTake = backlog.count
            backlogStart = 0
            if paced { comeBack() }
        }
        guard backlogStart < backlog.count else { return }
        let end = min(backlog.count, backlogStart + Self.slice)
        let batch: [LifecycleEvent]
        if backlogStart == 0 && end == backlog.count {
            // All of it in one batch: handed over as it is, not copied.
            batch = backlog
            backlog = []
        } else {
            batch = Array(backlog[backlogStart..<end])
            backlogStart = end
            if backlogStart >= backlog.count { backlog = [] }
        }
        if keepsStream { events += batch }
        onBatch(batch)
        if case .end = batch.last?.kind {
            finish(timedOutAfter: nil)
        } else if backlogStart < backlog.count, !drainPosted {
            drainPosted = true
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.drainPosted = false
                    self.drain()
                }
            }
        }
    }

    private func finish(timedOutAfter limit: Double?) {
        guard !finished else { return }
        finished = true
        for timer in timers { timer.cancel() }
        let run = slot.close()
        if limit != nil, let taken = run?.takeEvents() {
            let late = Array(backlog[min(backlogStart, backlog.count)...]) + taken
            backlog = []
            if !late.isEmpty {
                if keepsStream { events += late }
                onBatch(late)
            }
        }
        // The run is not stopped unless asked: the command ends with what
        // `onEnd` decides, and its process exits; stopping would cancel and
        // release every operation of a large run first, for nothing.
        if stopsAtEnd { run?.stop() }
        onEnd(events, limit)
    }
}

/// The run, once the starter thread made it; closed when the session
/// finished, after which a run made late is never started.
private final class RunSlot: Sendable {
    private let state = Mutex<(run: ScenarioRun?, closed: Bool)>((nil, false))

    /// Keeps `run`; false when the session already finished.
    func publish(_ run: ScenarioRun) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.run = run
            return true
        }
    }

    var run: ScenarioRun? { state.withLock { $0.run } }

    /// Closes the slot and lets go of the run, returning it.
    func take() -> ScenarioRun? {
        state.withLock { state in
            state.closed = true
            defer { state.run = nil }
            return state.run
        }
    }

    /// Closes the slot and returns the run, if one was made.
    func close() -> ScenarioRun? {
        state.withLock { state in
            state.closed = true
            return state.run
        }
    }
}
