import FoundationRules
import RunEvents
import ScenarioKit

extension BoardState {
    /// The cards of one column, in the order they entered it, then file order.
    public func cards(in phase: Phase) -> [OperationCard] {
        operations(in: phase).map { cards[$0.index] }
    }

    /// How many cards each phase holds (every phase is a key).
    public var phaseCounts: [Phase: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Phase.allCases.map { ($0, 0) })
        for card in cards { counts[card.phase, default: 0] += 1 }
        return counts
    }

    /// The fraction (0…1) of `op`'s simulated work done at scenario time
    /// `now` (seconds), for a progress bar; nil unless it is executing.
    ///
    /// Measured from its start; for `blocks`, the durations of the blocks
    /// that returned plus the time in the current one (Foundation on Linux
    /// runs them one after another). Instant work reads as done. An
    /// operation that outlives its work (never-finishes, ignores-cancel
    /// overrun) stays at 1.
    public func progress(of op: OperationID, now: Double) -> Double? {
        guard scenario.contains(op) else { return nil }
        let card = cards[op.index]
        guard card.isExecuting, let started = card.startedAt else { return nil }
        let body = scenario[operation: op].body
        // The user's class: how long its work takes is its code's.
        if body.customClass != nil { return nil }
        let total = body.totalDuration.seconds
        guard total > 0 else { return 1 }
        var done = now - started
        if case .blocks(let durations) = body, card.blocksStarted > 0 {
            let returned = durations.prefix(card.blocksReturned).reduce(0) { $0 + $1.seconds }
            done = returned + (card.currentBlockStartedAt.map { now - $0 } ?? 0)
        }
        return min(1, max(0, done / total))
    }

    /// A priority change of `op` would be lost now: it waits in its queue,
    /// filed under another bucket than the one Foundation's
    /// `changePriority` looks in (its explicit priority or, without one, its
    /// QoS's: added to a serial queue without a priority, its QoS names
    /// another bucket than normal). The bucket Foundation would look in.
    public func priorityChangeLooksIn(_ op: OperationID) -> PriorityLevel? {
        guard scenario.contains(op) else { return nil }
        let card = cards[op.index]
        guard card.addedSeq != nil, !card.isBarrier, card.dispatchedAt == nil, card.startedAt == nil,
            !card.isFinished
        else { return nil }
        let looksIn = PriorityRule.looksIn(explicit: card.queuePriority, qos: scenario[operation: op].qos)
        return looksIn == card.effectivePriority ? nil : looksIn
    }

    /// What `op` waits for before it can start: its unfinished
    /// dependencies, plus the barrier ordering of its queue (a barrier
    /// waits for what was added before it; what is added after waits for
    /// the barrier). File order.
    public func unfinishedPrerequisites(of op: OperationID) -> [OperationID] {
        guard scenario.contains(op) else { return [] }
        let card = cards[op.index]
        var waits = scenario[operation: op].dependencies.filter {
            scenario.contains($0) && !cards[$0.index].isFinished
        }
        if let added = card.addedSeq {
            // A barrier waits for what its queue held; anything else for
            // the barriers of its queue (most queues have none: nothing to
            // look at, where every card on the screen asks).
            let candidates = card.isBarrier ? membersOfQueue[card.queue.index] : barriersOfQueue[card.queue.index]
            for other in candidates where other != op && !cards[other.index].isFinished {
                guard let otherAdded = cards[other.index].addedSeq, otherAdded < added else { continue }
                if !waits.contains(other) { waits.append(other) }
            }
        }
        return waits.sorted()
    }
}
