import Board
import RunEvents
import ScenarioKit
import TextKit

/// The rule behind a failed claim, from the compact facts of the run
/// (`RunFacts.forExpectations` keeps them for the operations the claims
/// name, their dependencies and their queues), in `RuleWords`' words.
/// Every sentence says what the events show; where they show no rule,
/// nothing is added.
extension ExpectationChecker {
    // MARK: - Dependencies

    /// Why `b` did not wait for `a`: it does not depend on it (and what it
    /// depends on instead); empty when it does (then something else let it
    /// start, as a cancel of `a`).
    static func notWaiting(_ b: OperationID, for a: OperationID, _ scenario: Scenario) -> String {
        guard scenario.dependencyPath(from: b, to: a) == nil else { return "" }
        return ": " + RuleWords.doesNotDependOn(b, a, in: scenario)
    }

    /// The rule when an operation ran although a dependency was cancelled:
    /// a cancelled dependency counts as finished (the dependencies of the
    /// operations a `skipped` or `cancelled` claim names are tracked).
    static func cancelledDependencies(_ op: OperationID, _ scenario: Scenario, _ history: RunFacts) -> String {
        let cancelled = scenario[operation: op].dependencies.filter { history[$0].cancelledWhenFinished }
        guard !cancelled.isEmpty else { return "" }
        return "; it ran " + RuleWords.ranAlthoughCancelled(cancelled, in: scenario) + ", and "
            + RuleWords.cancelDoesNotCascade
    }

    // MARK: - Start order

    /// Why `later` (listed after `earlier`) started first, `; ` and the
    /// rule; both started. Asked in this order: a dependency, a late add, a
    /// late readiness, a suspension, a barrier, a thread, the buckets.
    static func whyStarted(
        _ later: OperationID, before earlier: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> String {
        let (fl, fe) = (history[later], history[earlier])
        guard let sl = fl.started else { return "" }
        let (nameL, nameE) = (scenario.opName(later), scenario.opName(earlier))
        let head = "; \(nameL) started before \(nameE): "
        if let path = scenario.dependencyPath(from: earlier, to: later) {
            let chain = path.count == 2 ? "" : " through " + scenario.opNames(Array(path[1..<(path.count - 1)]))
            let when = history[path[1]].finished.map { " when \(scenario.opName(path[1])) finished at \(time($0))" }
            return head + "\(nameE) depends on \(nameL)\(chain), so it became ready only\(when ?? " after it")"
        }
        if let ready = fe.ready, ready.seq > sl.seq,
            let (d, finished) = lastDependency(of: earlier, before: ready.seq, scenario, history), finished.seq > sl.seq
        {
            let cancelled = history[d].cancelledWhenFinished
            return head + RuleWords.waitedFor(earlier, d, finished: finished, cancelled: cancelled, in: scenario)
        }
        if let added = fe.added, added.seq > sl.seq {
            let q = scenario.queueName(scenario[operation: earlier].queue)
            return head
                + "\(nameE) was added to \(q) only at \(time(added))\(RuleWords.addAction(earlier, in: scenario))"
        }
        if let ready = fe.ready, ready.seq > sl.seq {
            if let (d, finished) = lastDependency(of: earlier, before: ready.seq, scenario, history) {
                let cancelled = history[d].cancelledWhenFinished
                return head + RuleWords.waitedFor(earlier, d, finished: finished, cancelled: cancelled, in: scenario)
            }
            return head + "\(nameE) became ready only at \(time(ready))"
        }
        let (qL, qE) = (scenario[operation: later].queue, scenario[operation: earlier].queue)
        if let suspension = history.rules(of: earlier)?.queueAtStart?.suspension, suspension.holds(at: sl.seq) {
            let from = suspension.from.map { (time($0.stamp), $0.cause) }
            let resumed = suspension.resumed.map { (time($0.stamp), $0.cause) }
            return head + "\(nameE) was ready, but "
                + RuleWords.suspended(qE, from: from, resumed: resumed, in: scenario, lines: true)
        }
        let ready = [fl.ready, fe.ready].compactMap { $0 }.max { $0.seq < $1.seq }
        let both = "both were ready\(ready.map { " at \(time($0))" } ?? "")"
        guard qL == qE else {
            return head + "\(both), on different queues, and nothing in the file orders them"
        }
        if let rule = barrierRule(later, earlier, scenario, history) { return head + rule }
        if let dispatched = fe.dispatched, dispatched.seq < sl.seq {
            return head + "\(nameE) was dispatched at \(time(dispatched)) but waited for a worker thread "
                + "(\(RuleWords.threadRule)), and \(nameL) got one first"
        }
        return head + both + bucketRule(later, earlier, scenario, history)
    }

    /// A barrier of the queue orders the two by their adds.
    private static func barrierRule(
        _ later: OperationID, _ earlier: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> String? {
        guard let addL = history[later].added, let addE = history[earlier].added, addL.seq < addE.seq else {
            return nil
        }
        let (nameL, nameE) = (scenario.opName(later), scenario.opName(earlier))
        let q = scenario.queueName(scenario[operation: later].queue)
        if scenario[operation: later].isBarrier {
            let finished = history[later].finished.map { " at \(time($0))" } ?? ""
            return "\(nameL) is a barrier of \(q) and \(nameE) was added after it, so \(nameE) waited for the barrier "
                + "to finish\(finished)"
        }
        if scenario[operation: earlier].isBarrier {
            return "\(nameE) is a barrier of \(q), so it waited for everything added to \(q) before it, "
                + "\(nameL) included"
        }
        return nil
    }

    /// Both ready on one queue, neither dispatched before the other
    /// started: its buckets, then its adds, decided; with the cap when it
    /// let only one run.
    private static func bucketRule(
        _ later: OperationID, _ earlier: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> String {
        guard let bl = history.rules(of: later)?.bucket, let be = history.rules(of: earlier)?.bucket else { return "" }
        let (nameL, nameE) = (scenario.opName(later), scenario.opName(earlier))
        let q = scenario[operation: later].queue
        var notes: [String] = []
        for (op, bucket) in [(later, bl), (earlier, be)] where bucket.fromQoS {
            if let qos = scenario[operation: op].qos {
                notes.append(RuleWords.qosFiled(scenario.opName(op), qos, under: bucket.level))
            }
        }
        if !notes.isEmpty { notes = [notes.joined(separator: " and ") + " (\(RuleWords.qosRule))"] }
        let ignored = [(later, bl), (earlier, be)].filter { $0.1.qosIgnored }
        if let first = ignored.first {
            let by = RuleWords.cause(first.1.capAtAdd?.cause, in: scenario, lines: true)
            notes.append(RuleWords.qosIgnored(ignored.map { scenario.opName($0.0) }, by: by))
        }
        if let cap = history.rules(of: later)?.queueAtStart, cap.cap == 1 {
            let changed = cap.capChange.map { (time($0.stamp), $0.cause) }
            notes.append(RuleWords.cap(of: q, 1, changed: changed, in: scenario) + ", so one ran at a time")
        }
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        if bl.level > be.level {
            let higher = RuleWords.higherPriority(
                nameL, bl.level, over: be.level, fromQoS: bl.fromQoS || be.fromQoS,
                sources: [prioritySource(later, bl, scenario), prioritySource(earlier, be, scenario)].compactMap { $0 })
            return ", and \(higher)\(tail)"
        }
        if bl.level == be.level, let addL = history[later].added, let addE = history[earlier].added,
            addL.seq < addE.seq
        {
            let late = scenario.addedLater
            let order =
                !late.contains(later) && !late.contains(earlier)
                ? "file order" : "\(nameL) at \(time(addL)), \(nameE) at \(time(addE))"
            return "; " + RuleWords.sameBucket(nameL, nameE, bl.level, order: order) + tail
        }
        return ", and the engine took \(nameL) first\(tail)"
    }

    /// Where `op`'s bucket was set: `fetch's was set at 0.100s by 'at 100ms
    /// priority fetch high', line 9`; `fetch's is on line 7` for its
    /// priority or QoS clause; nil for the default, which no line sets.
    private static func prioritySource(
        _ op: OperationID, _ bucket: RunFacts.Bucket, _ scenario: Scenario
    ) -> String? {
        let whose = Spelling.possessive(scenario.opName(op))
        if let change = bucket.setBy, let cause = change.cause {
            let by = RuleWords.cause(cause, in: scenario, lines: true).dropFirst(2).dropLast()
            return "\(whose) was set at \(time(change.stamp)) \(by)"
        }
        let spec = scenario[operation: op]
        let clause = bucket.fromQoS ? spec.qos != nil : spec.priority != nil
        guard clause, spec.location.line > 0 else { return nil }
        return "\(whose) \(bucket.fromQoS ? "QoS " : "")is on line \(spec.location.line)"
    }

    /// Among `op`'s dependencies, the one that finished last before `seq`.
    static func lastDependency(
        of op: OperationID, before seq: Int, _ scenario: Scenario, _ history: RunFacts
    ) -> (OperationID, RunFacts.Stamp)? {
        var best: (OperationID, RunFacts.Stamp)?
        for d in scenario[operation: op].dependencies {
            guard let f = history[d].finished, f.seq <= seq else { continue }
            if f.seq > (best?.1.seq ?? Int.min) { best = (d, f) }
        }
        return best
    }

    // MARK: - Peaks

    /// Why the peak of `q` was what it was, when a claim about it failed:
    /// `lower` when the claim wanted more. `: ` and the rule, or empty.
    static func peakRule(_ q: QueueID, lower: Bool, _ scenario: Scenario, _ history: RunFacts) -> String {
        guard let f = history.queue(q) else { return "" }
        let peak = history.peak(of: q)
        let changed = f.capChange.map { (time($0.stamp), $0.cause) }
        if scenario[queue: q].isMain { return ": the main queue runs one operation at a time" }
        let name = scenario.queueName(q)
        if lower {
            if f.highestBusyCap > 0, f.highestBusyCap <= peak {
                if changed == nil || f.cap == f.highestBusyCap {
                    return ": " + RuleWords.cap(of: q, f.cap, changed: changed, in: scenario)
                }
                return ": \(Spelling.possessive(name)) cap was at most "
                    + busyCap(q, f, scenario) + " while its operations ran" + capLater(f, scenario)
            }
            if f.mostHolding > peak {
                return ": up to \(f.mostHolding) of its operations held a slot at once, but some of them were "
                    + "dispatched and waited for a worker thread (\(RuleWords.threadRule))"
            }
            return ""
        }
        if changed == nil || f.highestBusyCap == (f.cap ?? Int.max) {
            return ": " + RuleWords.cap(of: q, f.cap, changed: changed, in: scenario)
        }
        let highest = f.highestBusyCap == Int.max ? "" : "as high as "
        return ": \(Spelling.possessive(name)) cap was \(highest)" + busyCap(q, f, scenario)
            + " while its operations ran" + capLater(f, scenario)
    }

    /// The highest cap in force while `q`'s operations held slots, and what
    /// set it: `the system's default (its queue line, line 2)`.
    private static func busyCap(_ q: QueueID, _ f: RunFacts.QueueFacts, _ scenario: Scenario) -> String {
        let value = f.highestBusyCap == Int.max ? nil : f.highestBusyCap
        let changed = f.highestBusyCapBy.map { (time($0.stamp), $0.cause) }
        return RuleWords.capValue(of: q, value, changed: changed, in: scenario)
    }

    /// `; it became 2 only at 0.020s (by 'at 20ms max uploads 2', line 9)`:
    /// the last change, when the cap it left is not the one in force now.
    private static func capLater(_ f: RunFacts.QueueFacts, _ scenario: Scenario) -> String {
        guard let change = f.capChange, f.highestBusyCap != (f.cap ?? Int.max) else { return "" }
        let value = f.cap.map(String.init) ?? "the system's default"
        return "; it became \(value) only at \(time(change.stamp))"
            + RuleWords.cause(change.cause, in: scenario, lines: true)
    }

    // MARK: - Cancels

    /// ` (by 'at 1s cancel upload')` for a cancel an action made.
    static func cancelCause(_ op: OperationID, _ scenario: Scenario, _ history: RunFacts) -> String {
        RuleWords.cause(history[op].cancelCause, in: scenario, lines: true)
    }

    /// Why `op` is still unfinished: ` (it never posted isFinished)`.
    static func stallClause(_ op: OperationID, _ scenario: Scenario, _ history: RunFacts) -> String {
        guard case .stalled(let reasons)? = history.outcome, let reason = reasons[op] else { return "" }
        return " (\(reason.clause(in: scenario, reasons: reasons)))"
    }
}
