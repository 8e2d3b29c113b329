import FoundationRules
import TextKit

/// What the hazard rules read of a validated file: per operation, whether
/// something may cancel it, whether it is started by hand, when it is
/// added, its level, and the earliest moments the file's times allow for
/// its readiness; the dependents of each.
struct HazardFacts {
    let actions: [TimedAction]
    let count: Int
    let queueOf: [Int]
    let mainQueue: Int?
    let dependencies: [DependencyList]
    let bodies: [OperationBody?]
    let explicitPriority: [PriorityLevel?]
    let qos: [QoSLevel?]
    let neverFinishes: [Bool]
    /// A `cancel` names it, or a `cancel-all` its queue (an `at` line or a
    /// completion block).
    let cancellable: [Bool]
    let startedByHand: [Bool]
    /// Named by an `add` action.
    let isAddedLater: [Bool]
    /// When it enters its queue (or its `start()` is first called by
    /// hand): 0 for one added at the start.
    let addedAt: [Duration?]
    /// Its explicit priority, or the one its QoS names; nil for neither.
    let levels: [PriorityLevel?]

    init(validator v: Validator, actions: [TimedAction]) {
        self.actions = actions
        count = v.tree.operations.count
        queueOf = v.operationQueues
        mainQueue = v.queues.firstIndex(where: \.isMain)
        dependencies = v.dependencies
        bodies = v.tree.operations.map(\.body)
        explicitPriority = v.tree.operations.map { $0.priority?.value }
        qos = v.tree.operations.map { $0.qos?.value }
        neverFinishes = v.tree.operations.map { $0.neverFinishes != nil && !$0.neverFinishesOnlyIfCancelled }
        var cancelled = [Bool](repeating: false, count: count)
        var cancelledQueues = Set<Int>()
        var hand = [Bool](repeating: false, count: count)
        var later = [Bool](repeating: false, count: count)
        var added = [Duration?](repeating: .zero, count: count)
        func note(_ action: Action) {
            switch action {
            case .cancel(let op): cancelled[op.index] = true
            case .cancelAll(let q): cancelledQueues.insert(q.index)
            default: break
            }
        }
        for completion in v.completions { completion?.forEach(note) }
        // Time order: the first `add` (or `start`) of each is the earliest.
        for timed in actions {
            note(timed.action)
            switch timed.action {
            case .add(let op) where !later[op.index]:
                later[op.index] = true
                added[op.index] = timed.time
            case .start(let op) where !hand[op.index]:
                hand[op.index] = true
                added[op.index] = timed.time
            default: break
            }
        }
        if !cancelledQueues.isEmpty {
            for op in 0..<count where cancelledQueues.contains(v.operationQueues[op]) { cancelled[op] = true }
        }
        cancellable = cancelled
        startedByHand = hand
        isAddedLater = later
        addedAt = added
        levels = (0..<count).map {
            let (priority, qos) = (v.tree.operations[$0].priority?.value, v.tree.operations[$0].qos?.value)
            return priority == nil && qos == nil ? nil : PriorityRule.looksIn(explicit: priority, qos: qos)
        }
    }

    /// The level the file means for an operation: `levels`, normal when
    /// it says nothing.
    func intentLevel(_ op: Int) -> PriorityLevel { levels[op] ?? .normal }

    /// The bucket Foundation files the operation under on a queue of
    /// `cap` (`PriorityRule.filing`).
    func bucket(_ op: Int, cap: Int) -> PriorityLevel {
        let limit = CapRule.limit(foundationValue: cap)
        return PriorityRule.filing(explicit: explicitPriority[op], qos: qos[op], limitAtAdd: limit).level
    }

    // MARK: Order

    /// Every operation, each after all it depends on (the graph is acyclic).
    func topologicalOrder() -> [Int] {
        var remaining = dependencies.map(\.count)
        let dependents = self.dependents()
        var order: [Int] = []
        order.reserveCapacity(count)
        for op in 0..<count where remaining[op] == 0 { order.append(op) }
        var next = 0
        while next < order.count {
            let op = order[next]
            next += 1
            for d in dependents.of(op) {
                remaining[d] -= 1
                if remaining[d] == 0 { order.append(d) }
            }
        }
        return order
    }

    /// Who depends on each operation, in one flat array.
    func dependents() -> Dependents {
        var start = [Int](repeating: 0, count: count + 1)
        for deps in dependencies { for d in deps { start[d.index + 1] += 1 } }
        for i in 0..<count { start[i + 1] += start[i] }
        var fill = start
        var flat = [Int](repeating: 0, count: start[count])
        for (op, deps) in dependencies.enumerated() {
            for d in deps {
                flat[fill[d.index]] = op
                fill[d.index] += 1
            }
        }
        return Dependents(start: start, flat: flat)
    }

    struct Dependents {
        let start: [Int]
        let flat: [Int]
        func of(_ op: Int) -> ArraySlice<Int> { flat[start[op]..<start[op + 1]] }
    }

    /// The earliest moment each operation can be ready by the file's
    /// times: when it enters its queue, and after each dependency's
    /// earliest finish (its readiness plus its work, or an earlier cancel:
    /// a cancelled operation finishes without running, also before its
    /// dependencies finished, and a completion block's cancel is taken to
    /// come at 0). nil: never added.
    func earliestReady() -> [Duration?] {
        var cancelFrom = [Duration?](repeating: nil, count: count)
        var queueCancelFrom: [Int: Duration] = [:]
        for timed in actions {
            switch timed.action {
            case .cancel(let op) where cancelFrom[op.index] == nil: cancelFrom[op.index] = timed.time
            case .cancelAll(let q) where queueCancelFrom[q.index] == nil: queueCancelFrom[q.index] = timed.time
            default: break
            }
        }
        var ready = [Duration?](repeating: nil, count: count)
        var finish = [Duration?](repeating: nil, count: count)
        for op in topologicalOrder() {
            guard let added = addedAt[op] else { continue }
            var r = added
            var blocked = false
            for d in dependencies[op] {
                guard let f = finish[d.index] else {
                    blocked = true
                    break
                }
                r = max(r, f)
            }
            var cancel: Duration?
            if cancellable[op] {
                let timed = [cancelFrom[op], queueCancelFrom[queueOf[op]]].compactMap { $0 }.min()
                // Cancelled by a completion block only: at any moment.
                cancel = timed ?? .zero
            }
            if !blocked { ready[op] = r }
            let work = bodies[op]?.totalDuration ?? .zero
            let finished = blocked ? nil : r + work
            let byCancel = cancel.map { max(added, $0) }
            switch (finished, byCancel) {
            case (let f?, let c?): finish[op] = min(f, c)
            case (let f?, nil): finish[op] = f
            case (nil, let c?): finish[op] = c
            case (nil, nil): finish[op] = nil
            }
            if blocked, cancel != nil { ready[op] = byCancel }
        }
        return ready
    }

    // MARK: Paths

    /// The first operation, breadth first from `sources` along the `after`
    /// clauses, that is on the main queue and cannot be ready before
    /// `waitTime`, with the path to it from the source it was reached
    /// from. Nothing on the path may be cancelled, started by hand, or
    /// never finish; a main-queue operation that may be ready by then is
    /// not gone through (it may have run, and what it waits for with it).
    /// `ready`: `earliestReady()`, computed once for every wait.
    func mainQueuePath(from sources: [Int], waitTime: Duration, mainQueue: Int, ready: [Duration?])
        -> (source: Int, path: [Int], readyFrom: Duration)?
    {
        let passable = { (op: Int) in !cancellable[op] && !startedByHand[op] && !neverFinishes[op] }
        let starts = sources.filter(passable)
        guard !starts.isEmpty else { return nil }
        var parent = [Int: Int]()
        var frontier: [Int] = []
        for s in starts where parent[s] == nil {
            parent[s] = -1
            frontier.append(s)
        }
        var next = 0
        while next < frontier.count {
            let op = frontier[next]
            next += 1
            if queueOf[op] == mainQueue {
                // Never added: it never runs, and the wait hangs for that.
                guard let r = ready[op], r >= waitTime + Validator.hazardMargin else { continue }
                var path: [Int] = []
                var at = op
                while parent[at]! >= 0 {
                    path.append(at)
                    at = parent[at]!
                }
                return (at, path.reversed(), r)
            }
            for d in dependencies[op] where parent[d.index] == nil && passable(d.index) {
                parent[d.index] = op
                frontier.append(d.index)
            }
        }
        return nil
    }

    /// The path, along the `after` clauses from `owner` (itself when it is
    /// on the queue: empty), to the first operation of `queue`, with
    /// nothing on it (the owner included) that something may cancel or
    /// that is started by hand; nil when there is none.
    /// `held` says whether an operation of the queue is surely held there.
    func pathToQueue(from owner: Int, queue: Int, held: (Int) -> Bool) -> [Int]? {
        guard !cancellable[owner], !startedByHand[owner] else { return nil }
        var parent = [owner: -1]
        var frontier = [owner]
        var next = 0
        while next < frontier.count {
            let op = frontier[next]
            next += 1
            if queueOf[op] == queue, held(op) {
                var path: [Int] = []
                var at = op
                while parent[at]! >= 0 {
                    path.append(at)
                    at = parent[at]!
                }
                return path.reversed()
            }
            for d in dependencies[op] where parent[d.index] == nil && !cancellable[d.index] && !startedByHand[d.index] {
                parent[d.index] = op
                frontier.append(d.index)
            }
        }
        return nil
    }

    /// The dependent (direct or through others) with the highest level
    /// that waits for an operation, and the next operation toward it.
    typealias WaitingDependent = (level: PriorityLevel, operation: Int, hop: Int)

    /// For each operation, the dependent (direct or through others) with
    /// the highest `levels` that waits for it; nil when none has a level.
    /// What may be cancelled neither waits nor passes a wait on (a cancel
    /// makes it ready at once).
    func highestWaitingDependents() -> [WaitingDependent?] {
        let dependents = self.dependents()
        var best = [WaitingDependent?](repeating: nil, count: count)
        for op in topologicalOrder().reversed() {
            for d in dependents.of(op) where !cancellable[d] {
                var candidate: WaitingDependent?
                if let level = levels[d] { candidate = (level, d, d) }
                if let through = best[d], candidate.map({ through.level > $0.level }) ?? true {
                    candidate = (through.level, through.operation, d)
                }
                guard let candidate else { continue }
                if best[op].map({ candidate.level > $0.level }) ?? true { best[op] = candidate }
            }
        }
        return best
    }

    /// Every operation `op` waits for through its `after` clauses, directly
    /// or through others; nil once the walk has cost `budget` steps.
    func dependencies(of op: Int, budget: inout Int) -> Set<Int>? {
        var found = Set<Int>()
        var stack = dependencies[op].map(\.index)
        while let d = stack.popLast() {
            budget -= 1
            if budget < 0 { return nil }
            guard found.insert(d).inserted else { continue }
            stack += dependencies[d].map(\.index)
        }
        return found
    }

    /// The path from the waiting dependent's own dependency down to `op`
    /// (`op` last), along `best`'s hops.
    func pathUp(from op: Int, in best: [WaitingDependent?]) -> [Int] {
        guard let top = best[op] else { return [op] }
        var chain = [op]
        var at = op
        while let step = best[at], step.hop != top.operation {
            at = step.hop
            chain.append(at)
        }
        return chain.reversed()
    }
}
