import FoundationRules
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
