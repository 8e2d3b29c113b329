import FoundationRules
import RunEvents
import ScenarioKit

/// What a run's claims and reports ask about, gathered one event at a time
/// and without keeping the events: per tracked operation when it was added,
/// became ready, started, finished, was cancelled (and by what); per queue
/// its peak; how the run ended; how many timed actions it performed; and,
/// for each set of operations watched, the first moment they were all
/// executing at once.
///
/// `RunTimeline` keeps one that tracks every operation, beside the stream.
/// `trace` keeps one that tracks only what the file's `expect` lines name
/// (`forExpectations(of:)`), so that a run printed as it goes holds a few
/// bytes per operation, not its events.
///
/// "Executing" means from `isExecuting` true until `isExecuting` false or
/// `isFinished` true, whichever comes first. Barriers count as operations
/// of their queue (their `isExecuting` is their block running).
public struct RunFacts: Sendable {
    /// When something was announced (`RunEvents.Stamp`).
    public typealias Stamp = RunEvents.Stamp

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
        /// Its moments (added, ready, dispatched, started on a thread,
        /// stopped, finished, cancelled), as every reader of a run defines
        /// them (`OperationMoments`).
        public internal(set) var moments = OperationMoments()
        public var added: Stamp? { moments.added }
        public var ready: Stamp? { moments.ready }
        /// Its `dispatched` event: its queue handed it to its dispatch queue.
        public var dispatched: Stamp? { moments.dispatched }
        public var started: Stamp? { moments.started }
        public var finished: Stamp? { moments.finished }
        public var cancelled: Stamp? { moments.cancelled }
        /// The thread it ran on.
        public var thread: ThreadTag? { moments.thread }
        /// `isCancelled` was true when `isFinished` turned true.
        public var cancelledWhenFinished = false
        /// The action event whose effect the cancel was.
        public var cancelCause: Cause?
        /// Priority changes announced for it, in order.
        public var priorityChanges: [(stamp: Stamp, level: PriorityLevel)] = []
        /// Position in the stream (0-based) of its first `isExecuting` true.
        public internal(set) var startIndex: Int?
        /// When its completion block ran (the block's event), if it did.
        public internal(set) var completionRan: Stamp?
        /// When the work its `main()` left running ended (`leaves`).
        public internal(set) var leftoverEnded: Stamp?

        public init() {}

        /// Cancelled before it started, and never started since.
        public var wasSkipped: Bool { cancelled != nil && started == nil }
    }

    /// Which operations get `OperationFacts`.
    public enum Tracking: Sendable {
        case all
        case only(Set<OperationID>)
    }

    public let scenario: Scenario
    /// Per operation, its slot in `tracked`, or -1 when it is not tracked.
    let slot: [Int32]
    var tracked: [OperationFacts]
    /// Per tracked operation, what its rules need (`RunFacts+Rules`);
    /// empty unless the facts keep rules.
    var ruleFacts: [RuleFacts] = []
    /// Per queue, what the rules need of it (`RunFacts+Rules`).
    var queueFacts: [QueueFacts]
    /// Per operation, tracked or not: whether it started, and stopped
    /// (`startedBit`, `stoppedBit`); executing is started and not stopped.
    private var execution: [UInt8]
    private static let startedBit: UInt8 = 1
    private static let stoppedBit: UInt8 = 2
    /// Holds a slot of its queue (`QueueFacts.holding`).
    private static let holdingBit: UInt8 = 4
    private static let cancelledBit: UInt8 = 8
    private static let executionBits = startedBit | stoppedBit
    private var executingCount: [Int]
    /// Per queue, the most of its operations executing at once.
    public private(set) var peaks: [Int]
    /// Operations that started, in the order they started (with `.all`).
    public private(set) var startOrder: [OperationID] = []
    private let keepsStartOrder: Bool
    /// The outcome of the first `.end`; nil when the run never ended.
    public var outcome: RunOutcome?
    /// The last event's time.
    public private(set) var endTime: Double = 0
    /// Events recorded.
    public private(set) var eventCount = 0
    /// Timed (`at`) actions the run performed, ignored ones included.
    public private(set) var timedActionsPerformed = 0
    /// The main thread's waits, in the order it made them: what it waited
    /// for, when it began, and when it returned (nil: it never did).
    public private(set) var mainThreadWaits: [MainThreadWaitSpan] = []
    /// The `at` lines of waits performed whose wait the main thread has
    /// not begun yet, in the order it takes them (the main queue's).
    private var waitsAsked: [Int?] = []
    /// Who suspended each queue last, the `at` lines performed, the wait
    /// the main thread is in: what a stall's causes need (`StallCause.group`).
    public private(set) var stallContext: StallContext
    var lastAction: Cause?
    private var watches: [OverlapWatch]
    /// By operation index: started by hand, in no queue (its running counts
    /// in no queue's peak). Empty when no operation is.
    private let byHand: [Bool]

    /// - Parameters:
    ///   - overlaps: sets of operations whose first moment all executing
    ///     at once `overlap(of:)` can tell.
    ///   - keepsRules: keep `RuleFacts` for the tracked operations.
    public init(
        scenario: Scenario, tracking: Tracking = .all, overlaps: [Set<OperationID>] = [], keepsRules: Bool = false
    ) {
        self.scenario = scenario
        let count = scenario.operations.count
        switch tracking {
        case .all:
            slot = (0..<count).map { Int32($0) }
            tracked = Array(repeating: OperationFacts(), count: count)
            keepsStartOrder = true
        case .only(let ops):
            var slots = [Int32](repeating: -1, count: count)
            for (n, op) in ops.filter({ scenario.contains($0) }).sorted().enumerated() { slots[op.index] = Int32(n) }
            slot = slots
            tracked = Array(repeating: OperationFacts(), count: ops.count)
            keepsStartOrder = false
        }
        execution = Array(repeating: 0, count: count)
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : (0..<count).map { hand.contains(OperationID($0)) }
        stallContext = StallContext(scenario: scenario)
        executingCount = Array(repeating: 0, count: scenario.queues.count)
        peaks = Array(repeating: 0, count: scenario.queues.count)
        watches = overlaps.map(OverlapWatch.init)
        queueFacts = scenario.queues.map(QueueFacts.init)
        if keepsRules { ruleFacts = Array(repeating: RuleFacts(), count: tracked.count) }
    }

    /// Facts enough to judge `scenario`'s expectations: the operations they
    /// name, and the sets of its `concurrent` claims.
    public static func forExpectations(of scenario: Scenario) -> RunFacts {
        var named = Set<OperationID>()
        var overlaps: [Set<OperationID>] = []
        for expectation in scenario.expectations {
            switch expectation.claim {
            case .before(let a, let b), .completionBefore(let a, let b):
                // Their dependencies too: a failure says what they waited for.
                named.formUnion([a, b])
                named.formUnion(scenario[operation: a].dependencies + scenario[operation: b].dependencies)
            case .order(let ids):
                named.formUnion(ids)
                named.formUnion(ids.flatMap { scenario[operation: $0].dependencies })
            case .concurrent(let ids):
                named.formUnion(ids)
                overlaps.append(Set(ids))
            case .cancelled(let op), .skipped(let op):
                // Its dependencies too: a failure says which were cancelled.
                named.insert(op)
                named.formUnion(scenario[operation: op].dependencies)
            case .finished(let op), .stuck(let op), .onMain(let op, _):
                named.insert(op)
            case .finishedBy(let op, _):
                // Its dependencies too: a late finish says which it waited for.
                named.insert(op)
                named.formUnion(scenario[operation: op].dependencies)
            case .neverTogether(let ids):
                named.formUnion(ids)
                for (i, a) in ids.enumerated() {
                    for b in ids[(i + 1)...] { overlaps.append([a, b]) }
                }
            case .peak, .peakAtMost, .peakAtLeast, .dependsOn, .mainNeverBlockedOver: break
            }
        }
        return RunFacts(scenario: scenario, tracking: .only(named), overlaps: overlaps, keepsRules: true)
    }

    // MARK: - Recording

    public mutating func record(_ event: LifecycleEvent) {
        let index = eventCount
        eventCount += 1
        endTime = event.time
        let stamp = Stamp(seq: event.seq, time: event.time)
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            guard scenario.contains(op) else { break }
            let was = execution[op.index]
            // Executing as `OperationMoments` says: from the first
            // isExecuting true to the first isExecuting false or isFinished
            // true after it (a bit for each, not the moments of every
            // operation: a trace tracks few).
            var now = was
            switch (key, new) {
            case (.isExecuting, .bool(true)) where now & Self.startedBit == 0: now |= Self.startedBit
            case (.isExecuting, .bool(false)), (.isFinished, .bool(true)):
                if now & Self.startedBit != 0 { now |= Self.stoppedBit }
            case (.isCancelled, .bool(true)) where now & Self.startedBit == 0: now |= Self.cancelledBit
            default: break
            }
            // A slot held from the dispatch (or the start) to the stop, by
            // an operation not cancelled before it started.
            if now & Self.executionBits == Self.startedBit, now & Self.cancelledBit == 0 {
                now |= Self.holdingBit
            } else if now & Self.executionBits == Self.executionBits || (key == .isFinished && new == .bool(true)) {
                now &= ~Self.holdingBit
            }
            execution[op.index] = now
            let wasExecuting = was & Self.executionBits == Self.startedBit
            let isExecuting = now & Self.executionBits == Self.startedBit
            let q = scenario[operation: op].queue.index
            // Started by hand, it is in no queue: it counts in none.
            let inAQueue = byHand.isEmpty || !byHand[op.index]
            if isExecuting != wasExecuting && inAQueue {
                executingCount[q] += isExecuting ? 1 : -1
                peaks[q] = max(peaks[q], executingCount[q])
            }
            if inAQueue { noteHolding(q, was: was & Self.holdingBit != 0, now: now & Self.holdingBit != 0) }
            if key == .isExecuting, new == .bool(true), keepsStartOrder, slot[op.index] >= 0,
                tracked[Int(slot[op.index])].started == nil
            {
                startOrder.append(op)
            }
            let n = Int(slot[op.index])
            if n >= 0 {
                if !ruleFacts.isEmpty { noteRules(n, op, key, old: old, new: new, stamp) }
                Self.update(&tracked[n], op, key, new: new, stamp, index, lastAction, scenario)
                tracked[n].moments.record(event.kind, at: stamp, thread: event.thread)
            }
            if !watches.isEmpty {
                for w in watches.indices where watches[w].ids.contains(op) {
                    watches[w].note(op, executing: isExecuting, at: stamp)
                }
            }
        case .action(let action, let origin, let ignored):
            lastAction = ignored == nil ? Cause(action: action, origin: origin) : nil
            if ignored == nil, action.isMainThreadWait {
                if case .timed(let i) = origin { waitsAsked.append(i) } else { waitsAsked.append(nil) }
            }
            if case .timed = origin { timedActionsPerformed += 1 }
            stallContext.record(event)
        case .dispatched(let op):
            guard scenario.contains(op) else { break }
            let was = execution[op.index]
            if was & (Self.executionBits | Self.cancelledBit) == 0 {
                execution[op.index] = was | Self.holdingBit
                noteHolding(scenario[operation: op].queue.index, was: was & Self.holdingBit != 0, now: true)
            }
            guard slot[op.index] >= 0 else { break }
            tracked[Int(slot[op.index])].moments.record(event.kind, at: stamp, thread: event.thread)
        case .end(let result):
            if outcome == nil { outcome = result }
        case .completion(let op, _):
            guard scenario.contains(op), slot[op.index] >= 0 else { break }
            let n = Int(slot[op.index])
            if tracked[n].completionRan == nil { tracked[n].completionRan = stamp }
        case .mainThreadWait(let action, .started):
            let asked = waitsAsked.isEmpty ? nil : waitsAsked.removeFirst()
            mainThreadWaits.append(MainThreadWaitSpan(action: action, began: event.time, actionIndex: asked))
            stallContext.record(event)
        case .mainThreadWait(_, .returned):
            if let last = mainThreadWaits.indices.last { mainThreadWaits[last].returned = event.time }
            stallContext.record(event)
        case .leftover(let op, .returned):
            guard scenario.contains(op), slot[op.index] >= 0 else { break }
            tracked[Int(slot[op.index])].leftoverEnded = stamp
        case .queue(let q, let key, let old, let new):
            guard scenario.contains(q) else { break }
            recordQueue(q, key, old: old, new: new, stamp)
        case .block, .leftover, .stranded, .startCall, .stall, .caption:
            break
        }
    }

    /// What the facts keep beyond the moments, before the moments take
    /// the event: where the start is in the stream, whether it finished
    /// cancelled, what cancelled it, its priority changes.
    private static func update(
        _ f: inout OperationFacts, _ op: OperationID, _ key: OperationKey, new: KeyValue,
        _ stamp: Stamp, _ index: Int, _ cause: Cause?, _ scenario: Scenario
    ) {
        switch (key, new) {
        case (.isExecuting, .bool(true)):
            if f.started == nil { f.startIndex = index }
        case (.isFinished, .bool(true)):
            if f.finished == nil { f.cancelledWhenFinished = f.cancelled != nil }
        case (.isCancelled, .bool(true)):
            if f.cancelled == nil, let cause, action(cause.action, cancels: op, in: scenario) {
                f.cancelCause = cause
            }
        case (.queuePriority, .priority(let p)):
            f.priorityChanges.append((stamp, p))
        default:
            break
        }
    }

    private static func action(_ action: Action, cancels op: OperationID, in scenario: Scenario) -> Bool {
        switch action {
        case .cancel(let id): id == op
        case .cancelAll(let q): scenario[operation: op].queue == q
        default: false
        }
    }

    // MARK: - Questions

    /// The facts of `op`; empty when it is not tracked.
    public subscript(_ op: OperationID) -> OperationFacts {
        guard slot.indices.contains(op.index), slot[op.index] >= 0 else { return OperationFacts() }
        return tracked[Int(slot[op.index])]
    }

    /// Whether `op` is executing after the events recorded so far.
    public func isExecuting(_ op: OperationID) -> Bool {
        execution.indices.contains(op.index) && execution[op.index] & Self.executionBits == Self.startedBit
    }

    public func peak(of queue: QueueID) -> Int {
        peaks.indices.contains(queue.index) ? peaks[queue.index] : 0
    }

    /// How an operation ended.
    public func finalState(of op: OperationID) -> FinalState {
        let f = self[op]
        if f.started == nil, f.cancelled != nil { return .skipped }
        guard f.finished != nil else { return .stuck }
        return f.cancelledWhenFinished ? .cancelled : .finished
    }

    /// The first moment all of `ids` were executing at once, or else the
    /// most of them that ever were (with `moment` nil); nil when `ids` is
    /// not a set this was told to watch.
    public func overlap(of ids: Set<OperationID>) -> (moment: Stamp?, most: Int)? {
        watches.first { $0.ids == ids }.map { ($0.moment, $0.most) }
    }
}

/// A set of operations watched for the first moment they all execute.
private struct OverlapWatch: Sendable {
    let ids: Set<OperationID>
    var executing = Set<OperationID>()
    var most = 0
    var moment: RunFacts.Stamp?

    init(_ ids: Set<OperationID>) { self.ids = ids }

    mutating func note(_ op: OperationID, executing now: Bool, at stamp: RunFacts.Stamp) {
        if now { executing.insert(op) } else { executing.remove(op) }
        most = max(most, executing.count)
        if moment == nil, executing.count == ids.count { moment = stamp }
    }
}
