import RunEvents
import ScenarioKit

/// What each fact of an operation's life implies: its announcements, its
/// queue's counts, its dependents' readiness (derived here, inside the
/// dependency's finish, so that it precedes the engine's decision to start
/// them), and whether the run completed.
extension RunModel {
    /// Operations `members`, all of one queue and none a barrier, added in
    /// one `addOperations` call: each announced as `add` does, and the
    /// queue's `operationCount` once, by all of them. Foundation files them
    /// all before it schedules: what it dispatches is read after the call
    /// (the scan), the highest priority first, not the first added.
    mutating func addBatch(_ members: [Int], real: UInt64) -> DispatchScan {
        var scan = DispatchScan()
        guard let first = members.first else { return scan }
        for i in members { scan.merge(add(i, real: real, announcesCount: false)) }
        let q = Int(facts.queueOf[first])
        let n = queues[q].operationCount
        queues[q].operationCount = n + members.count
        emit(.queue(QueueID(q), .operationCount, old: .int(n), new: .int(n + members.count)), stamp(real))
        return scan
    }

    /// Operation `i` is added to its queue: its readiness is derived
    /// (including implicit waits for barriers of its queue) and announced
    /// as the initial `isReady`, then the queue's `operationCount` (unless
    /// `announcesCount` is false: a batch announces it once, for all). The
    /// scan to make once Foundation has it.
    @discardableResult
    mutating func add(_ i: Int, real: UInt64, announcesCount: Bool = true) -> DispatchScan {
        let t = stamp(real)
        let q = Int(facts.queueOf[i])
        if facts.kinds[i] == .barrier {
            let preds = queues[q].members.filter { records[Int($0)].phase != .finished }
            barriers.barrier(Int32(i), waitsFor: preds)
            queues[q].members = preds
            records[i].unfinishedDeps = records[i].cancelled ? 0 : Int32(preds.count)
            queues[q].pendingBarriers.removeAll { records[Int($0)].phase.rawValue >= Phase.executing.rawValue }
            queues[q].pendingBarriers.append(Int32(i))
        } else if queues[q].hasBarriers, !records[i].cancelled {
            for b in queues[q].pendingBarriers where records[Int(b)].phase.rawValue < Phase.executing.rawValue {
                records[i].unfinishedDeps += 1
                barriers.operation(Int32(i), waitsFor: b)
            }
        }
        if queues[q].hasBarriers { queues[q].members.append(Int32(i)) }
        let ready = records[i].unfinishedDeps == 0
        records[i].phase = ready ? .ready : .pending
        if ready { queues[q].readyWaiting += 1 }
        file(i, in: facts.kinds[i] == .barrier ? 0 : bucketAtAdd(i))
        emitOp(i, .isReady, nil, ready, t)
        if facts.kinds[i] != .barrier && announcesCount {
            let n = queues[q].operationCount
            queues[q].operationCount = n + 1
            emit(.queue(QueueID(q), .operationCount, old: .int(n), new: .int(n + 1)), t)
        }
        // Adding lets the queue dispatch only this operation, and only into
        // a free slot: the slots the run knows to be taken are never more
        // than the engine's.
        var scan = DispatchScan()
        if ready && facts.kinds[i] != .barrier && mayDispatch(on: q) { scan.add(ready: i, on: q) }
        return scan
    }

    /// Queue `q` may have a slot free: not suspended, and what executes and
    /// what was seen dispatched leave room under its cap.
    func mayDispatch(on q: Int) -> Bool {
        queues[q].mayDispatch(holding: queues[q].executing + queues[q].dispatchedWaiting)
    }

    /// Operation `i` begins executing on `thread` (the shell's tag for
    /// it). A cancel held back by the start window is applied now, as a
    /// cancel of a running operation: true when the shell must pass it on
    /// to Foundation. Returns the scenario time of the start.
    @discardableResult
    mutating func begin(_ i: Int, thread: Int16, real: UInt64) -> (t: Double, applyHeldCancel: Bool) {
        let t = stamp(real)
        let q = Int(facts.queueOf[i])
        if records[i].phase == .pending {
            // The engine started it although the run still counted a
            // barrier it does not really wait for: it is ready in the
            // engine's eyes, so say so first.
            records[i].unfinishedDeps = 0
            records[i].phase = .ready
            queues[q].readyWaiting += 1
            emitOp(i, .isReady, false, true, t)
        }
        startCalled(i, t)
        if records[i].phase == .ready { queues[q].dispatchedWaiting -= 1 }
        records[i].phase = .executing
        records[i].thread = thread
        // Started by hand, it takes no slot of the queue the file put it on.
        if !facts.isByHand(i) { queues[q].executing += 1 }
        if facts.kinds[i] == .async {
            timers.asyncBegan(Int32(i), at: t, duration: facts.durations[i], postsFinish: !facts.neverFinishes[i])
        } else {
            workingCount += 1
        }
        emit(
            .operation(OperationID(i), .isExecuting, old: .bool(false), new: .bool(true)), t,
            thread: ThreadTag(Int(thread)))
        guard records[i].heldCancel else { return (t, false) }
        records[i].heldCancel = false
        records[i].cancelled = true
        emitOp(i, .isCancelled, false, true, t)
        return (t, true)
    }

    /// Operation `i` finishes: announced, its dependents' readiness
    /// released; then the run may be complete. The scan to make once
    /// Foundation has processed the finish.
    @discardableResult
    mutating func finish(_ i: Int, real: UInt64) -> DispatchScan {
        let t = stamp(real)
        let q = Int(facts.queueOf[i])
        let phase = records[i].phase
        var scan = DispatchScan()
        if phase == .finished { return scan }
        let inAQueue = !facts.isByHand(i)
        if phase == .executing {
            emitOp(i, .isExecuting, true, false, t)
            if inAQueue { queues[q].executing -= 1 }
            if facts.kinds[i] == .async {
                if !facts.neverFinishes[i] { timers.asyncEnded() }
            } else {
                workingCount -= 1
            }
        } else if phase == .ready {
            if records[i].dispatched {
                queues[q].dispatchedWaiting -= 1
            } else {
                queues[q].readyWaiting -= 1
            }
        }
        records[i].phase = .finished
        records[i].awaitsRealFinish = false
        emitOp(i, .isFinished, false, true, t)
        if facts.kinds[i] != .barrier && phase != .notAdded && inAQueue {
            let n = queues[q].operationCount
            queues[q].operationCount = n - 1
            emit(.queue(QueueID(q), .operationCount, old: .int(n), new: .int(n - 1)), t)
        }
        unfinishedOps -= 1
        if facts.hasCompletion[i] { completionsOwed += 1 }
        // Declared dependents first, then those a barrier added: the order
        // in which they came to wait for it.
        for d32 in facts.graph.dependents(of: i) { release(Int(d32), t, &scan) }
        if let added = barriers.finished(Int32(i)) {
            for d32 in added { release(Int(d32), t, &scan) }
        }
        // The slot it frees can go only to a ready operation not yet seen
        // dispatched (or one it made ready, listed already); those of a
        // chunk of adds still being handed over are looked at after it.
        if inAQueue && queues[q].readyWaiting > 0 && !dispatch.isEmpty(queue: q) { scan.add(queue: q) }
        checkCompleted(t)
        return scan
    }

    /// One dependency of `d` finished: when it was the last, `d` becomes
    /// ready (if it was added), announced inside that finish.
    private mutating func release(_ d: Int, _ t: Double, _ scan: inout DispatchScan) {
        guard records[d].unfinishedDeps > 0 else { return }
        records[d].unfinishedDeps -= 1
        if records[d].unfinishedDeps == 0 && records[d].phase == .pending {
            becomeReady(d)
            scan.add(ready: d, on: Int(facts.queueOf[d]))
            emitOp(d, .isReady, false, true, t)
        }
    }

    /// Everything operation `i` waits for: its declared dependencies, then
    /// the barriers of its queue it waits behind (for a barrier: what came
    /// before it in its queue).
    func waitsOn(_ i: Int) -> [Int32] {
        Array(facts.graph.dependencies(of: i)) + barriers.waits(of: Int32(i))
    }

    /// A pending operation `i` becomes ready: counted, and in its queue's
    /// dispatch order.
    private mutating func becomeReady(_ i: Int) {
        records[i].phase = .ready
        queues[Int(facts.queueOf[i])].readyWaiting += 1
        enterDispatchOrder(i)
    }

    /// Operation `i`'s `start()` found it cancelled: it finishes without
    /// running (dispatched, since its queue called `start()`; unless the
    /// main thread called it by hand).
    @discardableResult
    mutating func finishAtStart(_ i: Int, real: UInt64) -> DispatchScan {
        startCalled(i, stamp(real))
        return finish(i, real: real)
    }

    /// `never-finishes if-cancelled`: its `start()` found it cancelled and
    /// returned without posting anything. Its queue counts it as running
    /// from now on, and nothing will finish it.
    mutating func strand(_ i: Int, real: UInt64) {
        let t = stamp(real)
        let q = Int(facts.queueOf[i])
        startCalled(i, t)
        if records[i].phase == .ready { queues[q].dispatchedWaiting -= 1 }
        records[i].phase = .executing
        records[i].stranded = true
        if !facts.isByHand(i) { queues[q].executing += 1 }
        emit(.stranded(OperationID(i)), t)
    }

    /// A cancel of an operation that has not started: `isCancelled`, then
    /// `isReady` if it was not ready (Foundation's `cancel()` zeroes its
    /// unfinished dependencies).
    @discardableResult
    mutating func cancelBeforeStart(_ i: Int, real: UInt64) -> DispatchScan {
        let t = stamp(real)
        records[i].cancelled = true
        emitOp(i, .isCancelled, false, true, t)
        records[i].unfinishedDeps = 0
        var scan = DispatchScan()
        if records[i].phase == .pending {
            becomeReady(i)
            emitOp(i, .isReady, false, true, t)
        }
        if records[i].phase == .ready { scan.add(ready: i, on: Int(facts.queueOf[i])) }
        return scan
    }

    /// A cancel of an executing operation: the flag only.
    mutating func cancelWhileExecuting(_ i: Int, real: UInt64) {
        records[i].cancelled = true
        emitOp(i, .isCancelled, false, true, stamp(real))
    }

    /// One execution block of a `blocks` operation started or returned.
    mutating func block(_ i: Int, _ n: Int, _ phase: BlockPhase, thread: Int16, real: UInt64) -> Double {
        let t = stamp(real)
        emit(.block(OperationID(i), index: n, phase: phase, thread: ThreadTag(Int(thread))), t)
        return t
    }

    /// Operation `i`'s completion block ran on `thread` (its actions follow).
    mutating func completionRan(_ i: Int, thread: Int16, real: UInt64) {
        emit(.completion(OperationID(i), thread: ThreadTag(Int(thread))), stamp(real))
    }

    /// A completion block returned (after its actions): the run may be complete.
    mutating func completionReturned(real: UInt64) {
        completionsRun += 1
        checkCompleted(stamp(real))
    }

    /// A timed action ran: the run may be complete.
    mutating func timedActionDone(real: UInt64) {
        timedActionsLeft -= 1
        checkCompleted(stamp(real))
    }
}
