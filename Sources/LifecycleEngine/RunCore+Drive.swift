import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    // MARK: - Building and starting

    /// Makes the real queues, and the gate of each barrier (the hidden
    /// operation its dependents wait on, started when its block ends). The
    /// operations themselves are made as they are handed to Foundation
    /// (`handOver`).
    func build() {
        lock.assertNotHeld()
        // Checked once per process, before scenario time starts.
        _ = EngineState.shared
        let (caps, hasBarriers) = withLockedModel { model in
            (model.queues.map(\.cap), model.queues.map(\.hasBarriers))
        }
        var realQueues: [OperationQueue] = []
        var backingQueues: [DispatchQueue?] = []
        for (q, spec) in scenario.queues.enumerated() {
            if spec.isMain {
                realQueues.append(OperationQueue.main)
                backingQueues.append(nil)
                continue
            }
            let queue = OperationQueue()
            queue.name = spec.name
            queue.maxConcurrentOperationCount = caps[q]
            if let qos = spec.qos { queue.qualityOfService = qos.foundation }
            var backing: DispatchQueue? = nil
            if hasBarriers[q] {
                // An empty barrier block, on the still empty queue, makes
                // Foundation build the dispatch queue it runs the queue's
                // operations on: the run needs it to see when a cancelled
                // barrier really finishes. Before any operation, it delays
                // none.
                queue.addBarrierBlock {}
                backing = Self.dispatchQueue(of: queue)
            }
            if spec.startsSuspended { queue.isSuspended = true }
            realQueues.append(queue)
            backingQueues.append(backing)
        }
        var ops = [Operation?](repeating: nil, count: scenario.operations.count)
        // A gate is made at once: a dependent made after its barrier ended
        // must find it started.
        for (i, spec) in scenario.operations.enumerated() where spec.isBarrier { ops[i] = Operation() }
        let built = EngineObjects(queues: realQueues, backingQueues: backingQueues, operations: ops)
        lock.withLock { objects = built }
    }

    /// The dispatch queue an `OperationQueue` runs its operations on, read
    /// from Foundation's own property (it has no public name); nil where
    /// this Foundation has none by that name.
    static func dispatchQueue(of queue: OperationQueue) -> DispatchQueue? {
        var mirror: Mirror? = Mirror(reflecting: queue)
        while let m = mirror {
            for child in m.children where child.label == "__backingQueue" {
                if let dispatch = child.value as? DispatchQueue { return dispatch }
            }
            mirror = m.superclassMirror
        }
        return nil
    }

    /// `created` → `running`: builds the queues and operations, announces
    /// the queues' configuration, adds the operations and starts the
    /// scheduler. Once only; after `stop()` it does nothing. Holds
    /// `actionLock` throughout, so a `stop()` from another thread comes
    /// wholly before (and the run never starts) or wholly after the adds.
    func start(reporting: (interval: Double, report: (BuildProgress) -> Void)?) {
        actionLock.lock()
        defer { actionLock.unlock() }
        guard withLockedModel({ model in model.lifecycle == .created }) else { return }
        build()
        guard withModel({ model, real in model.start(real: real) }) else { return }
        // Chunk by chunk (`RunModel.addChunk`): the objects made outside
        // the lock, the adds announced under one lock, then handed to
        // Foundation one at a time, in file order, and what they
        // dispatched looked at.
        var lastReport = DispatchTime.now().uptimeNanoseconds
        while true {
            let upcoming = withLockedModel { model in model.upcomingAdds }
            if upcoming.isEmpty { break }
            let made = makeMissing(upcoming)
            lock.lock()
            let first = model.log.count
            keepMade(made)
            let (plans, scan) = model.addChunk(real: realTime())
            let handover = plans.compactMap(handoverLocked)
            unlockAndNotify(observingFrom: first)
            for h in handover { handOver(h) }
            let progress = chunkHandedOver(scan)
            if let (interval, report) = reporting,
                DispatchTime.now().uptimeNanoseconds - lastReport >= UInt64(interval * 1e9)
            {
                report(progress)
                lastReport = DispatchTime.now().uptimeNanoseconds
            }
        }
        if let reporting { reporting.report(withLockedModel { model in model.buildProgress }) }
        withModel { model, real in model.checkCompleted(model.stamp(real)) }
        let thread = Thread { [self] in self.schedulerLoop() }
        thread.name = "opscope scheduler"
        thread.start()
    }

    // MARK: - Stop

    /// Ends the run: closes the stream, cancels what is left, resumes
    /// suspended queues, lets never-finishing async operations go and wakes
    /// every sleeper, so that no engine thread stays blocked. A run stopped
    /// before it started never built anything: nothing of Foundation's to
    /// cancel, resume or release.
    func stop() {
        actionLock.lock()
        defer { actionLock.unlock() }
        lock.lock()
        let (wasRunning, gates) = model.stopped()
        let objects = self.objects
        unlockAndNotify()
        guard wasRunning else { return }
        wakeSleepers()
        for (q, queue) in objects.queues.enumerated() where !scenario.queues[q].isMain {
            queue.cancelAllOperations()
        }
        for case let op? in objects.operations where !(op is AsyncOperation) { op.cancel() }
        for case let op? in objects.operations {
            guard let a = op as? AsyncOperation else { continue }
            a.cancel()
            // One still executing is let go of: it will never post its finish now.
            if a.state.compareExchange(
                expected: AsyncOperation.executing, desired: AsyncOperation.finished, ordering: .acquiringAndReleasing
            ).exchanged {
                a.post(executing: true, finished: true)
            }
        }
        for (q, queue) in objects.queues.enumerated() where !scenario.queues[q].isMain {
            queue.isSuspended = false
        }
        // Gates of barriers that never ran: their dependents were cancelled
        // above and no longer wait, but open them so nothing holds on.
        for g in gates.compactMap(objects.operation) where !g.isFinished && g.isReady { g.start() }
        // The operations are NOT released here: Foundation keeps unretained
        // pointers to dependents in each dependency (__downDependencies),
        // so freeing a finished (e.g. cancelled) dependent while its
        // dependency can still finish is a use-after-free in Foundation.
        releaseWhenFoundationIsDone(attempt: 0)
    }

    /// Drops the run's operations (which hold the core: a cycle) once it is
    /// safe: every operation finished, and every queue has processed its
    /// finishes (its operationCount is 0, so no dependency will walk its
    /// dependents again). A run with an operation that never finishes
    /// keeps them for good, since Foundation may still touch them.
    private func releaseWhenFoundationIsDone(attempt: Int) {
        let (allFinished, queues) = withLockedModel { model in (model.allFinished, objects.queues) }
        guard allFinished else { return }
        if queues.contains(where: { $0.operationCount > 0 }) {
            guard attempt < 200 else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { [self] in
                releaseWhenFoundationIsDone(attempt: attempt + 1)
            }
            return
        }
        var released = EngineObjects.none
        let graph = withLockedModel { model in
            swap(&released, &objects)
            return model.graph
        }
        // Freed here, outside the lock, as a whole, dependents first: no
        // operation's deinit frees another, however long a chain
        // (ReleaseOrder).
        for i in ReleaseOrder.dependentsFirst(graph) where i < released.operations.count {
            released.operations[i] = nil
        }
    }
}
