import ScenarioKit

extension BoardState {
    /// Why `op` is not executing now; empty when it is executing or done,
    /// and when nothing the stream said explains it.
    ///
    /// Dispatched (its `dispatched` event came): that is the only reason,
    /// observed; neither the queue's suspension nor its cap takes a
    /// dispatch back. While a barrier of its queue runs, it waits behind
    /// that barrier rather than for a thread. Otherwise, an operation waiting for dependencies gets
    /// only that reason (the queue does not consider it yet), unless it was
    /// cancelled: a cancelled operation is ready at once and waits for its
    /// queue only. For a ready operation the queue decides: its free slots
    /// (the cap less what executes and what waits for a thread, both
    /// counted against the cap) go to its ready operations in bucket order,
    /// then the order they entered their bucket. It is behind others when
    /// at least that many of them come before it. A ready operation with a
    /// free slot and no dispatch seen gets no reason: the queue dispatches
    /// it at once, and its dispatch comes next in the stream.
    public func whyNotRunning(_ op: OperationID) -> [NotRunningReason] {
        guard scenario.contains(op) else { return [] }
        let card = cards[op.index]
        switch card.phase {
        case .executing, .finished, .cancelled: return []
        case .notAdded where card.startedByHand:
            // No queue considers it: what it waits for, and the call that runs it.
            let waits = unfinishedPrerequisites(of: op)
            return (waits.isEmpty || card.isCancelled ? [] : [.waitingFor(waits)]) + [.startsByHand]
        case .notAdded: return [.notAdded]
        case .pending, .ready: break
        }
        if card.isWaitingForThread {
            let barrier = cards.first { $0.isBarrier && $0.queue == card.queue && $0.isExecuting && $0.id != op }
            return [barrier.map { .dispatchedBehindBarrier($0.id) } ?? .dispatchedWaitingForThread]
        }
        if let held = heldByPrerequisites(card) { return [.waitingFor(held)] }

        let row = queues[card.queue.index]
        var reasons: [NotRunningReason] = []
        if row.holdsBack { reasons.append(.queueSuspended(row.id)) }
        let free = row.freeSlots
        if let free, free <= 0 {
            reasons.append(.queueAtCap(executing: row.executing, dispatched: row.waitingForThread, cap: row.cap))
        }
        let ahead = readyAhead(of: card)
        if let free, ahead > 0, ahead >= free {
            reasons.append(
                .behindHigherPriority(
                    count: ahead, bucket: card.effectivePriority, fromQoS: card.priorityFromQoS))
        }
        return reasons
    }

    /// What holds `card` back before its queue considers it: unfinished
    /// dependencies (or barrier order), or for a cancelled one only a
    /// barrier's dispatch order. nil: nothing does.
    func heldByPrerequisites(_ card: OperationCard) -> [OperationID]? {
        let waits = unfinishedPrerequisites(of: card.id)
        if !waits.isEmpty && !card.isCancelled { return waits }
        return card.isCancelled ? heldBehindDispatchBarrier(card, waits) : nil
    }

    /// A cancelled operation is ready at once, whatever it waited for; what
    /// still holds it back is a barrier's dispatch order. A cancelled
    /// barrier is dispatched as a barrier behind the work of its queue that
    /// is running (and finishes when that returns); an operation added
    /// after an unfinished barrier runs only after it. nil: nothing does.
    private func heldBehindDispatchBarrier(_ card: OperationCard, _ prerequisites: [OperationID]) -> [OperationID]? {
        let held =
            card.isBarrier
            ? prerequisites.filter { cards[$0.index].isExecuting }
            : prerequisites.filter { cards[$0.index].isBarrier }
        return held.isEmpty ? nil : held
    }
}
