import Foundation
import ScenarioKit

/// What the run gives Foundation for one operation as it adds it: its
/// object, and the objects it is to depend on (`RunModel.HandoverPlan`).
struct Handover {
    let index: Int
    /// The operation (for a barrier: its gate, which is never added).
    let operation: Operation
    let dependencies: [Operation]
    let queue: OperationQueue
    let isBarrier: Bool
    /// It goes in one `addOperations` call with the next handover.
    var joinsNext = false
}

/// The lists the start's loop fills for each chunk of adds, kept from
/// chunk to chunk with their room: made anew, each was a request of a
/// kilobyte or more, on which the allocator first merges every small block
/// the engine's threads freed since (a sixth of the start thread's time in
/// a flat trace of 100,000).
struct StartScratch {
    /// The operations whose objects to make (`RunModel.objectsToMake`).
    var missing: [Int] = []
    var made: [(Int, Operation)] = []
    var plans: [RunModel.HandoverPlan] = []
    var handovers: [Handover] = []
    /// What the run let go of since the last chunk (`RunCore.retired`).
    var retired: [Operation] = []
}

/// The run's Foundation objects, in one structure under the run's lock
/// and released as a whole (`RunCore.releaseWhenFoundationIsDone`).
///
/// The queues are built once, at the start, and never change. The
/// operations cannot be: made all at once, a million of them are there
/// together before the first one runs (DECISIONS.md, "Scale"), so they are
/// made as they are handed over and let go of once nothing can reach them
/// (below). The table that holds them is the one part that changes.
struct EngineObjects {
    /// The real queues, by queue index (the main queue is `OperationQueue.main`).
    let queues: [OperationQueue]
    /// The dispatch queue Foundation runs each queue's operations on (nil
    /// for the main queue, and where it could not be found).
    let backingQueues: [DispatchQueue?]
    /// The object of each operation (for a barrier, the gate its dependents
    /// wait on): nil until the run makes it, and nil again once the run let
    /// go of it.
    var operations: [Operation?]

    static let none = EngineObjects(queues: [], backingQueues: [], operations: [])

    /// Operation `i`'s object, nil when there is none (not made, let go
    /// of, or everything released).
    func operation(_ i: Int) -> Operation? { i >= 0 && i < operations.count ? operations[i] : nil }
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
    func makeMissing<C: Collection<Int32>>(_ indices: C) -> [(Int, Operation)] {
        var scratch = StartScratch()
        makeMissing(indices, into: &scratch)
        return scratch.made
    }

    /// `makeMissing(_:)` into the start's lists (`scratch.made`), their room
    /// kept from chunk to chunk.
    func makeMissing<C: Collection<Int32>>(_ indices: C, into scratch: inout StartScratch) {
        lock.assertNotHeld()
        withLockedModel { model in
            model.objectsToMake(for: indices, into: &scratch.missing) { objects.operation($0) != nil }
        }
        scratch.made.removeAll(keepingCapacity: true)
        scratch.made.reserveCapacity(scratch.missing.count)
        for i in scratch.missing { scratch.made.append((i, makeOperation(i))) }
    }

    /// Keeps what `makeMissing` made, where the run did not make one
    /// meanwhile (an action on an operation not added yet). Under the lock.
    func keepMade(_ made: [(Int, Operation)]) {
        lock.assertHeld()
        for (i, op) in made where i < objects.operations.count && objects.operations[i] == nil {
            objects.operations[i] = op
        }
    }

    /// The object of operation `i`, made now (outside the lock) when the
    /// run has not made it yet and may (`RunModel.objectsToMake`); nil once
    /// let go of.
    func opObject(_ i: Int) -> Operation? {
        let made = makeMissing(CollectionOfOne(Int32(i)))
        return lock.withLock {
            keepMade(made)
            return objects.operation(i)
        }
    }

    /// What to hand Foundation for the model's `plan`, from the objects
    /// `makeMissing` made; nil when the run has no object for it, which the
    /// model never lets happen (only a finished operation, which no other
    /// waits for, is let go of). Under the lock.
    func handoverLocked(_ plan: RunModel.HandoverPlan) -> Handover? {
        lock.assertHeld()
        guard let operation = objects.operation(plan.index) else { return nil }
        return Handover(
            index: plan.index, operation: operation, dependencies: plan.dependencies.compactMap(objects.operation),
            queue: objects.queues[plan.queue], isBarrier: plan.isBarrier, joinsNext: plan.joinsNext)
    }

    /// `addDependency` for each of its dependencies, then the add (for a
    /// barrier, `addBarrierBlock`). Outside the lock.
    func handOver(_ handover: Handover) {
        lock.assertNotHeld()
        if handover.isBarrier {
            let i = handover.index
            handover.queue.addBarrierBlock { [self] in self.runBarrier(i) }
            return
        }
        for dependency in handover.dependencies { handover.operation.addDependency(dependency) }
        handover.queue.addOperation(handover.operation)
    }

    /// Hands over `handovers` in order: one at a time, except that those
    /// joined (`joinsNext`) go in one `addOperations` call, each after its
    /// `addDependency` calls. Outside the lock.
    func handOverAll(_ handovers: [Handover]) {
        var k = 0
        while k < handovers.count {
            guard handovers[k].joinsNext else {
                handOver(handovers[k])
                k += 1
                continue
            }
            var end = k
            while end < handovers.count - 1 && handovers[end].joinsNext { end += 1 }
            let batch = handovers[k...end]
            for h in batch {
                for dependency in h.dependencies { h.operation.addDependency(dependency) }
            }
            handovers[k].queue.addOperations(batch.map(\.operation), waitUntilFinished: false)
            k = end + 1
        }
    }

    /// Hands over operations `members`, added by one batch action, in one
    /// `addOperations` call.
    func handOverBatch(_ members: [Int]) {
        let made = makeMissing(members.map { Int32($0) })
        let handovers = withLockedModel { model in
            keepMade(made)
            return members.enumerated().compactMap { k, i in
                var plan = model.handoverPlan(i)
                plan.joinsNext = k < members.count - 1
                return handoverLocked(plan)
            }
        }
        handOverAll(handovers)
    }

    /// Hands over operation `i`, added by an action.
    func handOver(_ i: Int) {
        let made = makeMissing(CollectionOfOne(Int32(i)))
        let handover = withLockedModel { model in
            keepMade(made)
            return handoverLocked(model.handoverPlan(i))
        }
        if let handover { handOver(handover) }
    }

    /// The Foundation object of operation `i`, its options set.
    func makeOperation(_ i: Int) -> Operation {
        lock.assertNotHeld()
        let spec = scenario.operations[i]
        let op: Operation
        switch spec.body {
        case .work:
            op = WorkOperation(core: self, index: i)
        case .custom(let type):
            guard let made = makeCustom(type, index: i) else {
                // No library for it (a run handed such a scenario without
                // one): an operation that finishes at once, never the
                // user's code.
                return BlockOperation {}
            }
            op = made
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
    /// returned, or its posted `isFinished` did), and the model said what
    /// to ask then (`RunModel.afterFinish`; nil, nothing): what that let
    /// the queues dispatch is looked at, and the run lets go of the object
    /// if nothing can reach it any more
    /// (`RunModel.foundationProcessedFinish`). Freed outside the lock (by
    /// Foundation, when it lets go of it in turn).
    func foundationFinished(_ i: Int, _ scan: RunModel.DispatchScan?) {
        guard let scan else { return }
        lock.lock()
        foundationFinishedLocked(i, scan)
    }

    /// `foundationFinished` for a synchronous operation, with what it kept
    /// (`keepFinishScan`).
    func foundationFinishedKept(_ i: Int) {
        lock.lock()
        guard let scan = finishScans.removeValue(forKey: Int32(i)) else {
            lock.unlock()
            return
        }
        foundationFinishedLocked(i, scan)
    }

    /// Under the lock, which it releases.
    private func foundationFinishedLocked(_ i: Int, _ scan: RunModel.DispatchScan) {
        lock.assertHeld()
        let first = model.log.count
        observeDispatchesLocked(scan)
        let released = model.foundationProcessedFinish(i) ? letGo(i) : nil
        unlockAndNotify(observingFrom: first)
        withExtendedLifetime(released) {}
    }
}

extension ScenarioRun {
    /// The operations whose Foundation objects the run holds now, in index
    /// order: made and not let go of.
    var heldObjects: [Int] {
        core.lock.withLock { core.objects.operations.indices.filter { core.objects.operations[$0] != nil } }
    }
}
