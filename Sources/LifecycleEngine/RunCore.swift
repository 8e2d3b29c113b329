import Foundation
import RunEvents
import ScenarioKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The shell of one run around its pure `RunModel`: the one lock, the
/// threads, the real-time source, the observers, and every call into
/// Foundation (the real queues and operations, `EngineObjects`). The
/// operations report their facts here (`syncMainBegins`, `asyncStart`,
/// …); each is one model call under the lock, which returns what to do,
/// and the shell does it: lock, ask, unlock, carry out. The shell decides
/// nothing the model could.
///
/// Foundation is called after the lock is released, except where a call
/// must be one step with its announcement: each such line says why, and
/// none of them calls back into the run (`EngineLock`). The contract is
/// checked at run time in debug builds: `lock.assertHeld()` and
/// `lock.assertNotHeld()`.
///
/// Four tools synchronise it: the lock, which guards all the run's state;
/// the action lock, which keeps each action whole; and two conditions to
/// sleep on, one for the scheduler, woken alone by each new timer, and one
/// for everything else that sleeps (simulated work, `waitForEnd`), woken
/// together by a pause, a resume, a speed change, the stop and the end.
///
/// Lock order: `actionLock` → `sleepCondition` / `schedulerCondition` →
/// `lock`. `lock` is innermost and never held while waiting for anything
/// or calling an observer.
final class RunCore: @unchecked Sendable {
    let scenario: Scenario
    /// Guards `model`, `observation`, `pendingCallbacks`, `objects` and
    /// `finishScans`.
    let lock = EngineLock()
    /// Simulated work and `waitForEnd` sleep on it; pause, resume, speed
    /// changes, the stop and the end broadcast it. Guards `endSignalled`.
    let sleepCondition = NSCondition()
    /// The scheduler thread sleeps on it; a new timer, pause, resume, speed
    /// changes and the end signal it. Guards nothing of its own.
    let schedulerCondition = NSCondition()
    /// Serialises actions (and the start and stop), so that an action's
    /// announcement and its Foundation call never interleave with
    /// another's. Recursive: an observer called back on the acting thread
    /// (observers run there, right after the announcement) may act on the
    /// run in turn.
    let actionLock = NSRecursiveLock()
    let onEvents: (@Sendable () -> Void)?
    let onMainThreadWork: (@Sendable (MainThreadWork) -> Void)?
    let aroundMainThreadWait: (@Sendable (Action, () -> Void) -> Void)?
    /// Real time, monotonic nanoseconds: the model turns it into scenario time.
    let realTime: @Sendable () -> UInt64
    /// Reads Foundation's state for the moment of each dispatch
    /// (`RunOptions.stateReader`); nil: each is announced at its start.
    let stateReader: EngineState?
    /// The user's classes and what the run keeps of them; nil: none.
    let own: OwnClassState?

    var model: RunModel
    var observation = ObserverRegistry()
    var pendingCallbacks: [() -> Void] = []
    /// Under `sleepCondition`.
    var endSignalled = false
    /// The run's Foundation objects: none until `start()` builds them.
    var objects = EngineObjects.none
    /// What each synchronous operation is to ask once Foundation's
    /// `start()` has returned (`RunModel.afterFinish`), from its finish
    /// until then. Here, not in the operation: one that others wait for
    /// outlives its finish (to the end of the run, in a chain), and the
    /// field made each of a million links 16 bytes larger than a
    /// `BlockOperation`.
    var finishScans: [Int32: RunModel.DispatchScan] = [:]
    /// While the start adds, the objects the run let go of wait here for
    /// its thread to release them with its next chunk (`letGo`): that
    /// thread made them, so what is freed then goes back to where it
    /// makes the next ones, without the engine's threads taking the
    /// allocator's lock of that thread's memory from under it for each
    /// (a tenth of a flat trace of 100,000).
    var retired: [Operation] = []
    var retiring = false
    /// A stop was asked for: the start's adds end after their chunk
    /// (`start(reporting:)`), without the lock a stop waits for.
    let abandoned = Atomic<Bool>(false)

    init(
        scenario: Scenario, options: RunOptions, onEvents: (@Sendable () -> Void)?,
        realTime: @escaping @Sendable () -> UInt64 = { monotonicNanoseconds() }
    ) {
        self.scenario = scenario
        self.onEvents = onEvents
        onMainThreadWork = options.onMainThreadWork
        aroundMainThreadWait = options.aroundMainThreadWait
        self.realTime = realTime
        stateReader = options.stateReader
        own = options.ownClasses.map(OwnClassState.init)
        model = RunModel(scenario: scenario, options: options)
    }

    // MARK: - The lock

    /// Releases the lock, then tells the consumer the mailbox has events
    /// (only when it went from empty to non-empty), runs the observer
    /// callbacks collected under the lock, and wakes `waitForEnd` and every
    /// sleeper when the stream closed.
    func unlockAndNotify(observingFrom first: Int? = nil) {
        lock.assertHeld()
        if let first, observation.count > 0 {
            for event in model.log.recorded(from: first) {
                observation.collect(event.kind, seq: event.seq, time: event.time, into: &pendingCallbacks)
            }
        }
        let delivery = model.delivery(hasConsumer: onEvents != nil)
        var callbacks: [() -> Void] = []
        if !pendingCallbacks.isEmpty { swap(&callbacks, &pendingCallbacks) }
        lock.unlock()
        if delivery.tellsConsumer { onEvents?() }
        for callback in callbacks { callback() }
        if delivery.announcesEnd { signalTheEnd() }
    }

    /// Locks, runs `body` on the model with the real time, and notifies.
    @discardableResult
    func withModel<T>(_ body: (inout RunModel, UInt64) -> T) -> T {
        lock.lock()
        let first = model.log.count
        // A user's class that finished (in Foundation's eyes) is announced
        // before what its finish may have let begin.
        if hasCustom { settleCustomLocked() }
        let result = body(&model, realTime())
        unlockAndNotify(observingFrom: first)
        return result
    }

    /// Locks and runs `body` on the model, for a look that records nothing
    /// (no notification is owed). In place, as every look at the model:
    /// a method called on the stored property itself (`model.look()`)
    /// works on a copy of the whole value, some thirty references retained
    /// and released, where the engine's threads contend for them; made on
    /// every operation's way through, that cost a flat million-operation
    /// trace a fifth of its time.
    func withLockedModel<T>(_ body: (inout RunModel) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&model)
    }

    private func signalTheEnd() {
        sleepCondition.lock()
        endSignalled = true
        sleepCondition.unlock()
        wakeSleepers()
    }

    /// The calling thread, as the model tells threads apart. Read before
    /// taking the lock.
    var here: RunModel.ThreadIdentity { CurrentThread.identity }

    // MARK: - Hooks called by the operations

    /// `start()` of a sync operation found it cancelled before it began:
    /// announced before Foundation's `start()` finishes it.
    /// Whether a scan was kept for `foundationFinishedKept`.
    func syncCancelledBeforeStart(_ i: Int) -> Bool {
        lock.assertNotHeld()
        return withModel { model, real in keepFinishScan(i, model.syncStartFoundCancelled(i, real: real)) }
    }

    /// Returns the work to simulate.
    func syncMainBegins(_ i: Int, _ op: EngineCancellable) -> RunModel.Work {
        let thread = here
        let work = withModel { model, real in model.syncMainBegan(i, thread: thread, real: real) }
        // A cancel that landed between our look at the flag and the
        // engine's, announced with the start: Foundation's cancel() now,
        // as a cancel of a running operation (it only sets the flag).
        if work.appliesHeldCancel { op.engineCancel() }
        mainThreadWork(.began(OperationID(i)))
        return work
    }

    /// `main()` of a `work` operation began: the work to simulate, or,
    /// with none, its end too, under the same lock (`RunModel.syncMainRan`);
    /// the object let go of then, when nothing is left to look at.
    /// When it ended, whether a scan was kept for `foundationFinishedKept`.
    func syncMainRuns(_ i: Int, _ op: EngineCancellable) -> (step: RunModel.SyncMainStep, keptScan: Bool) {
        let thread = here
        lock.lock()
        let first = model.log.count
        if hasCustom { settleCustomLocked() }
        let step = model.syncMainRan(i, thread: thread, endsAtOnce: !thread.isMain, real: realTime())
        let released = step.letsGo ? letGo(i) : nil
        let kept = keepFinishScan(i, step.scan)
        unlockAndNotify(observingFrom: first)
        withExtendedLifetime(released) {}
        if step.ended { return (step, kept) }
        // As in `syncMainBegins`.
        if step.work.appliesHeldCancel { op.engineCancel() }
        mainThreadWork(.began(OperationID(i)))
        return (step, kept)
    }

    /// Whether there is something to ask once Foundation's `start()`
    /// returns, kept for `foundationFinishedKept` (none also when the
    /// object was let go of at once: `RunModel.letsGoAtFinish`).
    func syncMainEnds(_ i: Int) -> Bool {
        lock.lock()
        let first = model.log.count
        var scan = model.syncMainEnded(i, real: realTime())
        let released = model.letsGoAtFinish(i, scan: &scan) ? letGo(i) : nil
        let kept = keepFinishScan(i, scan)
        unlockAndNotify(observingFrom: first)
        withExtendedLifetime(released) {}
        mainThreadWork(.ended(OperationID(i)))
        return kept
    }

    /// Keeps what a synchronous operation is to ask once Foundation's
    /// `start()` returned (`finishScans`); whether there is anything.
    /// Under the lock.
    func keepFinishScan(_ i: Int, _ scan: RunModel.DispatchScan?) -> Bool {
        lock.assertHeld()
        guard let scan else { return false }
        finishScans[Int32(i)] = scan
        return true
    }

    /// Takes operation `i`'s object out of the run's table, to be released
    /// after the lock (Foundation still holds its own reference then, so
    /// that is not where it is freed). While the start still adds, it goes
    /// to `retired` instead, and nil is returned. Under the lock.
    func letGo(_ i: Int) -> Operation? {
        lock.assertHeld()
        guard i < objects.operations.count, let op = objects.operations[i] else { return nil }
        objects.operations[i] = nil
        guard retiring else { return op }
        retired.append(op)
        return nil
    }

    /// The objects let go of since the start's last chunk, for the start's
    /// own thread to release (`start(reporting:)`); empty from the end of
    /// the adds on. Under the lock.
    func takeRetired(into list: inout [Operation]) {
        lock.assertHeld()
        swap(&list, &retired)
    }

    /// Tells `onMainThreadWork`, when the work is on the main thread.
    func mainThreadWork(_ work: MainThreadWork) {
        if let onMainThreadWork, CurrentThread.isMain { onMainThreadWork(work) }
    }

    func blockPhase(_ i: Int, _ n: Int, _ phase: BlockPhase) -> Double {
        let thread = here
        return withModel { model, real in model.blockPhase(i, n, phase, thread: thread, real: real) }
    }

    func asyncStart(_ i: Int, _ op: AsyncOperation) {
        let thread = here
        lock.lock()
        let first = model.log.count
        if hasCustom { settleCustomLocked() }
        let step = model.asyncStarted(i, thread: thread, real: realTime())
        op.store(step)
        unlockAndNotify(observingFrom: first)
        carryOut(step, of: i, op)
    }

    /// The timer that ends asynchronous operation `i` fired.
    func asyncFinish(_ i: Int) {
        lock.lock()
        let first = model.log.count
        let step = model.asyncTimerFired(i, real: realTime())
        let op = objects.operation(i) as? AsyncOperation
        op?.store(step)
        unlockAndNotify(observingFrom: first)
        if let op { carryOut(step, of: i, op) }
    }

    /// Posts what an `AsyncStep` says, then looks at what a finish let happen.
    private func carryOut(_ step: RunModel.AsyncStep, of i: Int, _ op: AsyncOperation) {
        lock.assertNotHeld()
        op.post(executing: step.postsExecuting, finished: step.postsFinished)
        if step.postsFinished { foundationFinished(i, step.scan) }
        if step.wakesScheduler { signalScheduler() }
    }

    /// Every `cancel()` of an operation of the run comes here (from an
    /// action, from `cancelAllOperations()`, from stop).
    func cancel(_ i: Int, _ op: EngineCancellable) {
        lock.lock()
        let first = model.log.count
        let step = model.cancelled(i, real: realTime()) {
            (op as? StartWindow)?.claimCancelBeforeStart() ?? true
        }
        if step.foundation == .underLock {
            // Under the lock, for two reasons. A cancel before start: once
            // the start window is claimed, `start()` on another thread
            // announces the finish (it waits for this lock) and then
            // Foundation's `start()` looks at its own flag, which must be
            // set by then, or `main()` would run a finished operation. An
            // executing asynchronous operation that finishes at once:
            // Foundation's cancel() does nothing to one that says it is
            // finished, and its finished state is stored just below. This
            // cancel takes only the operation's own locks and the queue's,
            // and dispatches `start()` asynchronously: it never calls back
            // into the run (`EngineLockTests`).
            op.engineCancel()
            // It made the operation ready and let its queue dispatch
            // before it returned.
            observeDispatchesLocked(step.readied)
        }
        (op as? AsyncOperation)?.store(step.async)
        unlockAndNotify(observingFrom: first)
        if step.foundation == .afterUnlock { op.engineCancel() }
        if let async = op as? AsyncOperation, step.async.postsFinished { carryOut(step.async, of: i, async) }
    }

    func completionRan(_ i: Int) {
        let thread = here
        let actions = withModel { model, real in model.completionRan(i, thread: thread, real: real) }
        for action in actions { perform(action, origin: .completion(OperationID(i))) }
        withModel { model, real in model.completionReturned(real: real) }
    }

    /// The block given to `addBarrierBlock`.
    func runBarrier(_ i: Int) {
        let thread = here
        guard let work = withModel({ model, real in model.barrierBlockBegan(i, thread: thread, real: real) })
        else { return }
        mainThreadWork(.began(OperationID(i)))
        if work.simulates { simulate(until: work.end, op: nil, cooperative: work.cooperative) }
        let (gate, scan): (Operation?, RunModel.DispatchScan) = withModel { model, real in
            let (opens, scan) = model.barrierBlockEnded(i, real: real)
            return (opens ? self.objects.operation(i) : nil, scan)
        }
        mainThreadWork(.ended(OperationID(i)))
        gate?.start()
        observeDispatches(scan)
    }

    /// A cancelled barrier's real finish: Foundation runs it as a dispatch
    /// barrier behind what was dispatched before it, and the probe the run
    /// put just ahead of it has now run (see `watchRealFinish`).
    func barrierReallyFinished(_ b: Int) {
        let (gate, scan): (Operation?, RunModel.DispatchScan) = withModel { model, real in
            let (opens, scan) = model.barrierReallyFinished(b, real: real)
            return (opens ? self.objects.operation(b) : nil, scan)
        }
        gate?.start()
        observeDispatches(scan)
    }

    // MARK: - Dispatches

    /// Announces what Foundation dispatched where `scan` says to look: after
    /// the call into Foundation that let the queues dispatch has returned.
    func observeDispatches(_ scan: RunModel.DispatchScan) {
        guard !scan.isEmpty, stateReader != nil else { return }
        lock.lock()
        let first = model.log.count
        observeDispatchesLocked(scan)
        unlockAndNotify(observingFrom: first)
    }

    /// After a chunk of adds was handed over: what it filed joins the
    /// queues' orders, and what it dispatched is announced. Returns how far
    /// the start is.
    func chunkHandedOver(_ scan: RunModel.DispatchScan) -> BuildProgress {
        lock.lock()
        let first = model.log.count
        let progress = model.chunkHandedOver()
        observeDispatchesLocked(scan)
        unlockAndNotify(observingFrom: first)
        return progress
    }

    /// `observeDispatches` under the lock, so that what the scan reads and
    /// what it announces are one step (no finish comes between). Reading
    /// the engine's state takes each operation's own lock, which Foundation
    /// holds only to read or write that state: it never waits for the
    /// run's.
    func observeDispatchesLocked(_ scan: RunModel.DispatchScan) {
        lock.assertHeld()
        guard let reader = stateReader, !scan.isEmpty else { return }
        let ops = objects.operations
        model.observeDispatches(scan, real: realTime()) { i in
            guard i < ops.count, let op = ops[i] else { return false }
            return reader.isDispatched(op)
        }
    }
}
