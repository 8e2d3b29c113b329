import RunEvents
import ScenarioKit

extension BoardState {
    /// The ready operations of queue `q` that nothing holds back, which
    /// `whyNotRunning` says are dispatched and wait for a worker thread:
    /// the queue not suspended, and among the first `cap − executing` of
    /// its ready operations in the order it fills slots (barriers, then
    /// priority, then the order added; every one with the system's cap),
    /// those no prerequisite holds.
    /// `skipping` leaves out operations the caller knows already.
    public func dispatchedWaiting(
        on q: QueueID, skipping known: (OperationID) -> Bool = { _ in false }
    ) -> [OperationID] {
        guard scenario.queues.indices.contains(q.index) else { return [] }
        let row = queues[q.index]
        guard !row.holdsBack else { return [] }
        let free = row.limit.map { $0 - row.executing }
        if let free, free <= 0 { return [] }
        var ready = cards.filter { $0.queue == q && $0.phase == .ready }
        if let free, free < ready.count {
            ready.sort { $0.isAhead(of: $1) }
            ready.removeLast(ready.count - free)
        }
        return ready.filter { !known($0.id) && heldByPrerequisites($0) == nil }.map(\.id)
    }
}

extension TimelineLanes {
    /// Runs of at most this many operations get the dispatched spans: the
    /// board is asked after each notification that can change them.
    public static let dispatchedSpansUpTo = 2_000

    /// After `event` (applied to `board`), marks the operations of its
    /// queue that now wait for a worker thread (`markDispatched`).
    public mutating func markDispatched(after event: LifecycleEvent, on board: BoardState) {
        guard scenario.operations.count <= Self.dispatchedSpansUpTo else { return }
        let queue: QueueID
        switch event.kind {
        case .operation(let op, _, _, _) where scenario.contains(op): queue = scenario[operation: op].queue
        case .queue(let q, _, _, _): queue = q
        default: return
        }
        let marked = lanes
        for op in board.dispatchedWaiting(on: queue, skipping: { marked[$0.index].dispatched != nil }) {
            markDispatched(op, at: event.time)
        }
    }
}
