import RunEvents
import ScenarioKit

/// What the quiz explanations need from a run, gathered in one pass over
/// its events: per operation when it was added, became ready, started,
/// finished, was cancelled (and by what), and the board just before it
/// started (the queue's view when it was picked); per queue its resumes,
/// cap changes and freed slots.
struct QuizTimeline {
    typealias Stamp = RunHistory.Stamp

    struct Facts {
        var added: Stamp?
        /// The last `isReady` true before it started (or the last at all).
        var ready: Stamp?
        var started: Stamp?
        var finished: Stamp?
        var cancelled: Stamp?
        var cancelledWhenFinished = false
        /// The action event whose effect the cancel was.
        var cancelCause: (action: Action, origin: ActionOrigin)?
        /// The board just before its first `isExecuting` true.
        var boardBeforeStart: BoardState?
        /// Priority changes announced for it.
        var priorityChanges: [(Stamp, PriorityLevel)] = []
    }

    enum QueueMoment {
        case resumed
        case capChanged(Int)
        /// `op` stopped executing, which freed a slot.
        case slotFreed(OperationID)
    }

    let scenario: Scenario
    let events: [LifecycleEvent]
    private(set) var facts: [Facts]
    /// Per queue, in order.
    private(set) var queueMoments: [[(Stamp, QueueMoment)]]
    /// Operations that started, in the order they started.
    private(set) var startOrder: [OperationID] = []
    private(set) var outcome: RunOutcome?
    /// The last event's time.
    private(set) var endTime: Double = 0

    init(scenario: Scenario, events: [LifecycleEvent]) {
        self.scenario = scenario
        self.events = events
        facts = Array(repeating: Facts(), count: scenario.operations.count)
        queueMoments = Array(repeating: [], count: scenario.queues.count)
        var board = BoardState(scenario: scenario)
        var lastAction: (Action, ActionOrigin)?
        var executing = Set<OperationID>()
        for event in events {
            let stamp = Stamp(seq: event.seq, time: event.time)
            endTime = event.time
            switch event.kind {
            case .operation(let op, let key, let old, let new):
                guard scenario.contains(op) else { break }
                let q = scenario[operation: op].queue.index
                switch (key, new) {
                case (.isReady, .bool(true)):
                    if old == nil, facts[op.index].added == nil { facts[op.index].added = stamp }
                    if facts[op.index].started == nil { facts[op.index].ready = stamp }
                case (.isReady, .bool(false)):
                    if old == nil, facts[op.index].added == nil { facts[op.index].added = stamp }
                case (.isExecuting, .bool(true)):
                    if facts[op.index].started == nil {
                        facts[op.index].started = stamp
                        facts[op.index].boardBeforeStart = board
                        startOrder.append(op)
                    }
                    executing.insert(op)
                case (.isExecuting, .bool(false)), (.isFinished, .bool(true)):
                    if executing.remove(op) != nil {
                        queueMoments[q].append((stamp, .slotFreed(op)))
                    }
                    if key == .isFinished, facts[op.index].finished == nil {
                        facts[op.index].finished = stamp
                        facts[op.index].cancelledWhenFinished = facts[op.index].cancelled != nil
                    }
                case (.isCancelled, .bool(true)):
                    if facts[op.index].cancelled == nil {
                        facts[op.index].cancelled = stamp
                        if let last = lastAction, Self.action(last.0, cancels: op, in: scenario) {
                            facts[op.index].cancelCause = (last.0, last.1)
                        }
                    }
                case (.queuePriority, .priority(let p)):
                    facts[op.index].priorityChanges.append((stamp, p))
                default:
                    break
                }
            case .queue(let q, let key, let old, let new):
                guard scenario.contains(q) else { break }
                switch (key, new) {
                case (.isSuspended, .bool(false)) where old == .bool(true):
                    queueMoments[q.index].append((stamp, .resumed))
                case (.maxConcurrentOperationCount, .int(let n)) where old != nil:
                    queueMoments[q.index].append((stamp, .capChanged(n)))
                default:
                    break
                }
            case .action(let action, let origin, let ignored):
                lastAction = ignored == nil ? (action, origin) : nil
            case .end(let result):
                if outcome == nil { outcome = result }
            case .block, .completion, .stall, .caption:
                break
            }
            board.apply(event)
        }
    }

    subscript(_ op: OperationID) -> Facts {
        facts.indices.contains(op.index) ? facts[op.index] : Facts()
    }

    private static func action(_ action: Action, cancels op: OperationID, in scenario: Scenario) -> Bool {
        switch action {
        case .cancel(let id): id == op
        case .cancelAll(let q): scenario[operation: op].queue == q
        default: false
        }
    }

    /// How an operation ended.
    func finalState(of op: OperationID) -> FinalState {
        let f = self[op]
        if f.started == nil, f.cancelled != nil { return .skipped }
        guard f.finished != nil else { return .stuck }
        return f.cancelledWhenFinished ? .cancelled : .finished
    }

    /// `op`'s dependencies' path to `target`: `[op, x, …, target]`, the
    /// shortest through `after` clauses; nil when `op` does not depend on it.
    func dependencyPath(from op: OperationID, to target: OperationID) -> [OperationID]? {
        var previous: [OperationID: OperationID] = [:]
        var frontier = [op]
        var seen: Set<OperationID> = [op]
        while !frontier.isEmpty {
            var next: [OperationID] = []
            for current in frontier {
                for dep in scenario[operation: current].dependencies where scenario.contains(dep) {
                    guard seen.insert(dep).inserted else { continue }
                    previous[dep] = current
                    if dep == target {
                        var path = [dep]
                        var at = dep
                        while let p = previous[at] {
                            path.append(p)
                            at = p
                        }
                        return path.reversed()
                    }
                    next.append(dep)
                }
            }
            frontier = next
        }
        return nil
    }

    /// The last moment of `queue` before `seq` (a resume, a cap change, a
    /// freed slot), if any came after `after`.
    func lastQueueMoment(_ queue: QueueID, before seq: Int, after floor: Int) -> (Stamp, QueueMoment)? {
        queueMoments[queue.index].last { $0.0.seq < seq && $0.0.seq > floor }
    }

    /// The board right after the event numbered `seq` (a replay).
    func board(through seq: Int) -> BoardState {
        BoardState(scenario: scenario, replaying: events.filter { $0.seq <= seq })
    }

    /// The first resume of `queue` after `seq`.
    func nextResume(_ queue: QueueID, after seq: Int) -> Stamp? {
        queueMoments[queue.index].first {
            if case .resumed = $0.1 { return $0.0.seq > seq }
            return false
        }?.0
    }
}
