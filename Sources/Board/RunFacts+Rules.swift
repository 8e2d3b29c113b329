import FoundationRules
import RunEvents
import ScenarioKit

/// What a failed expectation needs to give the rule that decided, kept as
/// the run goes: per queue its cap and its latest suspension, each with
/// what set it, and how many of its operations held a slot at once; per
/// operation the facts keep rules for (`RunFacts.forExpectations`), the
/// priority bucket it was filed under and its queue as it was when it
/// started. A few values per queue and per tracked operation, never per
/// event: a trace of a million operations keeps no more.
extension RunFacts {
    /// A change of a queue, and the action that made it (nil: the file's
    /// declaration, or nothing the run announced as an action).
    public struct Change: Sendable {
        public var stamp: Stamp
        public var cause: Cause?
    }

    /// A queue's suspension: when it began (nil: the queue was declared
    /// suspended), when it ended (nil: it did not, yet).
    public struct Suspension: Sendable {
        public var from: Change?
        public var resumed: Change?

        /// The queue was suspended at the moment of `seq`.
        public func holds(at seq: Int) -> Bool {
            (from?.stamp.seq ?? 0) < seq && (resumed.map { $0.stamp.seq > seq } ?? true)
        }
    }

    /// What the rules need of a queue, as it is after the events so far.
    public struct QueueFacts: Sendable {
        /// `maxConcurrentOperationCount`: nil for the system's default; 1
        /// for the main queue, which runs one operation at a time.
        public internal(set) var cap: Int?
        /// The last change of the cap; nil while the declared one holds.
        public internal(set) var capChange: Change?
        /// The highest cap in force while one of its operations held a
        /// slot: 0 while none has, `Int.max` for the system's default.
        public internal(set) var highestBusyCap = 0
        /// The change that set `highestBusyCap`; nil for the declared cap.
        public internal(set) var highestBusyCapBy: Change?
        /// The latest suspension, ended or not.
        public internal(set) var suspension: Suspension?
        /// Its operations holding a slot now: dispatched or executing, not
        /// cancelled before they started, not stopped.
        public internal(set) var holding = 0
        /// The most that ever held a slot at once.
        public internal(set) var mostHolding = 0

        /// One of its operations holds a slot under the cap in force now.
        mutating func noteBusyCap() {
            let now = cap ?? Int.max
            guard now > highestBusyCap else { return }
            highestBusyCap = now
            highestBusyCapBy = capChange
        }

        init(_ spec: QueueSpec) {
            cap = CapRule.limit(foundationValue: spec.cap.foundationValue, isMainQueue: spec.isMain)
            if spec.startsSuspended { suspension = Suspension(from: nil, resumed: nil) }
        }
    }

    /// The priority bucket an operation was filed under when it was added
    /// (and moved to by a priority change Foundation did not lose), as
    /// `BoardState` settles it.
    public struct Bucket: Sendable {
        public var level: PriorityLevel
        /// What chose `level` (`PriorityRule.filing`).
        public var source: PriorityRule.Source
        public var capAtAdd: Change?
        /// The priority change that filed it under `level`; nil when the
        /// file's own line did (its priority or QoS clause, or neither).
        public var setBy: Change?

        /// Its QoS chose `level` (no explicit priority, a cap other than 1).
        public var fromQoS: Bool { source == .qos }
        /// Its QoS would have chosen another bucket, but its queue's cap was
        /// 1 when it was added: `capAtAdd` says who made it 1.
        public var qosIgnored: Bool { source == .qosIgnored }
    }

    /// The facts kept for the rules of one tracked operation.
    public struct RuleFacts: Sendable {
        /// The explicit `queuePriority` (the file's, then any change).
        var explicit: PriorityLevel?
        /// The change that set `explicit`; nil for the file's clause.
        var explicitBy: Change?
        public internal(set) var bucket: Bucket?
        /// Its queue when it started (before the start counted).
        public internal(set) var queueAtStart: QueueFacts?
    }

    /// The rule facts of `op`; nil when they are not kept for it.
    public func rules(of op: OperationID) -> RuleFacts? {
        guard !ruleFacts.isEmpty, slot.indices.contains(op.index), slot[op.index] >= 0 else { return nil }
        return ruleFacts[Int(slot[op.index])]
    }

    /// The queue's facts after the events so far.
    public func queue(_ q: QueueID) -> QueueFacts? { queueFacts.indices.contains(q.index) ? queueFacts[q.index] : nil }

    // MARK: - Recording

    mutating func recordQueue(_ q: QueueID, _ key: QueueKey, old: KeyValue?, new: KeyValue, _ stamp: Stamp) {
        guard queueFacts.indices.contains(q.index) else { return }
        let spec = scenario[queue: q]
        switch (key, new) {
        case (.isSuspended, .bool(true)) where old == .bool(false):
            let cause = lastAction.flatMap { $0.action == .suspend(q) ? $0 : nil }
            queueFacts[q.index].suspension = Suspension(from: Change(stamp: stamp, cause: cause), resumed: nil)
        case (.isSuspended, .bool(false)) where old == .bool(true):
            let cause = lastAction.flatMap { $0.action == .resume(q) ? $0 : nil }
            queueFacts[q.index].suspension?.resumed = Change(stamp: stamp, cause: cause)
        case (.maxConcurrentOperationCount, .int(let n))
        where !spec.isMain && CapRule.limit(foundationValue: n) != queueFacts[q.index].cap:
            // The declared cap, as the run applies it, is no change.
            let cause = lastAction.flatMap { if case .setCap(q, _) = $0.action { $0 } else { nil } }
            var f = queueFacts[q.index]
            f.cap = CapRule.limit(foundationValue: n)
            f.capChange = Change(stamp: stamp, cause: cause)
            if f.holding > 0 { f.noteBusyCap() }
            queueFacts[q.index] = f
        default:
            break
        }
    }

    /// Counts the operations holding a slot of their queue, from the
    /// execution bits before (`was`) and after (`now`) an event.
    mutating func noteHolding(_ q: Int, was: Bool, now: Bool) {
        guard was != now else { return }
        queueFacts[q].holding += now ? 1 : -1
        if now { queueFacts[q].noteBusyCap() }
        queueFacts[q].mostHolding = max(queueFacts[q].mostHolding, queueFacts[q].holding)
    }

    /// The bucket at the add, a priority change after it, the queue at the
    /// start: what `ruleFacts[n]` keeps, before the moments take the event.
    mutating func noteRules(
        _ n: Int, _ op: OperationID, _ key: OperationKey, old: KeyValue?, new: KeyValue, _ stamp: Stamp
    ) {
        let spec = scenario[operation: op]
        let moments = tracked[n].moments
        switch (key, new) {
        case (.isReady, _) where old == nil && moments.added == nil:
            let q = queueFacts[spec.queue.index]
            let explicit = ruleFacts[n].explicit ?? spec.priority
            var filing = PriorityRule.filing(explicit: explicit, qos: spec.qos, limitAtAdd: q.cap)
            if spec.isBarrier { filing.source = .normal }
            ruleFacts[n].bucket = Bucket(
                level: filing.level, source: filing.source, capAtAdd: q.capChange,
                setBy: filing.source == .explicit ? ruleFacts[n].explicitBy : nil)
        case (.queuePriority, .priority(let p)):
            let cause = lastAction.flatMap { if case .setPriority(op, _) = $0.action { $0 } else { nil } }
            // A change no action announced is the file's own (set as the
            // run builds the operation).
            let change = cause.map { Change(stamp: stamp, cause: $0) }
            let explicit = ruleFacts[n].explicit ?? spec.priority
            let place: PriorityRule.Place
            if moments.added == nil || moments.finished != nil {
                place = .outsideQueue
            } else {
                let waits = moments.dispatched == nil && moments.started == nil
                place = .inQueue(filedUnder: waits ? ruleFacts[n].bucket?.level : nil)
            }
            let ruled = PriorityRule.change(to: p, explicit: explicit, qos: spec.qos, place: place)
            guard ruled != .nothing else { break }
            ruleFacts[n].explicit = p
            ruleFacts[n].explicitBy = change
            if ruled == .moved, let bucket = ruleFacts[n].bucket {
                ruleFacts[n].bucket = Bucket(level: p, source: .explicit, capAtAdd: bucket.capAtAdd, setBy: change)
            }
        case (.isExecuting, .bool(true)) where moments.started == nil:
            ruleFacts[n].queueAtStart = queueFacts[spec.queue.index]
        default:
            break
        }
    }
}
