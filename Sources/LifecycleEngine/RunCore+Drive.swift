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
        // Checked once per process, before scenario time starts.
        _ = EngineState.shared
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
        var ops = [Operation?](repeating: nil, count: scenario.operations.count)
        // A gate is made at once: a dependent made after its barrier ended
        // must find it started.
        for (i, spec) in scenario.operations.enumerated() where spec.isBarrier { ops[i] = Operation() }
        lock.lock()
        self.ops = ops
        self.realQueues = realQueues
        self.backingQueues = backingQueues
        lock.unlock()
    }

    /// Runs of up to this many operations added at the start look at each
    /// add that may dispatch right after it; larger ones after each chunk
    /// of 64 adds (one lock each instead of two an operation).
    static let addsLookedAtOneByOne = 1_000

    /// The most adds announced under one lock at the start.
    static let addsPerChunk = 64

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
        // that its dispatch is announced before the next add's. Each
        // chunk's operations are made just before (`handOver`).
        let later = scenario.addedLater
        let initial = scenario.operations.indices.filter { !later.contains(OperationID($0)) }
        let oneByOne = initial.count <= Self.addsLookedAtOneByOne
        var from = 0
        var lastReport = DispatchTime.now().uptimeNanoseconds
        while from < initial.count {
            let made = makeMissing(initial[from..<min(from + Self.addsPerChunk, initial.count)])
            lock.lock()
            let first = model.log.count
            let real = realTime()
            let start = from
            keepMade(made)
            model.deferFiling()
            var scan = RunModel.DispatchScan()
            while from < initial.count && from - start < Self.addsPerChunk && (scan.isEmpty || !oneByOne) {
                scan.merge(model.add(initial[from], real: real))
                from += 1
            }
            let handover = initial[start..<from].compactMap(handoverLocked)
            unlockAndNotify(observingFrom: first)
            for h in handover { handOver(h) }
            handedOver.store(from, ordering: .relaxed)
            fileDeferredAndObserve(scan, last: from == initial.count)
            if let (interval, report) = reporting,
                DispatchTime.now().uptimeNanoseconds - lastReport >= UInt64(interval * 1e9)
            {
                report(BuildProgress(handedOver: from, total: initial.count))
                lastReport = DispatchTime.now().uptimeNanoseconds
            }
        }
        reporting?.report(BuildProgress(handedOver: initial.count, total: initial.count))
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
        let was = model.stop()
        var openGates: [Operation] = []
        if was == .running {
            for i in model.records.indices where model.kinds[i] == .barrier && model.takeGate(i) {
                if let gate = ops[i] { openGates.append(gate) }
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
        for case let op? in ops where !(op is AsyncOperation) { op.cancel() }
        for case let op? in ops {
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
        var released = ops
        let graph = model.graph
        ops = []
        lock.unlock()
        // Freed here, outside the lock, dependents first: no operation's
        // deinit frees another, however long a chain (ReleaseOrder).
        for i in ReleaseOrder.dependentsFirst(graph) where i < released.count { released[i] = nil }
    }
}
