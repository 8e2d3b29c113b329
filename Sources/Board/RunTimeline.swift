import RunEvents
import ScenarioKit

/// The facts of a run, gathered in one pass over its stream, for everyone
/// who asks about the run as a whole: the expectations, the quiz, the
/// history views. Per operation when it was added, became ready, started,
/// finished, was cancelled (and by what); per queue its peak, resumes, cap
/// changes and freed slots; and the board at any position of the stream,
/// replayed from the nearest of a few checkpoints (never a board per
/// operation).
///
/// "Executing" means from `isExecuting` true until `isExecuting` false or
/// `isFinished` true, whichever comes first. Barriers count as operations
/// of their queue (their `isExecuting` is their block running).
public struct RunTimeline: Sendable {
    /// When something was announced: the event's sequence number (which
    /// orders events) and its scenario time in seconds (which is shown).
    public struct Stamp: Sendable, Hashable {
        public var seq: Int
        public var time: Double
    }

    /// The action whose effect an event was.
    public struct Cause: Sendable, Hashable {
        public var action: Action
        public var origin: ActionOrigin

        public init(action: Action, origin: ActionOrigin) {
            self.action = action
            self.origin = origin
        }
    }

    public struct OperationFacts: Sendable {
        public var added: Stamp?
        /// The last `isReady` true before it started (or the last at all).
        public var ready: Stamp?
        /// The first `isExecuting` true.
        public var started: Stamp?
        /// The first `isFinished` true.
        public var finished: Stamp?
        /// The first `isCancelled` true.
        public var cancelled: Stamp?
        /// `isCancelled` was true when `isFinished` turned true.
        public var cancelledWhenFinished = false
        /// The action event whose effect the cancel was.
        public var cancelCause: Cause?
        /// Priority changes announced for it, in order.
        public var priorityChanges: [(stamp: Stamp, level: PriorityLevel)] = []
        /// The thread it ran on.
        public var thread: ThreadTag?
        /// Index in `events` of its first `isExecuting` true.
        var startIndex: Int?
        var isExecuting = false

        /// Cancelled before it started, and never started since.
        public var wasSkipped: Bool { cancelled != nil && started == nil }
    }

    public enum QueueMoment: Sendable, Hashable {
        case resumed
        case capChanged(Int)
        /// `op` stopped executing, which freed a slot.
        case slotFreed(OperationID)
    }

    public let scenario: Scenario
    public let events: [LifecycleEvent]
    public private(set) var facts: [OperationFacts]
    /// Per queue, in order.
    public private(set) var queueMoments: [[(stamp: Stamp, moment: QueueMoment)]]
    /// Per queue, the most of its operations executing at once.
    public private(set) var peaks: [Int]
    /// Operations that started, in the order they started.
    public private(set) var startOrder: [OperationID] = []
    /// The outcome of the first `.end`; nil when the run never ended.
    public var outcome: RunOutcome?
    /// The last event's time.
    public private(set) var endTime: Double = 0
    /// `checkpoints[k]` is the board after the first `k * interval` events.
    private var checkpoints: [BoardState] = []
    private var interval = 1

    /// The most cards kept in checkpoints in all: a run of many operations
    /// keeps fewer boards, and replays a longer stretch to reach one.
    static let checkpointCards = 1_000_000

    public init(scenario: Scenario, events: [LifecycleEvent]) {
        self.scenario = scenario
        self.events = events
        facts = Array(repeating: OperationFacts(), count: scenario.operations.count)
        queueMoments = Array(repeating: [], count: scenario.queues.count)
        peaks = Array(repeating: 0, count: scenario.queues.count)
        let boards = max(1, Self.checkpointCards / max(1, scenario.operations.count))
        interval = max(256, (events.count + boards - 1) / boards)
        var executing = Array(repeating: 0, count: scenario.queues.count)
        var lastAction: Cause?
        var board = BoardState(scenario: scenario)
        for (index, event) in events.enumerated() {
            if index % interval == 0 { checkpoints.append(board) }
            let stamp = Stamp(seq: event.seq, time: event.time)
            endTime = event.time
            switch event.kind {
            case .operation(let op, let key, let old, let new):
                guard scenario.contains(op) else { break }
                let q = scenario[operation: op].queue.index
                let wasExecuting = facts[op.index].isExecuting
                record(op, key, old: old, new: new, stamp, index: index, thread: event.thread, cause: lastAction)
                if facts[op.index].isExecuting != wasExecuting {
                    if facts[op.index].isExecuting {
                        executing[q] += 1
                        peaks[q] = max(peaks[q], executing[q])
                    } else {
                        executing[q] -= 1
                        queueMoments[q].append((stamp, .slotFreed(op)))
                    }
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
                lastAction = ignored == nil ? Cause(action: action, origin: origin) : nil
            case .end(let result):
                if outcome == nil { outcome = result }
            case .block, .completion, .stall, .caption:
                break
            }
            board.apply(event)
        }
        if events.count % interval == 0 { checkpoints.append(board) }
    }

    private mutating func record(
        _ op: OperationID, _ key: OperationKey, old: KeyValue?, new: KeyValue, _ stamp: Stamp, index: Int,
        thread: ThreadTag?, cause: Cause?
    ) {
        var f = facts[op.index]
        switch (key, new) {
        case (.isReady, .bool(let ready)):
            if old == nil, f.added == nil { f.added = stamp }
            if ready, f.started == nil { f.ready = stamp }
        case (.isExecuting, .bool(true)):
            if f.started == nil {
                f.started = stamp
                f.startIndex = index
                startOrder.append(op)
            }
            if let thread { f.thread = thread }
            f.isExecuting = true
        case (.isExecuting, .bool(false)):
            f.isExecuting = false
        case (.isFinished, .bool(true)):
            f.isExecuting = false
            if f.finished == nil {
                f.finished = stamp
                f.cancelledWhenFinished = f.cancelled != nil
            }
        case (.isCancelled, .bool(true)):
            if f.cancelled == nil {
                f.cancelled = stamp
                if let cause, Self.action(cause.action, cancels: op, in: scenario) { f.cancelCause = cause }
            }
        case (.queuePriority, .priority(let p)):
            f.priorityChanges.append((stamp, p))
        default:
            break
        }
        facts[op.index] = f
    }

    private static func action(_ action: Action, cancels op: OperationID, in scenario: Scenario) -> Bool {
        switch action {
        case .cancel(let id): id == op
        case .cancelAll(let q): scenario[operation: op].queue == q
        default: false
        }
    }

    public subscript(_ op: OperationID) -> OperationFacts {
        facts.indices.contains(op.index) ? facts[op.index] : OperationFacts()
    }

    public func peak(of queue: QueueID) -> Int {
        peaks.indices.contains(queue.index) ? peaks[queue.index] : 0
    }

    // MARK: - Boards

    /// The board after the first `count` events (0: before any).
    public func board(afterFirst count: Int) -> BoardState {
        let n = min(max(0, count), events.count)
        let k = min(n / interval, checkpoints.count - 1)
        var board = checkpoints[k]
        for event in events[(k * interval)..<n] { board.apply(event) }
        return board
    }

    /// The board right after the event numbered `seq`.
    public func board(through seq: Int) -> BoardState {
        var low = 0
        var high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].seq <= seq { low = mid + 1 } else { high = mid }
        }
        return board(afterFirst: low)
    }

    /// The board just before `op` first posted `isExecuting` (the queue's
    /// view when it picked it); nil when it never started.
    public func boardBeforeStart(of op: OperationID) -> BoardState? {
        self[op].startIndex.map { board(afterFirst: $0) }
    }

    // MARK: - Questions

    /// How an operation ended.
    public func finalState(of op: OperationID) -> FinalState {
        let f = self[op]
        if f.started == nil, f.cancelled != nil { return .skipped }
        guard f.finished != nil else { return .stuck }
        return f.cancelledWhenFinished ? .cancelled : .finished
    }

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
    /// freed slot), if any came after `floor`.
    public func lastQueueMoment(_ queue: QueueID, before seq: Int, after floor: Int) -> (
        stamp: Stamp, moment: QueueMoment
    )? {
        queueMoments[queue.index].last { $0.stamp.seq < seq && $0.stamp.seq > floor }
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
