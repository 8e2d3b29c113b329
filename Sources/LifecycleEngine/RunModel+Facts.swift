import RunEvents
import ScenarioKit

/// The engine's facts as the shell reports them, each one call that
/// returns what the shell must then do: `RunCore` locks, asks, unlocks and
/// carries that out, and decides nothing itself. The lower-level rules
/// these calls are made of (`begin`, `finish`, `cancelBeforeStart`, …) are
/// in `RunModel+Operations.swift`.
extension RunModel {
    /// A thread as the shell sees it: its `pthread_self()`, and whether it
    /// is the main thread.
    struct ThreadIdentity: Equatable {
        var id: UInt
        var isMain: Bool
    }

    // MARK: - Asynchronous operations

    /// What the shell does with an asynchronous operation's own state after
    /// a fact: store `state` while it holds the lock (so that the stores
    /// keep the order of the announcements: a cancel's finish is never
    /// overwritten by a start's `executing`), post the changes to
    /// Foundation once it released it, then look at `scan`.
    struct AsyncStep: Equatable {
        /// `AsyncOperation.state`'s values.
        enum State: UInt8 {
            case executing = 1
            case finished = 2
        }

        var state: State?
        var postsExecuting = false
        var postsFinished = false
        /// Once its posted finish is processed: where to look for
        /// dispatches, nil when there is nothing to ask (`afterFinish`).
        var scan: DispatchScan?
        /// A timer now ends it: the scheduler must look (it may be due
        /// before what it sleeps for).
        var wakesScheduler = false

        /// Its finish, posted: both keys, as Foundation's own `start()` does.
        static func finishing(_ scan: DispatchScan?) -> AsyncStep {
            AsyncStep(state: .finished, postsExecuting: true, postsFinished: true, scan: scan)
        }
    }

    /// An asynchronous operation's `start()` was called on `thread`. A
    /// cancelled one finishes at once without running; one of no duration
    /// that posts its finish finishes at once after it began; one that
    /// never posts it only begins; any other begins and a timer ends it.
    /// After a stop it is let go of at once, unannounced.
    mutating func asyncStarted(_ i: Int, thread: ThreadIdentity, real: UInt64) -> AsyncStep {
        var step = AsyncStep()
        if lifecycle == .stopped {
            step.state = .finished
            step.postsFinished = true
        } else if records[i].phase == .finished {
            // Nothing: already finished (cannot happen through the queue).
        } else if records[i].cancelled && !scenario.forgetsIfCancelled.isEmpty
            && scenario.forgetsIfCancelled.contains(OperationID(i))
        {
            // Nothing posted: Foundation's state for it stays "starting".
            strand(i, real: real)
        } else if records[i].cancelled {
            step.scan = afterFinish(i, scan: finishAtStart(i, real: real))
            step.state = .finished
            step.postsFinished = true
        } else {
            begin(i, thread: threads.tag(thread), real: real)
            step.state = .executing
            step.postsExecuting = true
            if !facts.neverFinishes[i] {
                if facts.durations[i] <= 0 {
                    step.scan = afterFinish(i, scan: finish(i, real: real))
                    step.state = .finished
                    step.postsFinished = true
                } else {
                    step.wakesScheduler = true
                }
            }
        }
        return step
    }

    /// The timer of asynchronous operation `i` fired: it finishes, if it
    /// still executes (a cancel may have finished it first).
    mutating func asyncTimerFired(_ i: Int, real: UInt64) -> AsyncStep {
        guard records[i].phase == .executing else { return AsyncStep() }
        return .finishing(afterFinish(i, scan: finish(i, real: real)))
    }

    // MARK: - Cancels

    /// When the shell calls Foundation's own `cancel()`.
    enum FoundationCancel: Equatable {
        /// Not at all: it would be a no-op or a repeat, or it is held
        /// until `main()` begins.
        case none
        /// While still holding the lock, before anything else can be
        /// announced (see `RunCore.cancel` for why each case needs it).
        case underLock
        /// Once the lock is released.
        case afterUnlock
    }

    /// What the shell does after a `cancel()` of an operation.
    struct CancelStep: Equatable {
        var foundation = FoundationCancel.none
        /// Looked at right after a cancel under the lock, still under it:
        /// Foundation's `cancel()` made the operation ready and let its
        /// queue dispatch before it returned.
        var readied = DispatchScan()
        /// An executing asynchronous operation that checks the flag
        /// finishes at once.
        var async = AsyncStep()
    }

    /// Every `cancel()` of an operation of the run (an action, Foundation's
    /// `cancelAllOperations()`, the stop). `claimStartWindow` claims a
    /// synchronous operation's start window (`StartWindow`); it is called
    /// only for one that has not started, and is false when `start()` got
    /// in first: the cancel is then held until `main()` begins.
    mutating func cancelled(_ i: Int, real: UInt64, claimStartWindow: () -> Bool) -> CancelStep {
        var step = CancelStep()
        if lifecycle == .stopped {
            step.foundation = .afterUnlock
            return step
        }
        let r = records[i]
        if r.phase == .finished || r.cancelled || r.heldCancel { return step }
        if r.phase == .executing {
            cancelWhileExecuting(i, real: real)
            if facts.kinds[i] == .async && !facts.neverFinishes[i] && !facts.ignoresCancel[i] {
                // Foundation's cancel() does nothing to an operation that
                // says it finished: it comes before the finished state,
                // which is stored under the lock.
                step.foundation = .underLock
                step.async = .finishing(afterFinish(i, scan: finish(i, real: real)))
            } else {
                step.foundation = .afterUnlock
            }
            return step
        }
        if facts.kinds[i] != .async && !claimStartWindow() {
            records[i].heldCancel = true
            return step
        }
        step.readied = cancelBeforeStart(i, real: real)
        step.foundation = .underLock
        return step
    }

    // MARK: - Synchronous operations and barrier blocks

    /// Simulated work about to be done on a thread of the engine's.
    struct Work: Equatable {
        /// Scenario time it began.
        var started: Double
        /// Scenario seconds.
        var duration: Double
        /// Stops early when cancelled.
        var cooperative: Bool
        /// A cancel held by the start window, applied now as a cancel of a
        /// running operation: Foundation's `cancel()` is to be called.
        var appliesHeldCancel = false

        var end: Double { started + duration }
        var simulates: Bool { duration > 0 }
    }

    /// `start()` of a synchronous operation found it cancelled before it
    /// began: Foundation's `start()` will finish it without `main()`, so
    /// its finish is announced first. (The cancel that set the window bit
    /// announced under the lock, so this comes after its `isCancelled`.)
    /// What to do once Foundation's `start()` returned (`afterFinish`).
    mutating func syncStartFoundCancelled(_ i: Int, real: UInt64) -> DispatchScan? {
        guard records[i].phase != .finished && records[i].phase != .executing else {
            return afterFinish(i, scan: DispatchScan())
        }
        return afterFinish(i, scan: finishAtStart(i, real: real))
    }

    /// `main()` of a synchronous operation began on `thread`: the work to
    /// simulate.
    mutating func syncMainBegan(_ i: Int, thread: ThreadIdentity, real: UInt64) -> Work {
        let (t, held) = begin(i, thread: threads.tag(thread), real: real)
        return Work(
            started: t, duration: facts.durations[i], cooperative: !facts.ignoresCancel[i], appliesHeldCancel: held)
    }

    /// `main()` of a synchronous operation returns: it finishes. What to do
    /// once Foundation's `start()` returned (`afterFinish`).
    mutating func syncMainEnded(_ i: Int, real: UInt64) -> DispatchScan? {
        leaveWorkRunning(i, real: real)
        return afterFinish(i, scan: finish(i, real: real))
    }

    /// What `main()` of a `work` operation does as it begins
    /// (`syncMainRan`): the work to simulate, or, when it ended in the same
    /// step, what to do once Foundation's `start()` returned.
    struct SyncMainStep: Equatable {
        var work: Work
        /// `main()` began and ended in this step (`scan` says what next).
        var ended = false
        /// As `syncMainEnded`'s; nil also when the object was let go of.
        var scan: DispatchScan?
        /// The shell lets go of the operation's object now (`letsGoAtFinish`).
        var letsGo = false
    }

    /// `main()` of a `work` operation began on `thread`. With no work to
    /// simulate, off the main thread (`endsAtOnce`) and no held cancel to
    /// pass on first, it ends in the same step: nothing can happen between
    /// the two announcements but another thread's fact, which could as
    /// well come after them, and the shell takes its lock once, not twice.
    /// On the main thread the interface hears of the work between them.
    mutating func syncMainRan(_ i: Int, thread: ThreadIdentity, endsAtOnce: Bool, real: UInt64) -> SyncMainStep {
        let work = syncMainBegan(i, thread: thread, real: real)
        guard endsAtOnce, !work.simulates, !work.appliesHeldCancel else { return SyncMainStep(work: work) }
        var step = SyncMainStep(work: work, ended: true, scan: syncMainEnded(i, real: real))
        step.letsGo = letsGoAtFinish(i, scan: &step.scan)
        return step
    }

    /// Operation `i`'s finish was just announced from its own `main()`,
    /// and `scan` (`afterFinish`) is what to do once Foundation's
    /// `start()` has processed it. When there is nothing to look at and
    /// the run may let go of the object (`foundationProcessedFinish`), it
    /// does so now, under the finish's lock, and the scan becomes nil: the
    /// shell takes no lock after Foundation's `start()` returns. Safe
    /// before Foundation processed the finish: Foundation holds its own
    /// references to an operation it runs until it has (its queue's list,
    /// the block that called `start()`), and frees it when it lets go.
    mutating func letsGoAtFinish(_ i: Int, scan: inout DispatchScan?) -> Bool {
        guard let s = scan, s.isEmpty, foundationProcessedFinish(i) else { return false }
        scan = nil
        return true
    }

    /// `work D leaves D2`: as `main()` returns, the work it started runs
    /// on for D2, unless `main()` saw a cancel and returned before starting
    /// it (an operation that ignores cancels always gets there).
    private mutating func leaveWorkRunning(_ i: Int, real: UInt64) {
        guard let leftover = scenario.leftover(of: OperationID(i)), records[i].phase == .executing,
            !records[i].cancelled || facts.ignoresCancel[i], lifecycle == .running
        else { return }
        let t = stamp(real)
        emit(.leftover(OperationID(i), phase: .started), t)
        timers.leftoverStarted(Int32(i), due: t + leftover.seconds)
    }

    /// The work operation `i`'s `main()` left running ended.
    mutating func leftoverEnded(_ i: Int, real: UInt64) {
        let t = stamp(real)
        timers.leftoverEnded()
        emit(.leftover(OperationID(i), phase: .returned), t)
        checkCompleted(t)
    }

    /// One execution block of a `blocks` operation started or returned on
    /// `thread`. Returns the scenario time.
    mutating func blockPhase(_ i: Int, _ n: Int, _ phase: BlockPhase, thread: ThreadIdentity, real: UInt64) -> Double {
        block(i, n, phase, thread: threads.tag(thread), real: real)
    }

    /// The block of barrier `i` began on `thread`: its work, or nil when it
    /// is not to run (the run stopped, or cancel-all finished it before its
    /// block began).
    mutating func barrierBlockBegan(_ i: Int, thread: ThreadIdentity, real: UInt64) -> Work? {
        if lifecycle == .stopped || records[i].phase == .finished { return nil }
        let (t, _) = begin(i, thread: threads.tag(thread), real: real)
        return Work(started: t, duration: facts.durations[i], cooperative: false)
    }

    /// The block of barrier `i` ends: it finishes, and its gate opens
    /// (once) so that what waits for it by name goes on.
    mutating func barrierBlockEnded(_ i: Int, real: UInt64) -> (opensGate: Bool, scan: DispatchScan) {
        let scan = finish(i, real: real)
        return (takeGate(i), scan)
    }

    /// Operation `i`'s completion block ran on `thread`: the actions to
    /// perform now, on that thread (then `completionReturned`).
    mutating func completionRan(_ i: Int, thread: ThreadIdentity, real: UInt64) -> [Action] {
        completionRan(i, thread: threads.tag(thread), real: real)
        return scenario.operations[i].completion ?? []
    }

    // MARK: - Simulated work

    /// What simulated work does next, until scenario time reaches `end`.
    enum WorkWait: Equatable {
        /// Its time is up, the run stopped, or it was cancelled and stops
        /// when cancelled.
        case done
        /// Sleep at most this many real seconds, then ask again.
        case sleep(Double)
        /// Paused: wait until woken (resume, speed, stop), then ask again.
        case waitForResume
        /// Held after a stall, on the main thread: holding it would hold
        /// the thread that reads the keys, the one that goes on included
        /// (the screen would freeze for good), so it runs out its remaining
        /// time, this many real seconds, at the current speed. (A pause
        /// does not stop the clock for the main thread's work: the work
        /// runs through it in scenario time, `ScenarioClock`.)
        case runOutInRealTime(Double)
    }

    /// `cancelled`: Foundation's flag, as the work read it just before.
    /// On the main thread, a pause does not hold the work: scenario time
    /// runs on for it (the pause takes hold again as it returns), so its
    /// work takes its own scenario time and the moments after it come in
    /// their order: the thread that would read the key that resumes is
    /// the one working.
    mutating func workWait(
        until end: Double, cooperative: Bool, cancelled: Bool, onMainThread: Bool, real: UInt64
    ) -> WorkWait {
        if onMainThread && !clock.mainThreadWorks { clock.mainThreadWorks(true, real) }
        let t = now(real)
        if (cooperative && cancelled) || lifecycle == .stopped || t >= end {
            if onMainThread { clock.mainThreadWorks(false, real) }
            return .done
        }
        if clock.isStopped {
            guard onMainThread else { return .waitForResume }
            // Held after a stall: the work runs out in real time and asks
            // no more, so the pause takes hold again now.
            clock.mainThreadWorks(false, real)
            return .runOutInRealTime((end - t) / clock.speed)
        }
        return .sleep(max(min(0.01, (end - t) / clock.speed), 0.0001))
    }

    /// Whether work that runs out its time in real time goes on.
    func keepsWorking(cooperative: Bool, cancelled: Bool) -> Bool {
        !(cooperative && cancelled) && lifecycle != .stopped
    }

    // MARK: - The stop

    /// Either state → `stopped`: the stream closes. When it was running,
    /// the gates to open: those of barriers whose block never ended, whose
    /// dependents the stop cancels, so that nothing holds on.
    mutating func stopped() -> (wasRunning: Bool, gates: [Int]) {
        guard stop() == .running else { return (false, []) }
        return (true, records.indices.filter { facts.kinds[$0] == .barrier && takeGate($0) })
    }

    /// Every operation finished: Foundation may still be processing the
    /// last finishes, but no operation of the run will start or finish.
    var allFinished: Bool { unfinishedOps == 0 }
}
