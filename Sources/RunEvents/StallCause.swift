import ScenarioKit

/// One root cause of a stall and the stuck operations it holds: a queue
/// suspended for good (or a deadlock through that suspension), an
/// operation that never posted `isFinished`, the main thread blocked in a
/// wait, or a cause the run cannot tell.
///
/// `group` makes them from a stall's stuck map, pure and linear in the
/// operations; the words are in `StallCause+Words.swift`, the one place
/// the trace, the interface and a recording's `causes` take them from.
public struct StallCause: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A suspended queue that nothing still to come resumes.
        case suspended
        /// A suspended queue whose resumes wait, themselves, behind it (or
        /// behind a suspension that waits behind it).
        case deadlock
        /// An asynchronous operation that never posted `isFinished`: it holds
        /// a slot of its queue and does nothing.
        case neverPostedFinish = "never-posted-isFinished"
        /// Every slot of a queue is held by operations that started and
        /// never finished: its ready operations wait for a slot, not for a
        /// dependency.
        case slotsHeld = "slots-held"
        /// The main thread is blocked in a wait: the main queue runs nothing.
        case mainThreadBlocked = "main-thread-blocked"
        /// An operation in no queue whose `start()` by hand nothing is left
        /// to call (none is to come, or the last was refused).
        case notStartedByHand = "not-started-by-hand"
        /// None of the above that the run can tell.
        case unknown
    }

    /// What a stuck operation comes down to once its waits are followed:
    /// the key the operations are grouped by.
    public enum Root: Sendable, Hashable {
        case suspension(QueueID)
        case neverPostedFinish(OperationID)
        /// A queue whose slots are all held for good, and by whom.
        case slotsHeld(QueueID, cap: Int, holders: [OperationID])
        case mainThreadBlocked
        case notStartedByHand(OperationID)
        case unknown
    }

    public var kind: Kind
    public var root: Root
    /// Every operation it holds, in scenario order.
    public var operations: [OperationID]
    /// For a suspension: how its queue came to be suspended and what in the
    /// file could still resume it.
    public var suspension: Suspension?
    /// For `mainThreadBlocked`: the wait the main thread is in, when known.
    public var wait: Action?

    public var count: Int { operations.count }

    /// The queue it is about: the suspended one, or the one whose slot an
    /// operation that never posted `isFinished` holds.
    public func queue(in scenario: Scenario) -> QueueID? {
        switch root {
        case .suspension(let q): q
        case .neverPostedFinish(let op): scenario.contains(op) ? scenario[operation: op].queue : nil
        case .slotsHeld(let q, _, _): q
        case .mainThreadBlocked, .notStartedByHand, .unknown: nil
        }
    }

    /// Who suspended a queue, and the resumes in the file not yet performed.
    public struct Suspension: Sendable, Hashable {
        public enum By: Sendable, Hashable {
            /// An action: an `at` line, a completion block, a key.
            case action(StallContext.Suspension)
            /// Its `queue` line says `suspended`, and nothing resumed it since.
            case declared
            /// The stream before the stall does not say.
            case unknown
        }

        public var by: By
        /// In the order a reader meets them: `at` lines first, by time,
        /// then completion blocks, by operation.
        public var resumes: [Resume]
    }

    /// An action of the file that would resume the queue: an `at` line still
    /// to come, or the completion block of an operation that has not finished.
    public struct Resume: Sendable, Hashable {
        /// `.timed(index)` or `.completion(op)`.
        public var origin: ActionOrigin
        /// Why it cannot happen; nil when it is still to come.
        public var hold: Hold?

        public init(origin: ActionOrigin, hold: Hold?) {
            self.origin = origin
            self.hold = hold
        }
    }

    /// Why a completion block that would resume a queue never runs: its
    /// operation is stuck, and what it comes down to.
    public struct Hold: Sendable, Hashable {
        /// The operation whose completion block it is.
        public var op: OperationID
        /// The first unfinished operation it waits for, when that is not
        /// `root` itself.
        public var via: OperationID?
        /// The operation its waits end at (itself when it is stuck directly).
        public var root: OperationID
        public var cause: Root
        /// It waits behind the very suspension it would end, directly or
        /// through another suspended queue: a deadlock.
        public var cycle: Bool

        public init(op: OperationID, via: OperationID?, root: OperationID, cause: Root, cycle: Bool) {
            self.op = op
            self.via = via
            self.root = root
            self.cause = cause
            self.cycle = cycle
        }
    }
}

extension StallCause {
    /// The stall's stuck operations grouped by root cause, the largest
    /// group first (ties: by first operation). Waits are followed to the
    /// operation they end at, and grouped by why that one is stuck; a
    /// suspended queue's group says who suspended it (`context`) and which
    /// resumes in the file remain, each with why it cannot happen.
    ///
    /// Linear in the operations (each chain of waits is followed once) plus
    /// the file's `at` lines; a reason that names an operation the scenario
    /// does not have counts as `unknown`, never a trap.
    public static func group(
        _ stuck: [OperationID: StuckReason], in scenario: Scenario, context: StallContext
    ) -> [StallCause] {
        var analysis = Analysis(stuck: stuck, scenario: scenario)
        // Per root operation its group, so that a key is hashed once per root.
        var groupOfRoot = [Int32](repeating: -1, count: scenario.operations.count)
        var groupOfKey: [Root: Int] = [:]
        var groups: [StallCause] = []
        for i in analysis.reasons.indices where analysis.reasons[i] != nil {
            let r = analysis.rootOp(i)
            if groupOfRoot[r] < 0 {
                let key = analysis.key(ofRoot: r)
                if let existing = groupOfKey[key] {
                    groupOfRoot[r] = Int32(existing)
                } else {
                    groupOfRoot[r] = Int32(groups.count)
                    groupOfKey[key] = groups.count
                    groups.append(StallCause(kind: key.kind, root: key, operations: []))
                }
            }
            groups[Int(groupOfRoot[r])].operations.append(OperationID(i))
        }
        if groups.contains(where: { if case .suspension = $0.root { true } else { false } }) {
            analysis.tellSuspensions(&groups, context: context)
        }
        for g in groups.indices where groups[g].root == .mainThreadBlocked {
            groups[g].wait = context.mainThreadWait
        }
        return groups.enumerated().sorted { a, b in
            a.element.count != b.element.count
                ? a.element.count > b.element.count : a.element.operations[0] < b.element.operations[0]
        }.map(\.element)
    }
}

extension StallCause.Root {
    var kind: StallCause.Kind {
        switch self {
        case .suspension: .suspended
        case .neverPostedFinish: .neverPostedFinish
        case .slotsHeld: .slotsHeld
        case .mainThreadBlocked: .mainThreadBlocked
        case .notStartedByHand: .notStartedByHand
        case .unknown: .unknown
        }
    }

    /// The operation a cause is about, when it is one: the one that never
    /// posted `isFinished`, or the one nothing starts.
    public var operation: OperationID? {
        switch self {
        case .neverPostedFinish(let op), .notStartedByHand(let op): op
        case .suspension, .slotsHeld, .mainThreadBlocked, .unknown: nil
        }
    }
}

/// The stuck map as arrays, and each operation's root, found once.
private struct Analysis {
    let scenario: Scenario
    /// Per operation, its reason; nil when it is not stuck.
    var reasons: [StuckReason?]
    /// Per operation, the operation its waits end at (-1: not found yet).
    var roots: [Int32]

    init(stuck: [OperationID: StuckReason], scenario: Scenario) {
        self.scenario = scenario
        var reasons = [StuckReason?](repeating: nil, count: scenario.operations.count)
        for (op, reason) in stuck where reasons.indices.contains(op.index) { reasons[op.index] = reason }
        self.reasons = reasons
        roots = [Int32](repeating: -1, count: scenario.operations.count)
    }

    /// The operation `i`'s waits end at: one stuck for a reason of its own
    /// (or one the map does not explain). Each chain is walked once.
    mutating func rootOp(_ i: Int) -> Int {
        if roots[i] >= 0 { return Int(roots[i]) }
        var path: [Int] = []
        var current = i
        var found = -1
        while found < 0 {
            if roots[current] >= 0 {
                found = Int(roots[current])
            } else if case .waitsFor(_, let root)? = reasons[current], root.index != current,
                reasons.indices.contains(root.index), path.count < reasons.count
            {
                path.append(current)
                current = root.index
            } else {
                found = current
            }
        }
        for p in path { roots[p] = Int32(found) }
        roots[current] = Int32(found)
        return found
    }

    /// Why a root operation is stuck, as a key.
    func key(ofRoot r: Int) -> StallCause.Root {
        switch reasons[r] {
        case .queueSuspended(let q)? where scenario.queues.indices.contains(q.index): .suspension(q)
        case .neverPostedFinish?: .neverPostedFinish(OperationID(r))
        case .waitsForSlot(let q, let cap, let holders)?
        where scenario.queues.indices.contains(q.index) && holders.allSatisfy { scenario.contains($0) }:
            .slotsHeld(q, cap: cap, holders: holders)
        case .mainThreadBlocked?: .mainThreadBlocked
        case .notStartedByHand?: .notStartedByHand(OperationID(r))
        default: .unknown
        }
    }

    /// Fills in each suspension's story, and marks the deadlocks.
    mutating func tellSuspensions(_ groups: inout [StallCause], context: StallContext) {
        // The resumes in the file, per queue: `at` lines still to come,
        // then completion blocks of unfinished operations (a stall waits
        // for every finished one's block).
        var resumes = [[StallCause.Resume]](repeating: [], count: scenario.queues.count)
        for (index, timed) in scenario.actions.enumerated() where context.isToCome(timedAction: index) {
            if case .resume(let q) = timed.action, resumes.indices.contains(q.index) {
                resumes[q.index].append(StallCause.Resume(origin: .timed(index), hold: nil))
            }
        }
        for (i, spec) in scenario.operations.enumerated() where reasons[i] != nil {
            for case .resume(let q) in spec.completion ?? [] where resumes.indices.contains(q.index) {
                resumes[q.index].append(StallCause.Resume(origin: .completion(OperationID(i)), hold: hold(i)))
            }
        }
        // A queue's resumes held behind other suspensions: a deadlock when
        // one leads back to it and none is still to come.
        var next = [[Int]](repeating: [], count: scenario.queues.count)
        for q in resumes.indices {
            for resume in resumes[q] {
                if case .suspension(let other)? = resume.hold?.cause { next[q].append(other.index) }
            }
        }
        func leadsBack(from start: Int, to q: Int) -> Bool {
            var seen = Set<Int>()
            var stack = [start]
            while let current = stack.popLast() {
                if current == q { return true }
                if seen.insert(current).inserted { stack += next[current] }
            }
            return false
        }
        for g in groups.indices {
            guard case .suspension(let q) = groups[g].root else { continue }
            var mine = resumes[q.index]
            let comes = mine.contains { $0.hold == nil }
            for r in mine.indices {
                guard var hold = mine[r].hold, case .suspension(let other) = hold.cause else { continue }
                hold.cycle = !comes && leadsBack(from: other.index, to: q.index)
                mine[r].hold = hold
            }
            let by: StallCause.Suspension.By =
                context.lastSuspension.indices.contains(q.index) && context.lastSuspension[q.index] != nil
                ? .action(context.lastSuspension[q.index]!)
                : scenario[queue: q].startsSuspended ? .declared : .unknown
            groups[g].suspension = StallCause.Suspension(by: by, resumes: mine)
            if mine.contains(where: { $0.hold?.cycle == true }) { groups[g].kind = .deadlock }
        }
    }

    /// Why the stuck operation `i`'s completion block never runs.
    private mutating func hold(_ i: Int) -> StallCause.Hold {
        let r = rootOp(i)
        var via: OperationID?
        if case .waitsFor(let dep, _)? = reasons[i], dep.index != r { via = dep }
        return StallCause.Hold(op: OperationID(i), via: via, root: OperationID(r), cause: key(ofRoot: r), cycle: false)
    }
}
