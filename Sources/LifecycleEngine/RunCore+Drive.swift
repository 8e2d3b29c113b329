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
        var ops: [Operation] = []
        var gates: [Operation?] = []
        ops.reserveCapacity(scenario.operations.count)
        gates.reserveCapacity(scenario.operations.count)
        for (i, spec) in scenario.operations.enumerated() {
            let op: Operation
            var gate: Operation? = nil
            switch spec.body {
            case .work(let d):
                op = WorkOperation(core: self, index: i, duration: d.seconds, cooperative: !spec.ignoresCancel)
            case .blocks(let ds):
                op = BlocksOperation(
                    core: self, index: i, durations: ds.map(\.seconds), cooperative: !spec.ignoresCancel)
            case .async:
                op = AsyncOperation(core: self, index: i)
            case .barrier:
                let g = Operation()
                gate = g
                op = g
            }
            if !spec.isBarrier {
                if let p = spec.priority { op.queuePriority = p.foundation }
                if let qos = spec.qos { op.qualityOfService = qos.foundation }
                if spec.completion != nil {
                    op.completionBlock = { [self] in self.completionRan(i) }
                }
            }
            ops.append(op)
            gates.append(gate)
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
        // order, as the language says.
        let later = scenario.addedLater
        let initial = scenario.operations.indices.filter { !later.contains(OperationID($0)) }
        var from = 0
        while from < initial.count {
            let chunk = initial[from..<min(from + 64, initial.count)]
            from = chunk.endIndex
            withModel { model, real in
                for i in chunk { model.add(i, real: real) }
            }
            for i in chunk { addToQueue(i) }
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
        let first = model.log.events.count
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
            ignored = before == queue.maxConcurrentOperationCount ? .mainQueueIgnores(.maxConcurrentOperationCount) : nil
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

    // MARK: - Scheduler

    /// One dedicated thread (never the global pool, which simulated work
    /// starves): runs `at` actions and announces `at` captions at their
    /// scenario times, fires the timers that end async operations, and
    /// decides stalls (debounced: the condition must hold, with no new
    /// event, across 200 ms of real time, so that transient engine states
    /// pass).
    func schedulerLoop() {
        var probeSeq = -1
        var probeReal: UInt64 = 0
        schedulerCondition.lock()
        while true {
            lock.lock()
            let done = model.log.isClosed || model.lifecycle == .stopped
            let now = model.now(realTime())
            let paused = model.clock.isStopped
            let speed = model.clock.speed
            let next = model.nextScheduled()
            let engineWork = model.hasEngineWorkScheduled
            if let next, next.due <= now, !paused { model.take(next.item) }
            lock.unlock()
            if done { break }
            if let next, next.due <= now, !paused {
                schedulerCondition.unlock()
                fire(next.item)
                schedulerCondition.lock()
                continue
            }
            var wait = 0.2
            if let next, !paused { wait = min(wait, max((next.due - now) / speed, 0.0005)) }
            _ = schedulerCondition.wait(until: Date(timeIntervalSinceNow: wait))
            if !engineWork {
                // Never hold schedulerCondition here: the end wakes sleepers.
                schedulerCondition.unlock()
                defer { schedulerCondition.lock() }
                lock.lock()
                let probe = model.stallProbe
                lock.unlock()
                if let s = probe {
                    let real = realTime()
                    if s != probeSeq {
                        probeSeq = s
                        probeReal = real
                    } else if real - probeReal >= 200_000_000 {
                        withModel { model, real in model.declareStall(ifStillAt: s, real: real) }
                    }
                } else {
                    probeSeq = -1
                }
            }
        }
        schedulerCondition.unlock()
    }

    private func fire(_ item: RunModel.Scheduled) {
        switch item {
        case .action(let index):
            perform(scenario.actions[index].action, origin: .timed(index))
            withModel { model, real in model.timedActionDone(real: real) }
        case .caption(let index):
            withModel { model, real in model.caption(index, model.stamp(real)) }
        case .timer(let op):
            asyncFinish(Int(op))
        }
    }

    // MARK: - Control

    func pause() {
        withModel { model, real in model.clock.pause(real) }
        wakeSleepers()
    }

    func resume() {
        withModel { model, real in model.clock.resume(real) }
        wakeSleepers()
    }

    func setSpeed(_ speed: Double) {
        withModel { model, real in model.clock.setSpeed(speed, real) }
        wakeSleepers()
    }

    func takeEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        mailboxSignalled = false
        return model.log.takeNew()
    }

    func allEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        return model.log.events
    }

    func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        endCondition.lock()
        while !endSignalled {
            if !endCondition.wait(until: deadline) { break }
        }
        let ended = endSignalled
        endCondition.unlock()
        return ended
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
        let released = (ops, gates)
        ops = []
        gates = []
        lock.unlock()
        _ = released  // freed here, outside the lock
    }
}
