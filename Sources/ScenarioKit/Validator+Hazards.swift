import TextKit

/// Hazards a file has by construction, found before any run: a wait of the
/// main thread whose end needs the main thread, a priority inversion
/// through a dependency, a completion block that resumes a queue its own
/// operation waits on. Each is a warning that names the rule and every
/// operation on the path.
///
/// Precision over reach: each rule warns only where the file's times,
/// durations and actions leave the run no other way (nothing on the path
/// is cancelled, by an `at` line or a completion block; nothing is started
/// by hand; no `max` or `priority` action changes the queue). A file the
/// rule cannot be sure of gets no warning. Dependencies are the `after`
/// clauses only (a barrier's waits are not followed). Every walk is
/// iterative and linear in the file's operations and dependencies.
extension Validator {
    /// How much sooner, in scenario time, a rule's timed step (a wait, a
    /// suspension) must come than the earliest moment the operation it
    /// outruns can be ready. A run's timers can come some milliseconds
    /// late on a busy machine (an `at 5ms` action was performed at 12ms
    /// in a debug build beside a build), so a step within this of the
    /// readiness is a race the rule leaves alone.
    static let hazardMargin = Duration.milliseconds(100)

    /// Runs every rule; only on a file without errors (its graph is then
    /// acyclic and every name resolved).
    /// A rule's facts are gathered only when the file has what the rule
    /// looks for (a wait, a level beside a capped queue, a completion
    /// `resume`): a file of a million plain operations pays for a look at
    /// its actions and clauses, not for the graph.
    mutating func findHazards(_ actions: [TimedAction]) {
        guard !diagnostics.hasErrors, !tree.operations.isEmpty else { return }
        let waits = actions.contains { $0.action.isMainThreadWait } && queues.contains(where: \.isMain)
        let capped = queues.contains { queue in
            if case .limit = queue.cap { return !queue.isMain }
            return false
        }
        let levels = capped && tree.operations.contains { $0.priority != nil || $0.qos != nil }
        let resumes = completions.contains { completion in
            if case .resume? = completion?.first { return true }
            return false
        }
        guard waits || levels || resumes else { return }
        let facts = HazardFacts(validator: self, actions: actions)
        if waits { warnMainThreadWaitDeadlock(facts) }
        if levels { warnPriorityInversions(facts) }
        if resumes { warnCompletionResumeDeadlocks(facts) }
    }

    // MARK: A main-thread wait that needs the main thread

    /// The first wait of the main thread, in time order, whose end needs
    /// the main thread: what it waits for is on the main queue, or depends
    /// (through `after` clauses) on an operation of the main queue that
    /// cannot be ready before the wait's time. That operation is then
    /// dispatched to the main queue after the wait was, and the main
    /// thread, blocked in the wait, never runs it. Later waits never
    /// begin: only the first is reported.
    private mutating func warnMainThreadWaitDeadlock(_ facts: HazardFacts) {
        guard let main = queues.firstIndex(where: \.isMain), operationQueues.contains(main) else { return }
        var waits: [(time: Duration, syntax: ActionSyntax)] = []
        for syntax in tree.actions {
            switch syntax.kind {
            case .wait, .waitAll: waits.append((syntax.time, syntax))
            default: break
            }
        }
        guard !waits.isEmpty else { return }
        // Stable: equal times keep file order.
        let order = waits.indices.sorted {
            waits[$0].time != waits[$1].time ? waits[$0].time < waits[$1].time : $0 < $1
        }
        let ready = facts.earliestReady()
        for position in order {
            let (time, syntax) = waits[position]
            var sources: [Int] = []
            var name: Name
            var queueOfWaited: String?
            switch syntax.kind {
            case .wait(let target):
                name = target
                guard let op = operationIndex[target.text] else { continue }
                sources = [op]
            case .waitAll(let target):
                name = target
                guard let q = queueIndex[target.text] else { continue }
                queueOfWaited = target.text
                // What the queue holds when the wait begins: added at the
                // start, or by an `add` before the wait's time.
                sources = tree.operations.indices.filter {
                    operationQueues[$0] == q && !tree.operations[$0].isBarrier && !facts.startedByHand[$0]
                        && (!facts.isAddedLater[$0] || facts.addedAt[$0]! < time)
                }
            default: continue
            }
            guard let found = facts.mainQueuePath(from: sources, waitTime: time, mainQueue: main, ready: ready)
            else { continue }
            let path = found.path.map { tree.operations[$0].name.text }
            let mainOperation = path.last ?? tree.operations[found.source].name.text
            report(
                .mainThreadWaitDeadlock(
                    wait: "\(syntax.keyword.text) \(name.text)", time: Spelling.duration(time),
                    waited: tree.operations[found.source].name.text, queueOfWaited: queueOfWaited, path: path,
                    mainOperation: mainOperation, readyFrom: Spelling.duration(found.readyFrom),
                    later: Spelling.duration(found.readyFrom - time), at: name.location))
            return
        }
    }

    // MARK: Priority inversion through a dependency

    /// An operation of a higher priority (or QoS) that depends, through
    /// `after` clauses, on one of a lower level queued behind others on a
    /// capped queue: Foundation does not raise a dependency's priority
    /// (`.ci/probes/run 20 noinherit`), so the higher one waits for every
    /// operation that goes before the lower one.
    ///
    /// Counted as going before the lower one only what surely does: added
    /// at the start before it in file order, ready from the start (no
    /// dependency), in a bucket of the queue at least as high, with work
    /// to do, cancelled by nothing, of a lower level than the waiting
    /// operation, and not something the waiting operation waits for
    /// anyway (through its own `after` clauses); and only when they fill
    /// the queue's cap. The lower one is itself added at the start with no
    /// dependency. One warning per waiting operation, for the first such
    /// dependency in file order. The walks up a waiting operation's
    /// dependencies share a budget: past it, no more inversions are
    /// looked for (a file of thousands of them is not read twice over).
    private mutating func warnPriorityInversions(_ facts: HazardFacts) {
        let n = tree.operations.count
        guard facts.levels.contains(where: { $0 != nil }) else { return }
        var queueUsable = queues.map { spec -> Bool in
            if case .limit = spec.cap { return !spec.isMain }
            return false
        }
        guard queueUsable.contains(true) else { return }
        for timed in facts.actions {
            switch timed.action {
            case .setCap(let q, _): queueUsable[q.index] = false
            case .setPriority(let op, _): queueUsable[operationQueues[op.index]] = false
            default: break
            }
        }
        let waiting = facts.highestWaitingDependents()
        // Per queue, per bucket and level, the operations that go before
        // what comes later: a count and the first few.
        let levelCount = PriorityLevel.allCases.count
        var counts = [[Int]](repeating: [], count: queues.count)
        var firstFew = [[[Int]]](repeating: [], count: queues.count)
        var reported = Set<Int>()
        var budget = 1_000_000
        for op in 0..<n {
            let q = operationQueues[op]
            guard queueUsable[q], case .limit(let cap) = queues[q].cap else { continue }
            if counts[q].isEmpty {
                counts[q] = Array(repeating: 0, count: levelCount * levelCount)
                firstFew[q] = Array(repeating: [], count: levelCount * levelCount)
            }
            let spec = tree.operations[op]
            let plain =
                !spec.isBarrier && !facts.cancellable[op] && !facts.startedByHand[op]
                && facts.addedAt[op] == .zero && !facts.isAddedLater[op] && dependencies[op].isEmpty
            let bucket = facts.bucket(op, cap: cap)
            let level = facts.intentLevel(op)
            if plain, let high = waiting[op], high.level > level, !reported.contains(high.operation) {
                var ahead: [Int] = []
                var total = 0
                for b in PriorityLevel.allCases where b >= bucket {
                    for l in PriorityLevel.allCases where l < high.level {
                        let slot = Self.slot(b, l)
                        total += counts[q][slot]
                        ahead += firstFew[q][slot]
                    }
                }
                // What the waiting one waits for anyway holds it up with or
                // without the inversion: not counted.
                if total >= cap, let waitedFor = facts.dependencies(of: high.operation, budget: &budget) {
                    for a in waitedFor where a < op && queue(a, is: q, plainAheadOf: bucket, below: high.level, facts) {
                        total -= 1
                    }
                    ahead.removeAll { waitedFor.contains($0) }
                    if total >= cap {
                        reported.insert(high.operation)
                        reportInversion(
                            high: high.operation, low: op, path: facts.pathUp(from: op, in: waiting), queue: q,
                            cap: cap, firstAhead: ahead.sorted().prefix(3).map { tree.operations[$0].name.text },
                            aheadCount: total)
                    }
                }
            }
            if plain, spec.body.map({ $0.totalDuration > .zero }) ?? false {
                let slot = Self.slot(bucket, level)
                counts[q][slot] += 1
                if firstFew[q][slot].count < 3 { firstFew[q][slot].append(op) }
            }
        }
    }

    /// Whether `op` is one of queue `q`'s operations counted as going
    /// ahead (see `warnPriorityInversions`) of one in `bucket`, for a
    /// waiting operation of `level`.
    private func queue(
        _ op: Int, is q: Int, plainAheadOf bucket: PriorityLevel, below level: PriorityLevel, _ facts: HazardFacts
    ) -> Bool {
        guard operationQueues[op] == q, case .limit(let cap) = queues[q].cap else { return false }
        let spec = tree.operations[op]
        return !spec.isBarrier && !facts.cancellable[op] && !facts.startedByHand[op] && facts.addedAt[op] == .zero
            && !facts.isAddedLater[op] && dependencies[op].isEmpty
            && (spec.body.map { $0.totalDuration > .zero } ?? false)
            && facts.bucket(op, cap: cap) >= bucket && facts.intentLevel(op) < level
    }

    private static func slot(_ bucket: PriorityLevel, _ level: PriorityLevel) -> Int {
        let all = PriorityLevel.allCases
        return all.firstIndex(of: bucket)! * all.count + all.firstIndex(of: level)!
    }

    /// `firstAhead`: the first names of what goes before `low`, of
    /// `aheadCount`.
    private mutating func reportInversion(
        high: Int, low: Int, path: [Int], queue: Int, cap: Int, firstAhead: [String], aheadCount: Int
    ) {
        // `path` runs from the waiting operation's dependency to `low`.
        let first = path.first ?? low
        let location =
            dependencyNames[high].first { operationIndex[$0.text] == first }?.location
            ?? tree.operations[high].name.location
        report(
            .priorityInversion(
                high: tree.operations[high].name.text, highLevel: levelText(high),
                path: path.map { tree.operations[$0].name.text }, low: tree.operations[low].name.text,
                lowLevel: levelText(low), queue: queues[queue].name, cap: cap,
                firstAhead: firstAhead, aheadCount: aheadCount, at: location))
    }

    /// `priority veryHigh`, `qos userInteractive`, or `priority normal`
    /// for an operation that says neither.
    private func levelText(_ op: Int) -> String {
        if let p = tree.operations[op].priority?.value { return "priority \(p.rawValue)" }
        if let q = tree.operations[op].qos?.value { return "qos \(q.rawValue)" }
        return "priority normal"
    }

    // MARK: A completion block that resumes a queue its operation waits on

    /// `completion resume Q` on an operation that is on Q, or depends
    /// (through `after` clauses) on one that is, while Q stays suspended
    /// for good by the file's `at` lines (it starts suspended, or an `at`
    /// line suspends it and none resumes it later) and that operation of Q
    /// cannot be ready before the suspension (so Q never dispatched it):
    /// the owner never finishes, so its block never runs. Only when every
    /// completion block that resumes Q is held so.
    private mutating func warnCompletionResumeDeadlocks(_ facts: HazardFacts) {
        var resumers: [Int: [Int]] = [:]
        for (op, completion) in completions.enumerated() {
            guard case .resume(let q)? = completion?.first, !queues[q.index].isMain else { continue }
            resumers[q.index, default: []].append(op)
        }
        guard !resumers.isEmpty else { return }
        // The suspension that lasts, per queue: nil from the start, the
        // time of its `at` line otherwise; none once an `at` line resumes.
        var lasting: [Int: (time: Duration?, line: Int?)] = [:]
        for q in resumers.keys where queues[q].startsSuspended { lasting[q] = (nil, nil) }
        for timed in facts.actions {
            switch timed.action {
            case .suspend(let q) where resumers[q.index] != nil && lasting[q.index] == nil:
                lasting[q.index] = (timed.time, timed.location.line)
            case .resume(let q):
                lasting[q.index] = nil
            default: break
            }
        }
        guard !lasting.isEmpty else { return }
        let ready = lasting.values.contains { $0.time != nil } ? facts.earliestReady() : []
        for q in lasting.keys.sorted() {
            let suspension = lasting[q]!
            let owners = resumers[q]!
            let held = owners.map { owner in
                facts.pathToQueue(from: owner, queue: q) { op in
                    // Dispatched before the suspension, it would start anyway.
                    guard let from = suspension.time else { return true }
                    return ready[op].map { $0 >= from + Self.hazardMargin } ?? false
                }
            }
            guard held.allSatisfy({ $0 != nil }) else { continue }
            let suspended =
                suspension.time.map { "is suspended at \(Spelling.duration($0)) (line \(suspension.line ?? 0))" }
                ?? "starts suspended"
            for (owner, path) in zip(owners, held) {
                guard let path, case .resume(let name)? = tree.operations[owner].completion?.action else { continue }
                let names = path.map { tree.operations[$0].name.text }
                report(
                    .completionResumeDeadlock(
                        owner: tree.operations[owner].name.text, queue: queues[q].name, path: names,
                        onQueue: names.last ?? tree.operations[owner].name.text, suspended: suspended,
                        at: name.location))
            }
        }
    }
}

/// What the hazard rules read of a validated file: per operation, whether
/// something may cancel it, whether it is started by hand, when it is
/// added, its level, and the earliest moments the file's times allow for
/// its readiness; the dependents of each.
struct HazardFacts {
    let actions: [TimedAction]
    let count: Int
    let queueOf: [Int]
    let mainQueue: Int?
    let dependencies: [[OperationID]]
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
            v.tree.operations[$0].priority?.value ?? v.tree.operations[$0].qos?.value.impliedPriority
        }
    }

    /// The level the file means for an operation: `levels`, normal when
    /// it says nothing.
    func intentLevel(_ op: Int) -> PriorityLevel { levels[op] ?? .normal }

    /// The bucket Foundation files the operation under on a queue of
    /// `cap` (ENGINE-NOTES, "QoS becomes priority"): its priority, else
    /// its QoS's unless the cap is 1, else normal.
    func bucket(_ op: Int, cap: Int) -> PriorityLevel {
        if let p = explicitPriority[op] { return p }
        if let q = qos[op], cap != 1 { return q.impliedPriority }
        return .normal
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
