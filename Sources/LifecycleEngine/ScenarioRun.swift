import Dispatch
import Foundation
import RunEvents
import ScenarioKit

/// How a run is driven.
public struct RunOptions: Sendable {
    /// Scenario seconds per real second (`--speed`); > 0.
    public var speed: Double
    /// Start with scenario time paused.
    public var startsPaused: Bool
    /// What a stall does to the run.
    public var stallPolicy: StallPolicy
    /// Lesson mode: scenario time pauses at each caption (the learner
    /// goes on with `resume()`).
    public var pausesAtCaptions: Bool
    /// Called on the main thread as an operation of `OperationQueue.main`
    /// (or a barrier block on it) begins and ends its work there: while it
    /// works, the main thread does nothing else, so this is the last moment
    /// to draw before it blocks. Never under the run's lock.
    public var onMainThreadWork: (@Sendable (MainThreadWork) -> Void)?
    /// Called on the main thread for each wait an `at` line asks of it
    /// (`wait`, `wait-all`), with the call that blocks (Foundation's
    /// wait), which it must make before it returns. The main thread is
    /// blocked for as long as that call is: a host whose main thread has
    /// other duties (drawing, printing) hands them to a stand-in around it
    /// (`MainThreadStandIn`). Without it, the call is made as it is. Never
    /// under the run's lock.
    public var aroundMainThreadWait: (@Sendable (Action, _ wait: () -> Void) -> Void)?
    /// Keep every event for the whole run (`events`, `waitForEnd`). Without
    /// history the run lets go of each event once `takeEvents()` took it,
    /// so a consumer that only prints the stream runs in bounded memory;
    /// `events` then holds only what was not taken yet.
    public var keepsHistory: Bool
    /// What reads Foundation's state to see the moment a queue dispatches
    /// an operation; nil: nothing does, and each dispatch is announced when
    /// the operation's `start()` is called, so the run observes no moment
    /// of dispatch (`ScenarioRun.observesDispatches`) and withholds the
    /// captions that speak of one (`Caption.claimsDispatches`). By default
    /// `EngineState.processDefault`: the shared reader, unless the
    /// environment turns it off or this Foundation's state cannot be
    /// trusted.
    public var stateReader: EngineState?
    /// The user's classes (`class TYPE`), loaded: what the run makes those
    /// operations from. A run of a scenario with such an operation needs
    /// it, and the state reader: what Foundation was told of a class's
    /// finish is read from Foundation's state.
    public var ownClasses: OwnClassLibrary?

    public init(
        speed: Double = 1, startsPaused: Bool = false, stallPolicy: StallPolicy = .endsRun,
        pausesAtCaptions: Bool = false, onMainThreadWork: (@Sendable (MainThreadWork) -> Void)? = nil,
        aroundMainThreadWait: (@Sendable (Action, _ wait: () -> Void) -> Void)? = nil, keepsHistory: Bool = true,
        stateReader: EngineState? = EngineState.processDefault
    ) {
        self.stateReader = stateReader
        self.aroundMainThreadWait = aroundMainThreadWait
        self.keepsHistory = keepsHistory
        self.speed = speed
        self.startsPaused = startsPaused
        self.stallPolicy = stallPolicy
        self.pausesAtCaptions = pausesAtCaptions
        self.onMainThreadWork = onMainThreadWork
    }
}

/// What a run does when nothing can progress any more.
public enum StallPolicy: Sendable, Hashable {
    /// The run ends, `.end(.stalled)`: `trace` and `quiz`, where nobody
    /// can act (docs/SCENARIO-LANGUAGE.md, "How a run ends").
    case endsRun
    /// The run announces `.stall` and waits: someone at the keys may
    /// resume a queue, cancel an operation or raise a cap. Scenario time
    /// stands still while it waits (nothing that depends on it is left)
    /// and moves on from the same moment when an action comes. The run
    /// ends, as under either policy, once every operation finished and
    /// every completion block owed ran (timed actions still to come are
    /// not waited for).
    case waitsForUser
}

/// An operation's work on the main thread beginning or ending.
public enum MainThreadWork: Sendable, Hashable {
    case began(OperationID)
    case ended(OperationID)
}

/// One run of a scenario on Foundation's real `OperationQueue`s.
///
/// The engine decides everything (readiness, priority, the cap,
/// suspension, barriers, cancellation); the run supplies operations whose
/// work is simulated, observes them through a KVO-shaped API and records
/// every announcement, stamped with a sequence number and the scenario
/// time under one lock, in one causally ordered stream.
public final class ScenarioRun: Sendable {
    public let scenario: Scenario
    let core: RunCore

    /// `onEvents` is called (on an engine thread, never under the run's
    /// lock) whenever the mailbox goes from empty to non-empty; the
    /// consumer then calls `takeEvents()`.
    public init(
        scenario: Scenario, options: RunOptions = RunOptions(),
        onEvents: (@Sendable () -> Void)? = nil
    ) {
        self.scenario = scenario
        core = RunCore(scenario: scenario, options: options, onEvents: onEvents)
    }

    /// A run whose real time is read from `realTime` (monotonic
    /// nanoseconds) instead of the system's: a test skips time ahead with
    /// it where it would otherwise sleep to see that nothing happens.
    init(
        scenario: Scenario, options: RunOptions, realTime: @escaping @Sendable () -> UInt64
    ) {
        self.scenario = scenario
        core = RunCore(scenario: scenario, options: options, onEvents: nil, realTime: realTime)
    }

    deinit { core.stop() }

    /// Builds the queues and operations and starts scenario time: announces
    /// each queue's configuration, adds the operations not named by an
    /// `add` action in file order, then starts the scheduler (so `at 0ms`
    /// actions come after those adds).
    public func start() { core.start(reporting: nil) }

    /// `start()`, telling `report` on the calling thread, every `interval`
    /// real seconds, how far the adds are (a million operations take
    /// seconds), and once more when they are done. Not under any lock of
    /// the run's, but within `start()`: `report` must not act on the run.
    public func start(reportingEvery interval: Double, _ report: (BuildProgress) -> Void) {
        withoutActuallyEscaping(report) { report in core.start(reporting: (interval, report)) }
    }

    /// How far `start()` is in handing the operations to Foundation; from
    /// any thread.
    public var buildProgress: BuildProgress {
        core.withLockedModel { model in model.buildProgress }
    }

    /// Removes and returns every event recorded since the last call, in order.
    public func takeEvents() -> [LifecycleEvent] { core.takeEvents() }

    /// `takeEvents()` by a consumer that promises to take again soon by
    /// itself: until it takes next, `onEvents` is not called, so that a
    /// busy run does not wake it for each handful of events.
    public func takeEventsAndComeBack() -> [LifecycleEvent] { core.takeEvents(comesBack: true) }

    /// Nothing can progress now: the run announced a stall (or ended
    /// stalled) and nothing happened since. Safe from any thread.
    public var isStalled: Bool { core.withLockedModel { model in model.isStalledNow } }

    /// Every event recorded so far (whatever `takeEvents()` already took),
    /// when the run keeps its history (`RunOptions.keepsHistory`).
    public var events: [LifecycleEvent] { core.allEvents() }

    /// Blocks the calling thread (never the main thread when the scenario
    /// has a `main` queue) until the run has ended or `timeout` real seconds
    /// passed, and returns the whole stream; the last event is `.end` when
    /// the run ended.
    public func waitForEnd(timeout: Double) -> [LifecycleEvent] {
        _ = core.waitForEnd(timeout: timeout)
        return core.allEvents()
    }

    /// Waits without blocking a thread of the caller's executor.
    public func ended(timeout: Double) async -> [LifecycleEvent] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[LifecycleEvent], Never>) in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: self.waitForEnd(timeout: timeout))
            }
        }
    }

    /// True once `.end` was recorded (or the run was stopped).
    public var hasEnded: Bool { core.withLockedModel { model in model.log.isClosed } }

    /// The run sees the moment a queue dispatches an operation (it has a
    /// state reader, `RunOptions.stateReader`). When false each
    /// `dispatched` event comes as the operation starts, and the captions
    /// that speak of a dispatch are withheld: a view must say that it
    /// shows no dispatch moment.
    public var observesDispatches: Bool { core.stateReader != nil }

    /// The current scenario time, in scenario seconds.
    public var now: Double { core.withLockedModel { model in model.now(core.realTime()) } }

    /// Performs an action (from the interface: origin `.user`). Recorded as
    /// an `.action` event, then its effects; refused actions (re-adding,
    /// cancelling a finished operation, what `OperationQueue.main` ignores)
    /// are recorded with the reason in `ignored`. Safe from any thread
    /// except that a completion block's own actions run on its thread.
    /// Returns false, doing nothing, when the run is not running: not
    /// started, ended (also when it stalled in `trace`) or stopped.
    @discardableResult
    public func perform(_ action: Action, origin: ActionOrigin = .user) -> Bool {
        core.perform(action, origin: origin)
    }

    public func pause() { core.pause() }
    public func resume() { core.resume() }
    public var isPaused: Bool { core.withLockedModel { model in model.clock.isPaused } }
    public var speed: Double { core.withLockedModel { model in model.clock.speed } }
    public func setSpeed(_ speed: Double) { core.setSpeed(speed) }

    /// Lesson mode on or off for the rest of the run.
    public var pausesAtCaptions: Bool {
        get { core.withLockedModel { model in model.captions.pausesAtCaptions } }
        set { core.withLockedModel { model in model.captions.pausesAtCaptions = newValue } }
    }

    /// Ends the run early: cancels what is left and releases waiting work,
    /// so that no engine thread is left blocked. No event is recorded
    /// after it. Idempotent; also done when the run is deinitialised.
    public func stop() { core.stop() }

    /// `stop()` without waiting for it, for a run that another replaces
    /// (a restart, a save of a watched file) or a program that ends: the
    /// start's adds end after their chunk (a large file's need not be
    /// handed over to the end first), and the stop (the cancels, the
    /// queues drained, every object let go of once Foundation is done
    /// with it) goes on a thread of its own, which holds the run until
    /// then.
    public func stopInBackground() {
        core.abandoned.store(true, ordering: .releasing)
        let stopping = Thread { [self] in stop() }
        stopping.name = "opscope stop"
        stopping.start()
    }

    /// The KVO-shaped observation handle of an operation (or barrier).
    public func operation(_ id: OperationID) -> ObservedOperation { ObservedOperation(id: id, core: core) }

    /// The KVO-shaped observation handle of a queue.
    public func queue(_ id: QueueID) -> ObservedQueue { ObservedQueue(id: id, core: core) }

    /// Runs a scenario to its end (or `timeout` real seconds), stops it and
    /// returns the whole stream. Never call it on the main thread for a
    /// scenario with a `main` queue.
    public static func run(
        _ scenario: Scenario, options: RunOptions = RunOptions(), timeout: Double = 60
    ) -> [LifecycleEvent] {
        let run = ScenarioRun(scenario: scenario, options: options)
        run.start()
        let events = run.waitForEnd(timeout: timeout)
        run.stop()
        return events
    }
}
