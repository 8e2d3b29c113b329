import Foundation
import RunEvents
import ScenarioKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The shell of one run around its pure `RunModel`: the one lock, the
/// threads, the real-time source, the observers, and every call into
/// Foundation (the real queues and operations, built from the scenario).
/// The operations report their facts here (`syncMainBegins`, `asyncStart`,
/// …); the shell reads the real time, lets the model turn the fact into
/// events under the lock, and makes the Foundation calls the model asks
/// for after releasing it.
///
/// Lock order: `actionLock` → `workCondition` / `schedulerCondition` →
/// `lock`. `lock` is innermost and never held while waiting for anything
/// or calling an observer.
final class RunCore: @unchecked Sendable {
    let scenario: Scenario
    /// Guards `model`, `observation`, `pendingCallbacks`, `mailboxSignalled`,
    /// `endAnnounced`, `threads`, `nextThreadNumber`, and the Foundation
    /// objects (`ops`, `realQueues`, `backingQueues`), which `build()` and
    /// the handover set as the run starts and the release clears.
    let lock = EngineLock()
    /// Simulated work sleeps on it; pause, resume, speed changes and stop
    /// broadcast it. Guards nothing of its own.
    let workCondition = NSCondition()
    /// The scheduler thread sleeps on it; a new timer, pause, resume, speed
    /// changes and the end signal it. Guards nothing of its own.
    let schedulerCondition = NSCondition()
    /// Serialises actions (and the start and stop), so that an action's
    /// announcement and its Foundation call never interleave with
    /// another's. Recursive: an observer called back on the acting thread
    /// (observers run there, right after the announcement) may act on the
    /// run in turn.
    let actionLock = NSRecursiveLock()
    /// `waitForEnd` sleeps on it. Guards `endSignalled`.
    let endCondition = NSCondition()
    let onEvents: (@Sendable () -> Void)?
    let onMainThreadWork: (@Sendable (MainThreadWork) -> Void)?
    /// Real time, monotonic nanoseconds: the model turns it into scenario time.
    let realTime: @Sendable () -> UInt64

    var model: RunModel
    /// The model's graph, a constant: read without the lock.
    let graph: DependencyGraph
    /// Operations `start()` adds (those no `add` action adds later).
    let initialCount: Int
    var observation = ObserverRegistry()
    var pendingCallbacks: [() -> Void] = []
    var mailboxSignalled = false
    /// The close of the stream was passed on to `waitForEnd` and the sleepers.
    var endAnnounced = false
    /// Under `endCondition`.
    var endSignalled = false
    var threads: [(pthread_t, Int16)] = []
    var nextThreadNumber: Int16 = 1
    /// The Foundation object of each operation (for a barrier, the gate
    /// its dependents wait on): nil until the run makes it, as the
    /// operation is handed to Foundation or first acted on, and nil again
    /// once the run let go of it (`letGoIfDone`).
    var ops: [Operation?] = []
    /// Operations handed to Foundation by `start()` so far (the progress
    /// of a large build), and how many it hands over.
    let handedOver = Atomic<Int>(0)
    var realQueues: [OperationQueue] = []
    /// The dispatch queue Foundation runs each queue's operations on
    /// (nil for the main queue, and where it could not be found).
    var backingQueues: [DispatchQueue?] = []

    init(
        scenario: Scenario, options: RunOptions, onEvents: (@Sendable () -> Void)?,
        realTime: @escaping @Sendable () -> UInt64 = { monotonicNanoseconds() }
    ) {
        self.scenario = scenario
        self.onEvents = onEvents
        onMainThreadWork = options.onMainThreadWork
        self.realTime = realTime
        model = RunModel(scenario: scenario, options: options)
        graph = model.graph
        initialCount = scenario.operations.count - scenario.addedLater.count
    }

    // MARK: - The lock

    /// Releases the lock, then tells the consumer the mailbox has events
    /// (only when it went from empty to non-empty), runs the observer
    /// callbacks collected under the lock, and wakes `waitForEnd` and every
    /// sleeper when the stream closed.
    func unlockAndNotify(observingFrom first: Int? = nil) {
        if let first, observation.count > 0 {
            for event in model.log.recorded(from: first) {
                observation.collect(event.kind, seq: event.seq, time: event.time, into: &pendingCallbacks)
            }
        }
        var notify = false
        if !mailboxSignalled && model.log.hasNew && onEvents != nil {
            mailboxSignalled = true
            notify = true
        }
        let signalEnd = model.log.isClosed && !endAnnounced
        if signalEnd { endAnnounced = true }
        var callbacks: [() -> Void] = []
        if !pendingCallbacks.isEmpty { swap(&callbacks, &pendingCallbacks) }
        lock.unlock()
        if notify { onEvents?() }
        for callback in callbacks { callback() }
        if signalEnd { signalTheEnd() }
    }

    /// Locks, runs `body` on the model with the real time, and notifies.
    @discardableResult
    func withModel<T>(_ body: (inout RunModel, UInt64) -> T) -> T {
        lock.lock()
        let first = model.log.count
        let result = body(&model, realTime())
        unlockAndNotify(observingFrom: first)
        return result
    }

    private func signalTheEnd() {
        endCondition.lock()
        endSignalled = true
        endCondition.broadcast()
        endCondition.unlock()
        wakeSleepers()
    }

    /// The tag of the calling thread: 0 for the main thread, others 1, 2, …
    /// in the order the run first sees them. Under the lock.
    func threadTagLocked() -> Int16 {
        let me = pthread_self()
        for (thread, tag) in threads where pthread_equal(thread, me) != 0 { return tag }
        let tag: Int16
        if Thread.isMainThread {
            tag = 0
        } else {
            tag = nextThreadNumber
            nextThreadNumber += 1
        }
        threads.append((me, tag))
        return tag
    }

    /// The Foundation object of operation `i`, made now if the run has not
    /// made it yet; nil once the run let go of it (it had finished, and
    /// nothing can be done to it any more).
    func opObject(_ i: Int) -> Operation? {
        lock.lock()
        defer { lock.unlock() }
        return objectLocked(i)
    }

    // MARK: - Hooks called by the operations

    /// `start()` of a sync operation found it cancelled before it began:
    /// Foundation's `start()` will finish it without `main()`; announce
    /// that first. (The cancel that set the window bit announced under
    /// this lock, so this comes after its `isCancelled`.)
    func syncCancelledBeforeStart(_ i: Int) -> RunModel.DispatchScan {
        withModel { model, real in
            guard model.records[i].phase != .finished && model.records[i].phase != .executing else {
                return RunModel.DispatchScan()
            }
            return model.finishAtStart(i, real: real)
        }
    }

    /// Returns the scenario time at which the work began, how long it
    /// works (scenario seconds), and whether it stops early when cancelled.
    func syncMainBegins(_ i: Int, _ op: EngineCancellable) -> (
        started: Double, duration: Double, cooperative: Bool
    ) {
        lock.lock()
        let first = model.log.count
        let (t, held) = model.begin(i, thread: threadTagLocked(), real: realTime())
        let work = (t, model.durations[i], !model.ignoresCancel[i])
        // A cancel that landed between our look at the flag and the
        // engine's: applied now, as a cancel of a running operation.
        if held { op.engineCancel() }
        unlockAndNotify(observingFrom: first)
        mainThreadWork(.began(OperationID(i)))
        return work
    }

    /// The scan to make once Foundation's `start()` returns.
    func syncMainEnds(_ i: Int) -> RunModel.DispatchScan {
        let scan = withModel { model, real in model.finish(i, real: real) }
        mainThreadWork(.ended(OperationID(i)))
        return scan
    }

    /// Tells `onMainThreadWork`, when the work is on the main thread.
    func mainThreadWork(_ work: MainThreadWork) {
        if let onMainThreadWork, Thread.isMainThread { onMainThreadWork(work) }
    }

    func blockPhase(_ i: Int, _ n: Int, _ phase: BlockPhase) -> Double {
        lock.lock()
        let first = model.log.count
        let t = model.block(i, n, phase, thread: threadTagLocked(), real: realTime())
        unlockAndNotify(observingFrom: first)
        return t
    }

    func asyncStart(_ i: Int, _ op: AsyncOperation) {
        lock.lock()
        let first = model.log.count
        let real = realTime()
        var postExecuting = false
        var postFinished = false
        var timerSet = false
        var scan = RunModel.DispatchScan()
        if model.lifecycle == .stopped {
            // The run was stopped: let it go at once, unannounced.
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            postFinished = true
        } else if model.records[i].phase == .finished {
            // Nothing: already finished (cannot happen through the queue).
        } else if model.records[i].cancelled {
            scan = model.finishAtStart(i, real: real)
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            postFinished = true
        } else {
            model.begin(i, thread: threadTagLocked(), real: real)
            op.state.store(AsyncOperation.executing, ordering: .releasing)
            postExecuting = true
            if !model.neverFinishes[i] {
                if model.durations[i] <= 0 {
                    scan = model.finish(i, real: real)
                    op.state.store(AsyncOperation.finished, ordering: .releasing)
                    postFinished = true
                } else {
                    timerSet = true
                }
            }
        }
        unlockAndNotify(observingFrom: first)
        op.post(executing: postExecuting, finished: postFinished)
        if postFinished {
            foundationFinished(i, scan)
        } else {
            observeDispatches(scan)
        }
        if timerSet { signalScheduler() }
    }

    func asyncFinish(_ i: Int) {
        guard let op = opObject(i) as? AsyncOperation else { return }
        lock.lock()
        let first = model.log.count
        var post = false
        var scan = RunModel.DispatchScan()
        if model.records[i].phase == .executing {
            scan = model.finish(i, real: realTime())
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            post = true
        }
        unlockAndNotify(observingFrom: first)
        if post {
            op.post(executing: true, finished: true)
            foundationFinished(i, scan)
        }
    }

    /// Every `cancel()` of an operation of the run comes here (from an
    /// action, from `cancelAllOperations()`, from stop).
    func cancel(_ i: Int, _ op: EngineCancellable) {
        lock.lock()
        if model.lifecycle == .stopped {
            lock.unlock()
            op.engineCancel()
            return
        }
        let first = model.log.count
        let real = realTime()
        var postAsync: AsyncOperation? = nil
        var scan = RunModel.DispatchScan()
        switch model.cancelKind(i) {
        case .nothing:
            break  // Foundation's cancel() would be a no-op or a repeat.
        case .whileExecuting(let finishesAsync):
            model.cancelWhileExecuting(i, real: real)
            op.engineCancel()
            if finishesAsync, let a = op as? AsyncOperation {
                scan = model.finish(i, real: real)
                a.state.store(AsyncOperation.finished, ordering: .releasing)
                postAsync = a
            }
        case .beforeStart:
            if let window = op as? StartWindow, !window.claimCancelBeforeStart() {
                // start() got in first: hold the cancel until main() begins.
                model.records[i].heldCancel = true
            } else {
                let readied = model.cancelBeforeStart(i, real: real)
                op.engineCancel()
                // Foundation's cancel() made it ready and let its queue
                // dispatch, before it returned.
                observeDispatchesLocked(readied)
            }
        }
        unlockAndNotify(observingFrom: first)
        if let postAsync {
            postAsync.post(executing: true, finished: true)
            foundationFinished(i, scan)
        }
    }

    func completionRan(_ i: Int) {
        lock.lock()
        let first = model.log.count
        model.completionRan(i, thread: threadTagLocked(), real: realTime())
        unlockAndNotify(observingFrom: first)
        for action in scenario.operations[i].completion ?? [] {
            perform(action, origin: .completion(OperationID(i)))
        }
        withModel { model, real in model.completionReturned(real: real) }
    }

    /// The block given to `addBarrierBlock`.
    func runBarrier(_ i: Int) {
        lock.lock()
        if model.lifecycle == .stopped || model.records[i].phase == .finished {
            // Stopped, or cancelled by cancel-all before its block began.
            lock.unlock()
            return
        }
        let first = model.log.count
        let (t, _) = model.begin(i, thread: threadTagLocked(), real: realTime())
        unlockAndNotify(observingFrom: first)
        mainThreadWork(.began(OperationID(i)))
        if model.durations[i] > 0 {
            simulate(until: t + model.durations[i], op: nil, cooperative: false)
        }
        let (gate, scan): (Operation?, RunModel.DispatchScan) = withModel { model, real in
            let scan = model.finish(i, real: real)
            return (model.takeGate(i) ? self.ops[i] : nil, scan)
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
            return (opens ? self.ops[b] : nil, scan)
        }
        gate?.start()
        observeDispatches(scan)
    }

    // MARK: - Dispatches

    /// Announces what Foundation dispatched where `scan` says to look: after
    /// the call into Foundation that let the queues dispatch has returned.
    func observeDispatches(_ scan: RunModel.DispatchScan) {
        guard !scan.isEmpty, EngineState.shared != nil else { return }
        lock.lock()
        let first = model.log.count
        observeDispatchesLocked(scan)
        unlockAndNotify(observingFrom: first)
    }

    /// After a chunk of adds: what it filed joins the queues' orders, and
    /// what it dispatched is announced.
    func fileDeferredAndObserve(_ scan: RunModel.DispatchScan, last: Bool) {
        lock.lock()
        let first = model.log.count
        model.fileDeferred(stillDeferring: !last)
        observeDispatchesLocked(scan)
        unlockAndNotify(observingFrom: first)
    }

    /// `observeDispatches` under the lock. Reading the engine's state takes
    /// each operation's own lock, which Foundation holds only to read or
    /// write that state: it never waits for the run's.
    func observeDispatchesLocked(_ scan: RunModel.DispatchScan) {
        guard let reader = EngineState.shared, !scan.isEmpty else { return }
        let ops = self.ops
        model.observeDispatches(scan, real: realTime()) { i in
            guard i < ops.count, let op = ops[i] else { return false }
            return reader.isDispatched(op)
        }
    }

    // MARK: - Simulated work

    /// Sleeps, in slices of at most 10 ms real, until scenario time reaches
    /// `end`; returns early when `op` is cancelled (if cooperative) or the
    /// run stops. Holds while paused (waits on the condition, no polling).
    func simulate(until end: Double, op: Operation?, cooperative: Bool) {
        workCondition.lock()
        while true {
            if cooperative, let op, op.isCancelled { break }
            lock.lock()
            let isStopped = model.lifecycle == .stopped
            let t = model.now(realTime())
            let paused = model.clock.isStopped
            let speed = model.clock.speed
            lock.unlock()
            if isStopped || t >= end { break }
            if paused && Thread.isMainThread {
                // Holding work that runs on the main thread (an operation of
                // OperationQueue.main) would hold the thread that reads the
                // keys, including the one that resumes: the screen would
                // freeze for good. Such work runs out its remaining time in
                // real time at the current speed instead.
                workCondition.unlock()
                finishInRealTime((end - t) / speed, op: op, cooperative: cooperative)
                return
            }
            if paused {
                workCondition.wait()
                continue
            }
            let real = min(0.01, (end - t) / speed)
            _ = workCondition.wait(until: Date(timeIntervalSinceNow: max(real, 0.0001)))
        }
        workCondition.unlock()
    }

    /// Sleeps `seconds` of real time in slices of 10 ms, returning early on
    /// a cancel (if cooperative) or when the run stops.
    private func finishInRealTime(_ seconds: Double, op: Operation?, cooperative: Bool) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if cooperative, let op, op.isCancelled { return }
            lock.lock()
            let isStopped = model.lifecycle == .stopped
            lock.unlock()
            if isStopped { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Wakes the scheduler (a new timer may be due earlier).
    func signalScheduler() {
        schedulerCondition.lock()
        schedulerCondition.signal()
        schedulerCondition.unlock()
    }

    /// Wakes simulated work and the scheduler (pause, resume, speed, stop, end).
    func wakeSleepers() {
        workCondition.lock()
        workCondition.broadcast()
        workCondition.unlock()
        schedulerCondition.lock()
        schedulerCondition.broadcast()
        schedulerCondition.unlock()
    }
}
