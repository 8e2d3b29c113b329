import RunEvents
import ScenarioKit

/// The facts of a run, gathered in one pass over its stream, for everyone
/// who asks about the run as a whole: the expectations, the quiz, the
/// history views. Per operation when it was added, became ready, started,
/// finished, was cancelled (and by what); per queue its peak, resumes, cap
/// changes and freed slots; and the board at any position of the stream,
/// replayed from the nearest checkpoint of a `BoardHistory` (never a board per
/// operation).
///
/// "Executing" means from `isExecuting` true until `isExecuting` false or
/// `isFinished` true, whichever comes first. Barriers count as operations
/// of their queue (their `isExecuting` is their block running).
public struct RunTimeline: Sendable {
    public typealias Stamp = RunFacts.Stamp
    public typealias Cause = RunFacts.Cause
    public typealias OperationFacts = RunFacts.OperationFacts

    public enum QueueMoment: Sendable, Hashable {
        case resumed
        case capChanged(Int)
        /// `op` stopped executing, which freed a slot.
        case slotFreed(OperationID)
    }

    public let scenario: Scenario
    /// The run's events, as given.
    public let events: [LifecycleEvent]
    /// Every operation's facts, the peaks and the outcome.
    public private(set) var facts: RunFacts
    /// Per queue, in order.
    public private(set) var queueMoments: [[(stamp: Stamp, moment: QueueMoment)]]
    /// Per queue, in order: the actions on it Foundation was asked for and
    /// carried out (cancel-all, suspend, resume, a cap), with what asked.
    public private(set) var queueActions: [[(stamp: Stamp, cause: Cause)]]
    /// Per queue, in order: its cap changes alone (of `queueMoments`), so
    /// that the cap at a moment is found by halves.
    public private(set) var capChanges: [[(stamp: Stamp, cap: Int)]]
    /// Operations that started, in the order they started.
    public var startOrder: [OperationID] { facts.startOrder }
    /// The outcome of the first `.end`; nil when the run never ended.
    public var outcome: RunOutcome? {
        get { facts.outcome }
        set { facts.outcome = newValue }
    }
    /// The last event's time.
    public var endTime: Double { facts.endTime }
    /// The boards of every moment, from its checkpoints; nil when the
    /// timeline was made without them (`keepsBoards`).
    private var history: BoardHistory?
    /// Per operation, what the barrier rule of its queue makes it wait for
    /// directly (`Scenario.barrierWaits`): the edges the graph draws.
    let barrierWaits: [[OperationID]]
    /// Every operation's moments, for a timeline made from a reader's
    /// lanes (`init(scenario:events:lanes:through:)`), with the last event
    /// they stand for (nil: all they recorded); nil: `facts` has them.
    private let laneMoments: (lanes: TimelineLanes, through: Int?)?

    /// `keepsBoards` false leaves out the boards' checkpoints (the board
    /// reduced at every event), for an answer that asks only the facts
    /// (`why`, `H`): a board asked for is then reduced from the start.
    public init(scenario: Scenario, events: [LifecycleEvent], keepsBoards: Bool = true) {
        self.scenario = scenario
        self.events = events
        facts = RunFacts(scenario: scenario)
        queueMoments = Array(repeating: [], count: scenario.queues.count)
        queueActions = Array(repeating: [], count: scenario.queues.count)
        capChanges = Array(repeating: [], count: scenario.queues.count)
        var history = keepsBoards ? BoardHistory(scenario: scenario) : nil
        laneMoments = nil
        barrierWaits = scenario.barrierWaits
        var board = BoardState(scenario: scenario)
        // Started by hand, an operation holds no slot of any queue.
        let byHand = scenario.startedByHand
        for event in events {
            let stamp = Stamp(seq: event.seq, time: event.time)
            switch event.kind {
            case .operation(let op, _, _, _) where scenario.contains(op):
                let wasExecuting = facts.isExecuting(op)
                facts.record(event)
                if wasExecuting, !facts.isExecuting(op), byHand.isEmpty || !byHand.contains(op) {
                    queueMoments[scenario[operation: op].queue.index].append((stamp, .slotFreed(op)))
                }
            default:
                facts.record(event)
                Self.noteQueue(event, scenario, &queueMoments, &queueActions, &capChanges)
            }
            if history != nil {
                board.apply(event)
                history!.append(event, boardAfter: board)
            }
        }
        self.history = history
    }

    /// A timeline for the critical path alone (`criticalPath(to:)`), made
    /// from the moments a reader of the run already recorded (the
    /// interface's `TimelineLanes`, read as they stood after the event
    /// numbered `through`, or all they recorded) instead of a pass of
    /// `RunFacts` over every event: the queues' freed slots from each
    /// operation's stop, and one look at each of `events` for a resume, a
    /// cap or an action. `events` may leave out those about one operation
    /// (its key changes, its dispatch, blocks, completions:
    /// `BoardHistory.Events.apartFromOperations`), since the moments say
    /// them; `events` then holds only the rest. No boards, no outcome, no
    /// peaks; the lanes are shared, not copied.
    public init(scenario: Scenario, events: [LifecycleEvent], lanes: TimelineLanes, through seq: Int? = nil) {
        self.scenario = scenario
        self.events = events
        // The facts of no operation: the moments say them (`subscript`).
        facts = RunFacts(scenario: scenario, tracking: .only([]))
        laneMoments = (lanes, seq)
        var queueMoments = [[(stamp: Stamp, moment: QueueMoment)]](repeating: [], count: scenario.queues.count)
        var queueActions = [[(stamp: Stamp, cause: Cause)]](repeating: [], count: scenario.queues.count)
        var capChanges = [[(stamp: Stamp, cap: Int)]](repeating: [], count: scenario.queues.count)
        history = nil
        barrierWaits = scenario.barrierWaits
        let byHand = scenario.startedByHand
        for event in events { Self.noteQueue(event, scenario, &queueMoments, &queueActions, &capChanges) }
        let count = min(scenario.operations.count, lanes.lanes.count)
        for (i, spec) in scenario.operations.prefix(count).enumerated() {
            guard let stopped = lanes.lanes[i].moments.stopped, stopped.seq <= seq ?? Int.max,
                byHand.isEmpty || !byHand.contains(OperationID(i))
            else { continue }
            queueMoments[spec.queue.index].append((stopped, .slotFreed(OperationID(i))))
        }
        for q in queueMoments.indices { queueMoments[q].sort { $0.stamp.seq < $1.stamp.seq } }
        self.queueMoments = queueMoments
        self.queueActions = queueActions
        self.capChanges = capChanges
    }

    /// What a queue's event or an action adds to the queues' records: a
    /// resume, a cap change, an action that names the queue.
    private static func noteQueue(
        _ event: LifecycleEvent, _ scenario: Scenario,
        _ moments: inout [[(stamp: Stamp, moment: QueueMoment)]],
        _ actions: inout [[(stamp: Stamp, cause: Cause)]],
        _ caps: inout [[(stamp: Stamp, cap: Int)]]
    ) {
        let stamp = Stamp(seq: event.seq, time: event.time)
        switch event.kind {
        case .queue(let q, let key, let old, let new) where scenario.contains(q):
            switch (key, new) {
            case (.isSuspended, .bool(false)) where old == .bool(true):
                moments[q.index].append((stamp, .resumed))
            case (.maxConcurrentOperationCount, .int(let n)) where old != nil:
                moments[q.index].append((stamp, .capChanged(n)))
                caps[q.index].append((stamp, n))
            default:
                break
            }
        case .action(let action, let origin, ignored: nil):
            if let q = action.queue, scenario.contains(q) {
                actions[q.index].append((stamp, Cause(action: action, origin: origin)))
            }
        default:
            break
        }
    }

    public subscript(_ op: OperationID) -> OperationFacts {
        guard let (lanes, through) = laneMoments else { return facts[op] }
        var facts = OperationFacts()
        guard lanes.lanes.indices.contains(op.index) else { return facts }
        let moments = lanes.lanes[op.index].moments
        facts.moments = through.map { moments.cut(after: $0) } ?? moments
        return facts
    }

    public func peak(of queue: QueueID) -> Int { facts.peak(of: queue) }

    // MARK: - Boards

    /// The board after the first `count` events (0: before any).
    public func board(afterFirst count: Int) -> BoardState {
        if let history { return history.board(after: count) }
        var board = BoardState(scenario: scenario)
        for event in events.prefix(count) { board.apply(event) }
        return board
    }

    /// The board right after the event numbered `seq`.
    public func board(through seq: Int) -> BoardState {
        board(afterFirst: count(whileBefore: { $0.seq <= seq }))
    }

    /// The board at scenario time `t` (seconds): after every event stamped
    /// at or before `t`.
    public func board(atTime t: Double) -> BoardState {
        board(afterFirst: count(whileBefore: { $0.time <= t }))
    }

    /// How many events, from the first, satisfy `isBefore` (which holds for
    /// a prefix of the stream: a bound on its sequence numbers or times).
    public func count(whileBefore isBefore: (LifecycleEvent) -> Bool) -> Int {
        var low = 0
        var high = events.count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(events[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The board just before `op` first posted `isExecuting` (the queue's
    /// view when it picked it); nil when it never started.
    public func boardBeforeStart(of op: OperationID) -> BoardState? {
        self[op].startIndex.map { board(afterFirst: $0) }
    }

    // MARK: - Questions

    /// How an operation ended.
    public func finalState(of op: OperationID) -> FinalState { facts.finalState(of: op) }

    /// The first moment all of `ids` were executing at once, or else the
    /// most of them that ever were (with `moment` nil).
    public func overlap(of ids: Set<OperationID>) -> (moment: Stamp?, most: Int) {
        var executing = Set<OperationID>()
        var most = 0
        for event in events {
            guard case .operation(let op, let key, _, .bool(let value)) = event.kind, ids.contains(op) else { continue }
            if key == .isExecuting && value {
                executing.insert(op)
            } else if key == .isExecuting || (key == .isFinished && value) {
                executing.remove(op)
            }
            most = max(most, executing.count)
            if executing.count == ids.count { return (Stamp(seq: event.seq, time: event.time), most) }
        }
        return (nil, most)
    }

    /// `op`'s dependencies' path to `target`: `[op, x, …, target]`, the
    /// shortest through `after` clauses; nil when `op` does not depend on it.
    public func dependencyPath(from op: OperationID, to target: OperationID) -> [OperationID]? {
        scenario.dependencyPath(from: op, to: target)
    }

    /// The last moment of `queue` before `seq` (a resume, a cap change, a
    /// freed slot), if any came after `floor`.
    public func lastQueueMoment(_ queue: QueueID, before seq: Int, after floor: Int) -> (
        stamp: Stamp, moment: QueueMoment
    )? {
        queueMoments[queue.index].last { $0.stamp.seq < seq && $0.stamp.seq > floor }
    }

    /// The cap `queue` had set last at or before the event numbered `seq`
    /// (nil: none was set during the run).
    public func cap(of queue: QueueID, at seq: Int) -> Int? {
        let changes = capChanges[queue.index]
        var (low, high) = (0, changes.count)
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].stamp.seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? changes[low - 1].cap : nil
    }

    /// The first resume of `queue` after `seq`.
    public func nextResume(_ queue: QueueID, after seq: Int) -> Stamp? {
        queueMoments[queue.index].first {
            if case .resumed = $0.moment { return $0.stamp.seq > seq }
            return false
        }?.stamp
    }
}

/// How an operation ends, as a `final-state` quiz answer names it.
public enum FinalState: String, Sendable, Hashable, CaseIterable {
    /// Finished, not cancelled.
    case finished
    /// Started, then cancelled: it finished with `isCancelled` true.
    case cancelled
    /// Cancelled before it started: its work never ran.
    case skipped
    /// Never finished.
    case stuck
}

extension OperationMoments {
    /// These moments as they stood after the event numbered `seq`: each
    /// one stamped later left out.
    public func cut(after seq: Int) -> OperationMoments {
        var cut = self
        func keep(_ stamp: Stamp?) -> Stamp? { stamp.flatMap { $0.seq <= seq ? $0 : nil } }
        cut.added = keep(added)
        cut.ready = keep(ready)
        cut.dispatched = keep(dispatched)
        cut.started = keep(started)
        if cut.started == nil { cut.thread = nil }
        cut.stopped = keep(stopped)
        cut.finished = keep(finished)
        cut.cancelled = keep(cancelled)
        return cut
    }
}
