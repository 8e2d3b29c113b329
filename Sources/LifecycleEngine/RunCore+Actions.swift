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
        unlockAndNotify(observingFrom: first)
        apply(effect, of: action, origin: origin)
        return true
    }

    /// The Foundation side of an action the model recorded.
    private func apply(_ effect: RunModel.Effect, of action: Action, origin: ActionOrigin) {
        switch effect {
        case .none:
            break
        case .cancel(let i):
            opObject(i)?.cancel()
        case .cancelAll(let q, let barriers, let suspended):
            // The probes go first, so that each runs just before Foundation's
            // own dispatch of the cancelled barrier (see watchRealFinish).
            if !suspended { watchRealFinish(of: barriers, on: q) }
            realQueues[q].cancelAllOperations()
        case .setSuspended(let q, let value, let barriers):
            if !value { watchRealFinish(of: barriers, on: q) }
            realQueues[q].isSuspended = value
        case .setCap(let q, let value):
            realQueues[q].maxConcurrentOperationCount = value
        case .setPriority(let i, let level):
            opObject(i)?.queuePriority = level.foundation
        case .add(let i):
            addToQueue(i)
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
        for b in barriers {
            if let dispatch = backingQueues[q] {
                dispatch.async(flags: .barrier) { [self] in self.barrierReallyFinished(b) }
            } else {
                barrierReallyFinished(b)
            }
        }
    }
}
