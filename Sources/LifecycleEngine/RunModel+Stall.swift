import RunEvents
import ScenarioKit

/// When nothing can progress, and why each unfinished operation is stuck:
/// pure functions of the model, linear in operations and dependencies.
extension RunModel {
    /// Nothing can progress: no simulated work, no timer, no timed action
    /// or completion block to come, nothing dispatched that a thread will
    /// start, and no queue with room for a ready operation. Never while the
    /// user has paused the run (the pause holds the work and the actions
    /// that would progress; a run opened paused has not had its chance
    /// yet). O(queues), from counters.
    var stallCondition: Bool {
        if log.isClosed || lifecycle != .running || unfinishedOps == 0 || clock.isPaused { return false }
        if workingCount > 0 || timers.asyncPending > 0 || timedActionsLeft > 0 { return false }
        if completionsRun < completionsOwed { return false }
        if mainThreadWaitProgresses || handStartProgresses || timers.leftoversPending > 0 { return false }
        for q in queues {
            // While the main thread waits it starts nothing of the main queue.
            if q.isMain && mainThread.wait != nil { continue }
            if q.dispatchedWaiting > 0 { return false }
            if q.readyWaiting > 0 && q.mayDispatch(holding: q.executing) { return false }
        }
        return true
    }

    /// `stallCondition` at scenario time `now`: also not before the work of
    /// every asynchronous operation that never posts `isFinished` is over
    /// (until then it has not yet failed to post it).
    func stallCondition(at now: Double) -> Bool {
        now >= timers.forgetsAt && stallCondition
    }

    /// The stall found at `seq`, if nothing happened since: the end of the
    /// run (`.endsRun`), or a `.stall` event with scenario time held until
    /// the next action (`.waitsForUser`). Returns whether it was declared.
    ///
    /// It is stamped with the moment the run became stuck, not the moment
    /// the debounce confirmed it: the last event, or the end of the work of
    /// an asynchronous operation that then never posted `isFinished`,
    /// whichever came later. So when it is declared depends on the run
    /// alone, never on pauses or on how busy the machine was; a waiting run
    /// holds its clock there.
    @discardableResult
    mutating func declareStall(ifStillAt seq: Int, real: UInt64) -> Bool {
        let now = stamp(real)
        guard log.seq == seq, seq != stallSeq, stallCondition(at: now) else { return false }
        let t = min(max(log.lastTime, timers.forgetsAt), now)
        switch stallPolicy {
        case .endsRun:
            end(.stalled(stuckReasons()), t)
        case .waitsForUser:
            emit(.stall(stuckReasons()), t)
            stallSeq = log.seq
            clock.hold(at: t, real)
        }
        return true
    }

    /// The sequence number to watch when nothing can progress at scenario
    /// time `now` (a stall declared only if it still holds, unchanged, a
    /// while later); nil otherwise, or when this stall was already announced.
    func stallProbe(at now: Double) -> Int? {
        stallCondition(at: now) && log.seq != stallSeq ? log.seq : nil
    }

    /// Why each unfinished operation can never finish, as far as the run
    /// can tell, and `.unknown` where it cannot: never a reason that does
    /// not hold. Linear: each operation's chain of waits is followed once.
    func stuckReasons() -> [OperationID: StuckReason] {
        // Per queue, every executing operation: what holds its slots (at a
        // stall none of them will finish, or there would be work or a timer).
        var holders = [[OperationID]](repeating: [], count: queues.count)
        for i in records.indices where records[i].phase == .executing && !facts.isByHand(i) {
            holders[Int(facts.queueOf[i])].append(OperationID(i))
        }
        // Reasons that need no other operation's.
        func direct(_ i: Int) -> StuckReason? {
            let r = records[i]
            let q = Int(facts.queueOf[i])
            switch r.phase {
            case .executing:
                return facts.neverFinishes[i] || r.stranded ? .neverPostedFinish : .unknown
            case .ready:
                if queues[q].isMain && mainThread.wait != nil { return .mainThreadBlocked }
                if queues[q].suspended && !queues[q].isMain { return .queueSuspended(QueueID(q)) }
                // A slot, not a dependency: name every operation that holds one.
                if let limit = queues[q].limit, queues[q].executing >= limit, !holders[q].isEmpty {
                    return .waitsForSlot(QueueID(q), cap: limit, holders: holders[q])
                }
                return .unknown
            case .notAdded:
                guard facts.isByHand(i) else { return .unknown }
                // Its start() is due, behind a wait of the main thread that
                // never returns; or none is left to come.
                return mainThread.handStartsOpen > 0 && mainThread.wait != nil ? .mainThreadBlocked : .notStartedByHand
            case .pending, .finished:
                return nil
            }
        }
        func firstUnfinished(_ i: Int) -> Int? {
            for d in facts.graph.dependencies(of: i) where records[Int(d)].phase != .finished { return Int(d) }
            for d in barriers.waits(of: Int32(i)) where records[Int(d)].phase != .finished { return Int(d) }
            return nil
        }
        // root[i]: the operation stuck for a direct reason that i's waits
        // end at (-1: not known yet).
        var root = [Int32](repeating: -1, count: records.count)
        var result: [OperationID: StuckReason] = [:]
        for i in records.indices where records[i].phase != .finished {
            if let reason = direct(i) {
                result[OperationID(i)] = reason
                root[i] = Int32(i)
                continue
            }
            guard let first = firstUnfinished(i) else {
                result[OperationID(i)] = .unknown
                continue
            }
            // Follow the chain to a known root, remembering the way.
            var chain = [i]
            var current = first
            var found = -1
            // Waits have no cycles (the validator rejects them; barriers
            // wait only for what came before): the walk ends.
            while found < 0 {
                if root[current] >= 0 {
                    found = Int(root[current])
                } else if direct(current) != nil {
                    found = current
                } else if let next = firstUnfinished(current), chain.count <= records.count {
                    chain.append(current)
                    current = next
                } else {
                    found = current
                }
            }
            for c in chain { root[c] = Int32(found) }
            root[current] = Int32(found)
            result[OperationID(i)] = .waitsFor(OperationID(first), root: OperationID(found))
        }
        return result
    }
}
