import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    // MARK: - Building and starting

    /// Makes the real queues and operations, with priorities, QoS,
    /// completion blocks and dependencies (a dependency on a barrier is a
    /// dependency on its hidden gate). The model's records learn the
    /// dependencies at the same time.
    func build() {
        // Checked once per process, before scenario time starts.
        _ = EngineState.shared
        lock.lock()
        var records = model.records
        lock.unlock()
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
            let cap = spec.cap.foundationValue
            queue.maxConcurrentOperationCount = cap == 0 ? 1 : max(cap, -1)
            if let qos = spec.qos { queue.qualityOfService = qos.foundation }
            var backing: DispatchQueue? = nil
            if model.queues[q].hasBarriers {
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
        let ops = makeOperations()
        let gates: [Operation?] = scenario.operations.indices.map {
            scenario.operations[$0].isBarrier ? ops[$0] : nil
        }
        // Dependencies, deduplicated as Foundation does.
        for (i, spec) in scenario.operations.enumerated() where !spec.dependencies.isEmpty && !spec.isBarrier {
            var seen = Set<Int>()
            for dep in spec.dependencies where dep.index != i && seen.insert(dep.index).inserted {
                ops[i].addDependency(ops[dep.index])
                records[i].unfinishedDeps += 1
                records[i].waitsOn.append(Int32(dep.index))
                records[dep.index].dependents.append(Int32(i))
            }
        }
        lock.lock()
        model.records = records
        self.ops = ops
        self.gates = gates
        self.realQueues = realQueues
        self.backingQueues = backingQueues
        lock.unlock()
    }

    /// Runs of up to this many operations added at the start look at each
    /// add that may dispatch right after it; larger ones after each chunk
    /// of 64 adds (one lock each instead of two an operation).
    static let addsLookedAtOneByOne = 1_000

    /// Operations this many or more are made on two threads at once.
    static let operationsMadeInTwoParts = 50_000

    /// The Foundation object of each operation (a plain `Operation` as the
    /// gate of a barrier), its options set. A large scenario's are made in
    /// two halves at once: each init builds Foundation's own state (locks
    /// and dependency sets), about a microsecond, and the objects are
    /// independent of each other until they are added.
    private func makeOperations() -> [Operation] {
        let count = scenario.operations.count
        guard count >= Self.operationsMadeInTwoParts else { return (0..<count).map(makeOperation) }
        return [Operation](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let base = buffer.baseAddress!
            let half = count / 2
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                for i in part == 0 ? 0..<half : half..<count {
                    (base + i).initialize(to: self.makeOperation(i))
                }
            }
            initialized = count
        }
    }

    private func makeOperation(_ i: Int) -> Operation {
        let spec = scenario.operations[i]
        let op: Operation
        switch spec.body {
        case .work(let d):
            op = WorkOperation(core: self, index: i, duration: d.seconds, cooperative: !spec.ignoresCancel)
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
    func start() {
        actionLock.lock()
        defer { actionLock.unlock() }
        lock.lock()
        guard model.lifecycle == .created else {
            lock.unlock()
            return
        }
        lock.unlock()
        build()
        guard withModel({ model, real in model.start(real: real) }) else { return }
        // Announced in chunks under one lock each, each announcement
        // before its operation's add; the adds stay one at a time, in file
        // order, as the language says; what they dispatched is looked at
        // after each chunk. In a run of up to `addsLookedAtOneByOne`
        // operations a chunk also ends with an add that may dispatch, so
        // that its dispatch is announced before the next add's.
        let later = scenario.addedLater
        let initial = scenario.operations.indices.filter { !later.contains(OperationID($0)) }
        let oneByOne = initial.count <= Self.addsLookedAtOneByOne
        var from = 0
        while from < initial.count {
            let (chunk, scan) = withModel { model, real -> (ArraySlice<Int>, RunModel.DispatchScan) in
                let start = from
                model.deferFiling()
                var scan = RunModel.DispatchScan()
                while from < initial.count && from - start < 64 && (scan.isEmpty || !oneByOne) {
                    scan.merge(model.add(initial[from], real: real))
                    from += 1
                }
                return (initial[start..<from], scan)
            }
            for i in chunk { addToQueue(i) }
            fileDeferredAndObserve(scan, last: from == initial.count)
        }
        withModel { model, real in model.checkCompleted(model.stamp(real)) }
        let thread = Thread { [self] in self.schedulerLoop() }
        thread.name = "opscope scheduler"
        thread.start()
    }

    /// The Foundation call that adds operation (or barrier) `i`.
    func addToQueue(_ i: Int) {
        let queue = realQueues[Int(model.queueOf[i])]
        if model.kinds[i] == .barrier {
            queue.addBarrierBlock { [self] in self.runBarrier(i) }
        } else {
            queue.addOperation(ops[i])
        }
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
        let was = model.stop()
        var openGates: [Operation] = []
        if was == .running {
            for i in model.records.indices where model.kinds[i] == .barrier && model.takeGate(i) {
                if let gate = gates[i] { openGates.append(gate) }
            }
        }
        let ops = self.ops
        let queues = self.realQueues
        unlockAndNotify()
        guard was == .running else { return }
        wakeSleepers()
        for (q, queue) in queues.enumerated() where !scenario.queues[q].isMain {
            queue.cancelAllOperations()
        }
        for op in ops where !(op is AsyncOperation) { op.cancel() }
        for op in ops {
            guard let a = op as? AsyncOperation else { continue }
            a.cancel()
            if a.state.load(ordering: .acquiring) == AsyncOperation.executing {
                a.state.store(AsyncOperation.finished, ordering: .releasing)
                a.post(executing: true, finished: true)
            }
        }
        for (q, queue) in queues.enumerated() where !scenario.queues[q].isMain {
            queue.isSuspended = false
        }
        // Gates of barriers that never ran: their dependents were cancelled
        // above and no longer wait, but open them so nothing holds on.
        for g in openGates where !g.isFinished && g.isReady { g.start() }
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
        lock.lock()
        let allFinished = model.records.allSatisfy { $0.phase == .finished }
        let queues = realQueues
        lock.unlock()
        guard allFinished else { return }
        if queues.contains(where: { $0.operationCount > 0 }) {
            guard attempt < 200 else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { [self] in
                releaseWhenFoundationIsDone(attempt: attempt + 1)
            }
            return
        }
        lock.lock()
        var released = ops.map(Optional.some)
        let releasedGates = gates
        ops = []
        gates = []
        lock.unlock()
        // Freed here, outside the lock, dependents first: no operation's
        // deinit frees another, however long a chain (ReleaseOrder).
        for i in ReleaseOrder.dependentsFirst(scenario) where i < released.count { released[i] = nil }
        _ = releasedGates
    }
}
