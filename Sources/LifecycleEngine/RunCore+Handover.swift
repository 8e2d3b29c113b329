import Foundation
import ScenarioKit

/// What the run gives Foundation for one operation as it adds it: its
/// object, and the objects it is to depend on.
struct Handover {
    let index: Int
    /// The operation (for a barrier: its gate, which is never added).
    let operation: Operation
    let dependencies: [Operation]
    let queue: OperationQueue
    let isBarrier: Bool
}

/// The operations' Foundation objects over a run: made as they are handed
/// to Foundation, let go of as soon as nothing can reach them.
///
/// A Foundation operation costs some 550 bytes before it is added (its
/// locks, its condition; ENGINE-NOTES.md) and more while its queue holds
/// it. Made all at once, a million of them are there together before the
/// first one runs. Made a chunk at a time, just before their adds, and let
/// go of once finished, a run whose operations finish as fast as they are
/// added (many independent ones, or a fan-out) holds only those in flight.
/// What Foundation is told is the same, call for call, except that an
/// operation's `addDependency` calls come just before its own add rather
/// than before the first add: a dependency already finished by then is
/// not counted, which is what it would have come to (its finish released
/// it), and readiness is the model's to announce either way.
extension RunCore {
    /// Makes, outside the lock, the objects `indices` and what they wait
    /// for still lack (another thread may make one meanwhile:
    /// `keepMade`).
    func makeMissing(_ indices: ArraySlice<Int>) -> [(Int, Operation)] {
        lock.lock()
        var missing: [Int] = []
        for i in indices {
            if ops[i] == nil { missing.append(i) }
            for d in model.graph.dependencies(of: i) where ops[Int(d)] == nil { missing.append(Int(d)) }
        }
        lock.unlock()
        return missing.map { ($0, makeOperation($0)) }
    }

    /// Keeps what `makeMissing` made, where the run did not make one
    /// meanwhile (an action on an operation not added yet). Under the lock.
    func keepMade(_ made: [(Int, Operation)]) {
        for (i, op) in made where ops[i] == nil { ops[i] = op }
    }

    /// The object of operation `i`, made now when the run has not made it
    /// yet; nil once let go of (finished: nothing can be done to it). Under
    /// the lock: no Foundation call made here calls back into the run.
    func objectLocked(_ i: Int) -> Operation? {
        guard i >= 0, i < ops.count else { return nil }
        if let op = ops[i] { return op }
        // Only a finished operation is let go of, and one is finished only
        // once it was added, and so made.
        guard model.records[i].phase != .finished else { return nil }
        let op = makeOperation(i)
        ops[i] = op
        return op
    }

    /// What to hand Foundation for operation `i` (a dependency on a
    /// barrier is one on its gate); nil when the run has no object for it,
    /// which the model never lets happen (only a finished operation, which
    /// no other waits for, is let go of). Under the lock.
    func handoverLocked(_ i: Int) -> Handover? {
        guard let operation = objectLocked(i) else { return nil }
        let dependencies = model.graph.dependencies(of: i).compactMap { objectLocked(Int($0)) }
        return Handover(
            index: i, operation: operation, dependencies: dependencies, queue: realQueues[Int(model.queueOf[i])],
            isBarrier: model.kinds[i] == .barrier)
    }

    /// `addDependency` for each of its dependencies, then the add (for a
    /// barrier, `addBarrierBlock`). Outside the lock.
    func handOver(_ handover: Handover) {
        if handover.isBarrier {
            let i = handover.index
            handover.queue.addBarrierBlock { [self] in self.runBarrier(i) }
            return
        }
        for dependency in handover.dependencies { handover.operation.addDependency(dependency) }
        handover.queue.addOperation(handover.operation)
    }

    /// Hands over operation `i`, added by an action.
    func handOver(_ i: Int) {
        lock.lock()
        let handover = handoverLocked(i)
        lock.unlock()
        if let handover { handOver(handover) }
    }

    /// The Foundation object of operation `i`, its options set.
    func makeOperation(_ i: Int) -> Operation {
        let spec = scenario.operations[i]
        let op: Operation
        switch spec.body {
        case .work:
            op = WorkOperation(core: self, index: i)
        case .blocks(let ds):
            op = BlocksOperation(core: self, index: i, durations: ds.map(\.seconds), cooperative: !spec.ignoresCancel)
        case .async:
            op = AsyncOperation(core: self, index: i)
        case .barrier:
            return Operation()
        }
        if let p = spec.priority { op.queuePriority = p.foundation }
        if let qos = spec.qos { op.qualityOfService = qos.foundation }
        if spec.completion != nil {
            op.completionBlock = { [self] in self.completionRan(i) }
        }
        return op
    }

    /// Foundation has processed operation `i`'s finish (its `start()`
    /// returned, or its posted `isFinished` did): what that let the queues
    /// dispatch is looked at, and the run lets go of the object if nothing
    /// can reach it any more (`RunModel.mayLetGo`). Freed outside the lock
    /// (by Foundation, when it lets go of it in turn).
    func foundationFinished(_ i: Int, _ scan: RunModel.DispatchScan) {
        guard !scan.isEmpty || !graph.hasDependents(i) else { return }
        lock.lock()
        let first = model.log.count
        observeDispatchesLocked(scan)
        var released: Operation?
        if model.lifecycle == .running && model.mayLetGo(i) {
            released = ops[i]
            ops[i] = nil
        }
        unlockAndNotify(observingFrom: first)
        withExtendedLifetime(released) {}
    }
}

extension ScenarioRun {
    /// The operations whose Foundation objects the run holds now, in index
    /// order: made and not let go of.
    var heldObjects: [Int] {
        core.lock.lock()
        defer { core.lock.unlock() }
        return core.ops.indices.filter { core.ops[$0] != nil }
    }
}
