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
        guard model.lifecycle == .running, !model.log.isClosed else {
            lock.unlock()
            return false
        }
        let first = model.log.count
        let effect = model.perform(action, origin: origin, real: realTime())
        let unwatched = applyUnderLock(effect)
        unlockAndNotify(observingFrom: first)
        for b in unwatched { barrierReallyFinished(b) }
        apply(effect, of: action, origin: origin)
        return true
    }

    /// The Foundation side of an action that is one step with its
    /// announcement: a queue's suspension or cap, set under the lock, so
    /// that no other announcement (a finish, a dispatch seen) comes between
    /// them; then the dispatches it let happen. Neither setter calls back
    /// into the run. Returns the cancelled barriers a resume lets finish
    /// that no probe can watch: they are finished once the lock is released.
    private func applyUnderLock(_ effect: RunModel.Effect) -> [Int] {
        switch effect {
        case .setSuspended(let q, let value, let barriers):
            // The probes go first (see watchRealFinish).
            let unwatched = value ? [] : enqueueProbes(for: barriers, on: q)
            realQueues[q].isSuspended = value
            if !value {
                var scan = RunModel.DispatchScan()
                scan.add(queue: q)
                observeDispatchesLocked(scan)
            }
            return unwatched
        case .setCap(let q, let value):
            realQueues[q].maxConcurrentOperationCount = value
            var scan = RunModel.DispatchScan()
            scan.add(queue: q)
            observeDispatchesLocked(scan)
            return []
        default:
            return []
        }
    }

    /// The Foundation side of the other actions the model recorded, after
    /// the lock is released (each may call back: a cancel comes back as
    /// the operation's `cancel()`), then the dispatches it let happen.
    private func apply(_ effect: RunModel.Effect, of action: Action, origin: ActionOrigin) {
        switch effect {
        case .none, .setSuspended, .setCap:
            break
        case .cancel(let i):
            opObject(i)?.cancel()
        case .cancelAll(let q, let barriers, let suspended):
            // The probes go first, so that each runs just before Foundation's
            // own dispatch of the cancelled barrier (see watchRealFinish).
            if !suspended { watchRealFinish(of: barriers, on: q) }
            realQueues[q].cancelAllOperations()
        case .setPriority(let i, let level):
            opObject(i)?.queuePriority = level.foundation
        case .add(let i, let scan):
            handOver(i)
            observeDispatches(scan)
        case .tryOnMainQueue:
            tryOnMainQueue(action, origin: origin)
        }
    }

    /// `OperationQueue.main` ignores suspension, caps and cancel-all: ask
    /// it, and record what it did.
    private func tryOnMainQueue(_ action: Action, origin: ActionOrigin) {
        let queue = OperationQueue.main
        var ignored: ActionRefusal?
        switch action {
        case .cancelAll:
            queue.cancelAllOperations()
            ignored = .mainQueueIgnores(.cancelAllOperations)
        case .suspend, .resume:
            let value: Bool
            if case .suspend = action { value = true } else { value = false }
            let before = queue.isSuspended
            queue.isSuspended = value
            ignored = before == queue.isSuspended ? .mainQueueIgnores(.isSuspended) : nil
        case .setCap(_, let cap):
            let before = queue.maxConcurrentOperationCount
            queue.maxConcurrentOperationCount = cap.foundationValue
            ignored =
                before == queue.maxConcurrentOperationCount ? .mainQueueIgnores(.maxConcurrentOperationCount) : nil
        default:
            ignored = nil
        }
        withModel { model, real in model.recordMainQueueAction(action, origin: origin, ignored: ignored, real: real) }
    }

    /// Foundation finishes a cancelled barrier when it dispatches it: as a
    /// dispatch barrier behind every block dispatched before it (what runs
    /// before it returns). A probe, a dispatch barrier of the run's own,
    /// put on the same dispatch queue just before Foundation's, runs at
    /// that moment, and nothing dispatched after it runs before the probe
    /// returns: the barrier's `isFinished` is announced there. Where the
    /// dispatch queue is unknown, at once.
    func watchRealFinish(of barriers: [Int], on q: Int) {
        for b in enqueueProbes(for: barriers, on: q) { barrierReallyFinished(b) }
    }

    /// Puts the probe of each of `barriers` on `q`'s dispatch queue (which
    /// takes no lock of the run's here); returns those it cannot watch.
    func enqueueProbes(for barriers: [Int], on q: Int) -> [Int] {
        guard let dispatch = backingQueues[q] else { return barriers }
        for b in barriers {
            dispatch.async(flags: .barrier) { [self] in self.barrierReallyFinished(b) }
        }
        return []
    }
}
