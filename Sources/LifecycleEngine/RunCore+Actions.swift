import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    // MARK: - Actions

    /// Performs `action` and records it; false when the run is not
    /// running (not started yet, ended or stopped): nothing was done.
    @discardableResult
    func perform(_ action: Action, origin: ActionOrigin) -> Bool {
        actionLock.lock()
        defer { actionLock.unlock() }
        lock.lock()
        let first = model.log.count
        guard let effect = model.actionArrived(action, origin: origin, real: realTime()) else {
            lock.unlock()
            return false
        }
        let unwatched = applyUnderLock(effect)
        unlockAndNotify(observingFrom: first)
        for b in unwatched { barrierReallyFinished(b) }
        apply(effect, of: action, origin: origin)
        return true
    }

    /// The Foundation side of an action that is one step with its
    /// announcement: a queue's suspension or cap, set under the lock, so
    /// that no other announcement (a finish, a dispatch seen) comes between
    /// them (a queue announced suspended must not dispatch after it); then
    /// the dispatches it let happen. Neither setter calls back into the run
    /// (it dispatches `start()` asynchronously: `EngineLockTests`). Returns
    /// the cancelled barriers a resume lets finish that no probe can watch:
    /// they are finished once the lock is released.
    private func applyUnderLock(_ effect: RunModel.Effect) -> [Int] {
        lock.assertHeld()
        switch effect {
        case .setSuspended(let q, let value, _):
            // The probes go first (see watchRealFinish).
            let unwatched = enqueueProbes(for: effect.barriersToWatch, on: objects.backingQueues[q])
            objects.queues[q].isSuspended = value
            observeDispatchesLocked(effect.scanAfter)
            return unwatched
        case .setCap(let q, let value):
            objects.queues[q].maxConcurrentOperationCount = value
            observeDispatchesLocked(effect.scanAfter)
            return []
        default:
            return []
        }
    }

    /// The Foundation side of the other actions the model recorded, after
    /// the lock is released (each may call back: a cancel comes back as
    /// the operation's `cancel()`), then the dispatches it let happen.
    private func apply(_ effect: RunModel.Effect, of action: Action, origin: ActionOrigin) {
        lock.assertNotHeld()
        switch effect {
        case .none, .setSuspended, .setCap:
            break
        case .cancel(let i):
            opObject(i)?.cancel()
        case .cancelAll(let q, _, _):
            // The probes go first, so that each runs just before Foundation's
            // own dispatch of the cancelled barrier (see watchRealFinish).
            watchRealFinish(of: effect.barriersToWatch, on: q)
            lock.withLock { objects.queues[q] }.cancelAllOperations()
        case .setPriority(let i, let level):
            opObject(i)?.queuePriority = level.foundation
        case .add(let i, _):
            handOver(i)
            observeDispatches(effect.scanAfter)
        case .addBatch(let members, _):
            handOverBatch(members)
            observeDispatches(effect.scanAfter)
        case .tryOnMainQueue:
            tryOnMainQueue(action, origin: origin)
        case .waitOnMainThread(let wait):
            // The main thread takes it when it is free: after what it is
            // running now (a main-queue operation's work, a frame).
            DispatchQueue.main.async { [self] in mainThreadWaits(wait) }
        case .startOnMainThread(let i, let origin):
            // As a wait: the main thread takes it when it is free.
            DispatchQueue.main.async { [self] in mainThreadStarts(i, origin: origin) }
        }
    }

    /// On the main thread: the wait an `at` line asked of it, announced as
    /// it begins and as it returns. Foundation's wait blocks this thread
    /// for as long as it lasts (for good when what it waits for needs the
    /// main thread: a deadlock, the run's last word is then its stall).
    private func mainThreadWaits(_ action: Action) {
        // An operation added later is made now (outside the lock): the
        // wait is on the object Foundation will be given.
        var made: [(Int, Operation)] = []
        if case .wait(let op) = action { made = makeMissing(CollectionOfOne(Int32(op.index))) }
        // What to wait on is taken in the same step as the announcement:
        // a run stopped meanwhile is not waited for.
        let target: (operation: Operation?, queue: OperationQueue?)? = withModel { model, real in
            guard model.mainWaitStarted(action, real: real) else { return nil }
            keepMade(made)
            switch action {
            // Let go of only once finished: then there is nothing to wait for.
            case .wait(let op): return (objects.operation(op.index), nil)
            case .waitAll(let q): return (nil, objects.queues.indices.contains(q.index) ? objects.queues[q.index] : nil)
            default: return (nil, nil)
            }
        }
        guard let target else { return }
        let wait = {
            target.operation?.waitUntilFinished()
            target.queue?.waitUntilAllOperationsAreFinished()
        }
        if let aroundMainThreadWait { aroundMainThreadWait(action, wait) } else { wait() }
        withModel { model, real in model.mainWaitReturned(action, real: real) }
    }

    /// `OperationQueue.main` ignores suspension, caps and cancel-all: ask
    /// it, and let the model record what it did.
    private func tryOnMainQueue(_ action: Action, origin: ActionOrigin) {
        let queue = OperationQueue.main
        var changed = false
        switch action {
        case .cancelAll:
            queue.cancelAllOperations()
        case .suspend, .resume:
            let before = queue.isSuspended
            if case .suspend = action { queue.isSuspended = true } else { queue.isSuspended = false }
            changed = before != queue.isSuspended
        case .setCap(_, let cap):
            let before = queue.maxConcurrentOperationCount
            queue.maxConcurrentOperationCount = cap.foundationValue
            changed = before != queue.maxConcurrentOperationCount
        default:
            break
        }
        withModel { model, real in model.mainQueueAnswered(action, origin: origin, changed: changed, real: real) }
    }

    /// Foundation finishes a cancelled barrier when it dispatches it: as a
    /// dispatch barrier behind every block dispatched before it (what runs
    /// before it returns). A probe, a dispatch barrier of the run's own,
    /// put on the same dispatch queue just before Foundation's, runs at
    /// that moment, and nothing dispatched after it runs before the probe
    /// returns: the barrier's `isFinished` is announced there. Where the
    /// dispatch queue is unknown, at once.
    func watchRealFinish(of barriers: [Int], on q: Int) {
        guard !barriers.isEmpty else { return }
        let dispatch = lock.withLock { objects.backingQueues[q] }
        for b in enqueueProbes(for: barriers, on: dispatch) { barrierReallyFinished(b) }
    }

    /// Puts the probe of each of `barriers` on `dispatch`, a queue's
    /// dispatch queue (which takes no lock of the run's here); returns
    /// those it cannot watch (where there is none).
    func enqueueProbes(for barriers: [Int], on dispatch: DispatchQueue?) -> [Int] {
        guard let dispatch else { return barriers }
        for b in barriers {
            dispatch.async(flags: .barrier) { [self] in self.barrierReallyFinished(b) }
        }
        return []
    }
}
