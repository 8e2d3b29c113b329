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
    /// wholly before (and the run never starts) or between two chunks of
    /// adds: a stop asked for meanwhile (`abandoned`) ends the adds after
    /// the chunk going on, so it waits a chunk's time (64 adds) however
    /// large the file, then cancels what was handed over; the rest is
    /// never made, and the scheduler never starts.
    func start(reporting: (interval: Double, report: (BuildProgress) -> Void)?) {
        actionLock.lock()
        defer { actionLock.unlock() }
        guard !isAbandoned, withLockedModel({ model in model.lifecycle == .created }) else { return }
        build()
        guard withModel({ model, real in model.start(real: real) }) else { return }
        // Chunk by chunk (`RunModel.addChunk`): the objects made outside
        // the lock, the adds announced under one lock, then handed to
        // Foundation one at a time, in file order, and what they
        // dispatched looked at.
        var lastReport = DispatchTime.now().uptimeNanoseconds
        var scratch = StartScratch()
        lock.lock()
        retiring = true
        lock.unlock()
        defer {
            lock.lock()
            retiring = false
            takeRetired(into: &scratch.retired)
            lock.unlock()
        }
        while true {
            if isAbandoned { return }
            let upcoming = withLockedModel { model in
                takeRetired(into: &scratch.retired)
                return model.upcomingAdds
            }
            // Released here, before the chunk's objects are made (`retired`).
            scratch.retired.removeAll(keepingCapacity: true)
            if upcoming.isEmpty { break }
            makeMissing(upcoming, into: &scratch)
            lock.lock()
            let first = model.log.count
            keepMade(scratch.made)
            let scan = model.addChunk(real: realTime(), into: &scratch.plans)
            scratch.handovers.removeAll(keepingCapacity: true)
            for plan in scratch.plans {
                if let handover = handoverLocked(plan) { scratch.handovers.append(handover) }
            }
            unlockAndNotify(observingFrom: first)
            handOverAll(scratch.handovers)
            // The objects go with Foundation alone, as before the lists were kept.
            scratch.made.removeAll(keepingCapacity: true)
            scratch.handovers.removeAll(keepingCapacity: true)
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
        if let own {
            lock.withLock { own.lastActivity = realTime() }
            let watch = Thread { [self] in self.watchCustom() }
            watch.name = "opscope watch of your classes"
            watch.start()
        }
    }

    // MARK: - Stop

    /// Ends the run: closes the stream and carries out the model's
    /// `StopPlan` (cancels what is left, lets never-finishing async
    /// operations go, resumes suspended queues, opens the gates of barriers
    /// that never ran), so that no engine thread stays blocked; then lets
    /// go of Foundation's objects when `ReleaseWatch` says. A run stopped
    /// before it started never built anything: nothing of Foundation's to
    /// cancel, resume or release.
    func stop() {
        // Before the action lock, which a start holds while it adds: it
        // sees this after its chunk and lets go.
        abandoned.store(true, ordering: .releasing)
        actionLock.lock()
        defer { actionLock.unlock() }
        lock.lock()
        let (wasRunning, gates) = model.stopped()
        let plan = StopPlan(isMain: scenario.queues.map(\.isMain), kinds: model.facts.kinds, gates: gates)
        let objects = self.objects
        unlockAndNotify()
        guard wasRunning else { return }
        wakeSleepers()
        for step in plan.steps { carryOut(step, objects) }
        // The operations are NOT released here: Foundation keeps unretained
        // pointers to dependents in each dependency (__downDependencies),
        // so freeing a finished (e.g. cancelled) dependent while its
        // dependency can still finish is a use-after-free in Foundation.
        watchForRelease(FoundationDrain(core: self), ReleaseWatch())
    }

    /// One step of a stop, on what the run made (an operation never made
    /// has nothing to stop).
    private func carryOut(_ step: StopPlan.Step, _ objects: EngineObjects) {
        switch step {
        case .cancelAll(let q): if objects.queues.indices.contains(q) { objects.queues[q].cancelAllOperations() }
        case .resume(let q): if objects.queues.indices.contains(q) { objects.queues[q].isSuspended = false }
        case .cancel(let i):
            if let op = objects.operation(i), !op.isCancelled { op.cancel() }
        case .letGo(let i):
            guard let a = objects.operation(i) as? AsyncOperation else { return }
            a.cancel()
            // One still executing is let go of: it will never post its finish now.
            if a.state.compareExchange(
                expected: AsyncOperation.executing, desired: AsyncOperation.finished, ordering: .acquiringAndReleasing
            ).exchanged {
                a.post(executing: true, finished: true)
            }
        case .openGate(let i):
            if let gate = objects.operation(i), !gate.isFinished, gate.isReady { gate.start() }
        }
    }

    /// Whether a stop was asked for (it may still wait for the start's
    /// chunk going on).
    var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }

    /// Looks at what Foundation still holds every
    /// `ReleaseWatch.intervalMilliseconds` and lets go of the run's
    /// operations (which hold the core: a cycle) when the watch says.
    private func watchForRelease(_ drain: FoundationDrain, _ watch: ReleaseWatch) {
        var watch = watch
        switch watch.look(left: drain.left(), mainQueueWasGivenOperations: !drain.mainQueueOperations.isEmpty) {
        case .release:
            releaseNow()
        case .releaseAfterTheMainQueue:
            // The main queue processes a finish on the main thread, in the
            // block that finished the operation: once a later block ran
            // there, it is done.
            DispatchQueue.main.async { [self] in
                DispatchQueue.global().async { [self] in releaseNow() }
            }
        case .lookAgain:
            let interval = DispatchTimeInterval.milliseconds(ReleaseWatch.intervalMilliseconds)
            let watched = watch
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in
                watchForRelease(drain, watched)
            }
        case .keepForGood:
            break
        }
    }

    /// Lets go of every Foundation object of the run.
    private func releaseNow() {
        var released = EngineObjects.none
        let graph = withLockedModel { model in
            swap(&released, &objects)
            return model.facts.graph
        }
        // Freed here, outside the lock, as a whole, dependents first: no
        // operation's deinit frees another, however long a chain
        // (ReleaseOrder).
        for i in ReleaseOrder.dependentsFirst(graph) where i < released.operations.count {
            released.operations[i] = nil
        }
    }
}

/// What Foundation still holds of a stopped run: the operations its own
/// queues have not processed yet, and those it was given on the main
/// queue that have not finished.
///
/// Foundation reaches an operation from each of its dependencies through
/// an unretained pointer, and walks them when the dependency finishes:
/// an object freed while one of its dependencies may still finish is
/// used after it was freed. After a stop every operation Foundation was
/// given finishes (cancelled, its queue resumed, its work let go of), and
/// a queue that processed every finish holds none (`operationCount` 0).
/// `OperationQueue.main` is shared with the runs after this one, so its
/// count says nothing of this run's: there, each operation it was given
/// is looked at. One made but never added is linked to nothing.
struct FoundationDrain: @unchecked Sendable {
    // The queues and objects are Foundation's, safe from any thread.
    let queues: [OperationQueue]
    let mainQueueOperations: [Operation]

    init(core: RunCore) {
        (queues, mainQueueOperations) = core.withLockedModel { model in
            let objects = core.objects
            let own = objects.queues.indices.filter { !core.scenario.queues[$0].isMain }.map { objects.queues[$0] }
            guard core.scenario.queues.contains(where: \.isMain) else { return (own, []) }
            let onMain = objects.operations.indices.compactMap { i -> Operation? in
                guard model.records[i].phase != .notAdded, model.facts.kinds[i] != .barrier,
                    core.scenario.queues[Int(model.facts.queueOf[i])].isMain
                else { return nil }
                return objects.operations[i]
            }
            return (own, onMain)
        }
    }

    /// How many operations Foundation has still to finish or process.
    func left() -> Int {
        queues.reduce(0) { $0 + $1.operationCount } + mainQueueOperations.count { !$0.isFinished }
    }
}
