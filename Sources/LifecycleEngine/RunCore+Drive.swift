import RunEvents
import Foundation
import ScenarioKit

extension RunCore {
    // MARK: - Building and starting

    /// Makes the real queues and operations, with priorities, QoS,
    /// completion blocks and dependencies (a dependency on a barrier is a
    /// dependency on its hidden gate).
    func build() {
        lock.lock()
        var records = self.records
        lock.unlock()
        var realQueues: [OperationQueue] = []
        for spec in scenario.queues {
            if spec.isMain {
                realQueues.append(OperationQueue.main)
                continue
            }
            let q = OperationQueue()
            q.name = spec.name
            let cap = spec.cap.foundationValue
            q.maxConcurrentOperationCount = cap == 0 ? 1 : max(cap, -1)
            if let qos = spec.qos { q.qualityOfService = qos.foundation }
            if spec.startsSuspended { q.isSuspended = true }
            realQueues.append(q)
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
                if let p = spec.priority {
                    op.queuePriority = p.foundation
                    records[i].priority = p
                }
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
        self.records = records
        self.ops = ops
        self.gates = gates
        self.realQueues = realQueues
        lock.unlock()
    }

    /// `created` → `running`: builds the queues and operations, announces
    /// the queues' configuration, adds the operations and starts the
    /// scheduler. Once only; after `stop()` it does nothing. Holds
    /// `actionLock` throughout, so a `stop()` from another thread comes
    /// wholly before (and the run never starts) or wholly after the adds.
    func start() {
        actionLock.lock()
        lock.lock()
        guard lifecycle == .created else {
            lock.unlock()
            actionLock.unlock()
            return
        }
        lock.unlock()
        build()
        lock.lock()
        lifecycle = .running
        clock.start(monotonicNanoseconds())
        let t = lockedNow()
        // The configuration, as changes from what a new OperationQueue has.
        for (q, spec) in scenario.queues.enumerated() {
            let cap = queues[q].cap
            if cap != OperationQueue.defaultMaxConcurrentOperationCount {
                emit(.queue(QueueID(q), .maxConcurrentOperationCount, old: .int(-1), new: .int(cap)), t)
            }
            if spec.startsSuspended && !spec.isMain {
                emit(.queue(QueueID(q), .isSuspended, old: .bool(false), new: .bool(true)), t)
            }
        }
        unlockAndNotify()
        // Announced in chunks under one lock each, each announcement
        // before its operation's add; the adds stay one at a time, in file
        // order, as the language says.
        let later = scenario.addedLater
        let initial = scenario.operations.indices.filter { !later.contains(OperationID($0)) }
        var from = 0
        while from < initial.count {
            let chunk = initial[from..<min(from + 64, initial.count)]
            from = chunk.endIndex
            lock.lock()
            let t = lockedNow()
            for i in chunk { addLocked(i, t) }
            unlockAndNotify()
            for i in chunk {
                let queue = realQueues[Int(queueOf[i])]
                if kinds[i] == .barrier {
                    queue.addBarrierBlock { [self] in self.runBarrier(i) }
                } else {
                    queue.addOperation(ops[i])
                }
            }
        }
        lock.lock()
        checkCompletedLocked(lockedNow())
        unlockAndNotify()
        actionLock.unlock()
        let thread = Thread { [self] in self.schedulerLoop() }
        thread.name = "opscope scheduler"
        thread.start()
    }

    // MARK: - Actions

    /// Performs `action` and records it; false when the run is not
    /// running (not started yet, ended or stopped): nothing was done.
    @discardableResult
    func perform(_ action: Action, origin: ActionOrigin) -> Bool {
        actionLock.lock()
        defer { actionLock.unlock() }
        lock.lock()
        guard lifecycle == .running, !closed else {
            lock.unlock()
            return false
        }
        // A run waiting for the user after a stall: time moves on from
        // the moment it stopped, with this action.
        clock.release(monotonicNanoseconds())
        lock.unlock()
        apply(action, origin: origin)
        return true
    }

    /// The body of `perform`, under `actionLock`: announce, then apply.
    private func apply(_ action: Action, origin: ActionOrigin) {
        switch action {
        case .cancel(let id):
            guard let i = validOp(id) else { return recordAction(action, origin, .noSuchOperation) }
            lock.lock()
            let r = records[i]
            let reason: ActionRefusal? =
                kinds[i] == .barrier ? .barrierHasNoHandle
                : r.phase == .finished ? .alreadyFinished
                : (r.cancelled || r.heldCancel) ? .alreadyCancelled : nil
            emit(.action(action, origin: origin, ignored: reason), lockedNow())
            let op = ops[i]
            unlockAndNotify()
            if reason == nil { op.cancel() }

        case .cancelAll(let qid):
            guard let q = validQueue(qid) else { return recordAction(action, origin, .noSuchQueue) }
            let queue = realQueues[q]
            if scenario.queues[q].isMain {
                queue.cancelAllOperations()
                return recordAction(action, origin, .mainQueueIgnores(.cancelAllOperations))
            }
            lock.lock()
            let t = lockedNow()
            emit(.action(action, origin: origin, ignored: nil), t)
            // Foundation cancels a waiting barrier too: its block never
            // runs. Announce that here, before the engine can release
            // what waits for it, and open the barrier's gate.
            var gatesToOpen: [Operation] = []
            for b32 in queues[q].pendingBarriers {
                let b = Int(b32)
                let phase = records[b].phase
                guard phase == .pending || phase == .ready else { continue }
                cancelBeforeStartLocked(b, t)
                finishLocked(b, t)
                if let gate = takeGateLocked(b) { gatesToOpen.append(gate) }
            }
            unlockAndNotify()
            for gate in gatesToOpen { gate.start() }
            queue.cancelAllOperations()

        case .suspend(let qid), .resume(let qid):
            guard let q = validQueue(qid) else { return recordAction(action, origin, .noSuchQueue) }
            let value: Bool
            if case .suspend = action { value = true } else { value = false }
            let queue = realQueues[q]
            if scenario.queues[q].isMain {
                let before = queue.isSuspended
                queue.isSuspended = value
                let after = queue.isSuspended
                return recordAction(
                    action, origin, before == after ? .mainQueueIgnores(.isSuspended) : nil)
            }
            lock.lock()
            let t = lockedNow()
            let old = queues[q].suspended
            if old == value {
                emit(.action(action, origin: origin, ignored: value ? .alreadySuspended : .notSuspended), t)
                unlockAndNotify()
                return
            }
            emit(.action(action, origin: origin, ignored: nil), t)
            emit(.queue(QueueID(q), .isSuspended, old: .bool(old), new: .bool(value)), t)
            queues[q].suspended = value
            unlockAndNotify()
            queue.isSuspended = value

        case .setCap(let qid, let cap):
            guard let q = validQueue(qid) else { return recordAction(action, origin, .noSuchQueue) }
            let value = cap.foundationValue
            if value < -1 || value == 0 {
                return recordAction(action, origin, .capBelowOne)
            }
            let queue = realQueues[q]
            if scenario.queues[q].isMain {
                let before = queue.maxConcurrentOperationCount
                queue.maxConcurrentOperationCount = value
                let after = queue.maxConcurrentOperationCount
                return recordAction(
                    action, origin,
                    before == after ? .mainQueueIgnores(.maxConcurrentOperationCount) : nil)
            }
            lock.lock()
            let t = lockedNow()
            let old = queues[q].cap
            if old == value {
                emit(.action(action, origin: origin, ignored: .unchanged), t)
                unlockAndNotify()
                return
            }
            emit(.action(action, origin: origin, ignored: nil), t)
            emit(.queue(QueueID(q), .maxConcurrentOperationCount, old: .int(old), new: .int(value)), t)
            queues[q].cap = value
            unlockAndNotify()
            queue.maxConcurrentOperationCount = value

        case .setPriority(let id, let level):
            guard let i = validOp(id) else { return recordAction(action, origin, .noSuchOperation) }
            lock.lock()
            let t = lockedNow()
            let old = records[i].priority
            let reason: ActionRefusal? =
                kinds[i] == .barrier ? .barrierHasNoPriority
                : records[i].phase == .finished ? .alreadyFinished
                : old == level ? .unchanged : nil
            emit(.action(action, origin: origin, ignored: reason), t)
            if reason == nil {
                emit(.operation(OperationID(i), .queuePriority, old: .priority(old), new: .priority(level)), t)
                records[i].priority = level
            }
            let op = ops[i]
            unlockAndNotify()
            if reason == nil { op.queuePriority = level.foundation }

        case .add(let id):
            guard let i = validOp(id) else { return recordAction(action, origin, .noSuchOperation) }
            lock.lock()
            let t = lockedNow()
            if records[i].phase != .notAdded {
                emit(
                    .action(
                        action, origin: origin,
                        ignored: .alreadyAdded), t)
                unlockAndNotify()
                return
            }
            emit(.action(action, origin: origin, ignored: nil), t)
            let queue = realQueues[Int(queueOf[i])]
            addLocked(i, t)
            let op = ops[i]
            unlockAndNotify()
            if kinds[i] == .barrier {
                queue.addBarrierBlock { [self] in self.runBarrier(i) }
            } else {
                queue.addOperation(op)
            }
        }
    }

    private func validOp(_ id: OperationID) -> Int? {
        id.index >= 0 && id.index < kinds.count ? id.index : nil
    }

    private func validQueue(_ id: QueueID) -> Int? {
        id.index >= 0 && id.index < queues.count ? id.index : nil
    }

    private func recordAction(_ action: Action, _ origin: ActionOrigin, _ ignored: ActionRefusal?) {
        lock.lock()
        emit(.action(action, origin: origin, ignored: ignored), lockedNow())
        unlockAndNotify()
    }

    // MARK: - Scheduler

    /// One dedicated thread (never the global pool, which simulated work
    /// starves): runs `at` actions and announces `at` captions at their
    /// scenario times (file order for ties, before timers due at the same
    /// time), fires the timers that end async operations, and decides
    /// stalls (debounced). A caption still to come neither keeps the run
    /// going nor holds off a stall.
    func schedulerLoop() {
        let actions = scenario.actions
        let actionTimes = actions.map { $0.time.seconds }
        let captionTimes = timedCaptions.map { scenario.captions[$0].time!.seconds }
        var nextCaption = 0
        var probeSeq = -1
        var probeReal: UInt64 = 0
        schedulerCondition.lock()
        while true {
            lock.lock()
            let done = closed || lifecycle == .stopped
            let now = lockedNow()
            let paused = clock.isStopped
            let speed = clock.speed
            lock.unlock()
            if done { break }
            let actionDue = nextTimedAction < actions.count ? actionTimes[nextTimedAction] : .infinity
            let timerDue = timers.first?.due ?? .infinity
            let captionDue = nextCaption < captionTimes.count ? captionTimes[nextCaption] : .infinity
            let engineDue = min(actionDue, timerDue)
            let due = min(engineDue, captionDue)
            if due <= now && !paused {
                let captionFirst =
                    captionDue <= timerDue
                    && (captionDue < actionDue
                        || (captionDue == actionDue
                            && scenario.captions[timedCaptions[nextCaption]].location
                                < actions[nextTimedAction].location))
                if captionFirst {
                    let index = timedCaptions[nextCaption]
                    nextCaption += 1
                    schedulerCondition.unlock()
                    lock.lock()
                    captionLocked(index, lockedNow())
                    unlockAndNotify()
                    schedulerCondition.lock()
                } else if actionDue <= timerDue {
                    let index = nextTimedAction
                    nextTimedAction += 1
                    schedulerCondition.unlock()
                    perform(actions[index].action, origin: .timed(index))
                    lock.lock()
                    timedActionsLeft -= 1
                    checkCompletedLocked(lockedNow())
                    unlockAndNotify()
                    schedulerCondition.lock()
                } else if let entry = timers.pop() {
                    schedulerCondition.unlock()
                    asyncFinish(Int(entry.op))
                    schedulerCondition.lock()
                }
                continue
            }
            var wait = 0.2
            if due.isFinite && !paused { wait = min(wait, max((due - now) / speed, 0.0005)) }
            _ = schedulerCondition.wait(until: Date(timeIntervalSinceNow: wait))
            // Stall: the condition must hold, with no new event, across
            // at least 200 ms real (transient engine states pass).
            if engineDue == .infinity {
                // Never hold schedulerCondition here: the end wakes sleepers.
                schedulerCondition.unlock()
                defer { schedulerCondition.lock() }
                if let s = stallProbe() {
                    let real = monotonicNanoseconds()
                    if s != probeSeq {
                        probeSeq = s
                        probeReal = real
                    } else if real - probeReal >= 200_000_000 {
                        declareStall(ifStillAt: s)
                    }
                } else {
                    probeSeq = -1
                }
            }
        }
        schedulerCondition.unlock()
    }

    /// The current sequence number when nothing can progress, else nil.
    /// O(queues) from counters.
    func stallProbe() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return stallConditionLocked() && seq != stallSeq ? seq : nil
    }

    /// Nothing can progress. Never while the user has paused the run:
    /// the pause holds the work and the actions that would progress, and a
    /// run opened paused has not had its chance yet.
    func stallConditionLocked() -> Bool {
        if closed || lifecycle != .running || unfinishedOps == 0 || clock.isPaused { return false }
        if workingCount > 0 || asyncTimersPending > 0 || timedActionsLeft > 0 { return false }
        if completionsRun < completionsOwed { return false }
        for q in queues where q.readyWaiting > 0 && (!q.suspended || q.isMain) && q.executing < q.effectiveCap {
            return false
        }
        return true
    }

    /// Announces the stall found at `s` if nothing happened since: the end
    /// of the run, or (`.waitsForUser`) a `.stall` event, with scenario
    /// time held until the next action.
    func declareStall(ifStillAt s: Int) {
        lock.lock()
        if seq == s && stallConditionLocked() {
            let t = lockedNow()
            switch stallPolicy {
            case .endsRun:
                endLocked(.stalled(stuckReasonsLocked()), t)
            case .waitsForUser:
                emit(.stall(stuckReasonsLocked()), t)
                stallSeq = seq
                clock.hold(monotonicNanoseconds())
            }
        }
        unlockAndNotify()
    }

    /// Why each unfinished operation can never finish. Iterative (chains
    /// can be thousands long), memoised.
    func stuckReasonsLocked() -> [OperationID: StuckReason] {
        var result: [OperationID: StuckReason] = [:]
        var root = [Int32](repeating: -1, count: records.count)
        func directReason(_ i: Int) -> StuckReason? {
            let r = records[i]
            let q = Int(queueOf[i])
            switch r.phase {
            case .executing:
                return .neverPostedFinish
            case .ready, .notAdded:
                if queues[q].suspended && !queues[q].isMain { return .queueSuspended(QueueID(q)) }
                // Its queue's slots are held by operations that never finish.
                for j in records.indices
                where queueOf[j] == queueOf[i] && records[j].phase == .executing {
                    return .waitsFor(OperationID(j), root: OperationID(j))
                }
                return .queueSuspended(QueueID(q))
            default:
                return nil
            }
        }
        func firstUnfinished(_ i: Int) -> Int? {
            for d in records[i].waitsOn where records[Int(d)].phase != .finished { return Int(d) }
            return nil
        }
        for i in records.indices where records[i].phase != .finished {
            if let reason = directReason(i) {
                result[OperationID(i)] = reason
                continue
            }
            guard let direct = firstUnfinished(i) else {
                result[OperationID(i)] = .queueSuspended(QueueID(Int(queueOf[i])))
                continue
            }
            // Follow the chain to an operation stuck for a direct reason.
            var chain: [Int] = []
            var cur = direct
            var found = -1
            var steps = 0
            while steps <= records.count {
                steps += 1
                if root[cur] >= 0 { found = Int(root[cur]); break }
                if directReason(cur) != nil { found = cur; break }
                chain.append(cur)
                guard let next = firstUnfinished(cur) else { found = cur; break }
                cur = next
            }
            if found < 0 { found = cur }
            for c in chain { root[c] = Int32(found) }
            result[OperationID(i)] = .waitsFor(OperationID(direct), root: OperationID(found))
        }
        return result
    }

    // MARK: - Control

    func pause() {
        lock.lock()
        clock.pause(monotonicNanoseconds())
        lock.unlock()
        wakeSleepers()
    }

    func resume() {
        lock.lock()
        clock.resume(monotonicNanoseconds())
        lock.unlock()
        wakeSleepers()
    }

    func setSpeed(_ speed: Double) {
        lock.lock()
        clock.setSpeed(speed, monotonicNanoseconds())
        lock.unlock()
        wakeSleepers()
    }

    func takeEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        mailboxSignalled = false
        guard taken < log.count else { return [] }
        let out = Array(log[taken...])
        taken = log.count
        return out
    }

    func allEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        return log
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

    /// Ends the run: closes the stream, cancels what is left, resumes
    /// suspended queues, lets never-finishing async operations go and wakes
    /// every sleeper, so that no engine thread stays blocked.
    func stop() {
        actionLock.lock()
        lock.lock()
        let was = lifecycle
        lifecycle = .stopped
        switch was {
        case .stopped:
            lock.unlock()
            actionLock.unlock()
            return
        case .created:
            // Never started: no queue or operation was built, nothing of
            // Foundation's to cancel, resume or release.
            closed = true
            endSignalPending = true
            unlockAndNotify()
            actionLock.unlock()
            return
        case .running:
            break
        }
        closed = true
        endSignalPending = true
        let ops = self.ops
        let queues = self.realQueues
        let gates = self.gates
        var openGates: [Operation] = []
        for i in records.indices where kinds[i] == .barrier {
            if let g = takeGateLocked(i) { openGates.append(g) }
        }
        unlockAndNotify()
        wakeSleepers()
        schedulerCondition.lock()
        timers.removeAll()
        schedulerCondition.unlock()
        for (q, queue) in queues.enumerated() where !scenario.queues[q].isMain {
            queue.cancelAllOperations()
        }
        for op in ops where !(op is AsyncOperation) { op.cancel() }
        for op in ops {
            guard let a = op as? AsyncOperation else { continue }
            a.cancel()
            if a.state.load(ordering: .acquiring) != AsyncOperation.finished {
                let wasExecuting = a.state.load(ordering: .acquiring) == AsyncOperation.executing
                if wasExecuting {
                    a.state.store(AsyncOperation.finished, ordering: .releasing)
                    a.post(executing: true, finished: true)
                }
            }
        }
        for (q, queue) in queues.enumerated() where !scenario.queues[q].isMain {
            queue.isSuspended = false
        }
        // Gates of barriers that never ran: their dependents were cancelled
        // above and no longer wait, but open them so nothing holds on.
        for g in openGates where !g.isFinished && g.isReady { g.start() }
        _ = gates
        // The operations are NOT released here: Foundation keeps unretained
        // pointers to dependents in each dependency (__downDependencies),
        // so freeing a finished (e.g. cancelled) dependent while its
        // dependency can still finish is a use-after-free in Foundation.
        actionLock.unlock()
        releaseWhenFoundationIsDone(attempt: 0)
    }

    /// Drops the run's operations (which hold the core: a cycle) once it is
    /// safe: every operation finished, and every queue has processed its
    /// finishes (its operationCount is 0, so no dependency will walk its
    /// dependents again). A run with an operation that never finishes
    /// keeps them for good, since Foundation may still touch them.
    private func releaseWhenFoundationIsDone(attempt: Int) {
        lock.lock()
        let allFinished = records.allSatisfy { $0.phase == .finished }
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
