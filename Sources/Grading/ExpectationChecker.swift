import Board
import RunEvents
import ScenarioKit
import TextKit

/// Judges a scenario's `expect` claims against the events of a run, and
/// gives the run's verdict (`passes`), which decides `opscope trace`'s
/// exit status.
///
/// Semantics are SCENARIO-LANGUAGE.md's `expect CLAIM`. Where it is silent:
/// - `skipped OP` holds when OP was cancelled before it ever started and
///   never started, whether or not it finished: a cancelled operation in a
///   queue suspended for good never finishes, yet its work never ran,
///   which is what the claim is about (the run then stalls, and
///   `expect stuck OP` says so too).
/// - `peak Q N` counts barriers as operations of Q.
/// - `stuck OP` fails when the run never ended: nobody can say yet.
/// - Claims are judged on whatever the stream holds, also when the run did
///   not end; `passes` then fails the run anyway.
public enum ExpectationChecker {
    /// - Parameter outcome: how the run ended, when the stream does not
    ///   say (a run that waits for the user after a stall is judged as if
    ///   it had stalled there); nil takes the stream's `.end`.
    public static func evaluate(
        _ scenario: Scenario, events: some Sequence<LifecycleEvent>, outcome: RunOutcome? = nil
    ) -> [ExpectationResult] {
        var judge = ExpectationJudge(scenario: scenario)
        for event in events { judge.record(event) }
        return judge.results(outcome: outcome)
    }

    /// The run's verdict, what decides `opscope trace`'s status: true
    /// (status 0) when the run ended and every claim held; false (status
    /// 1) when a claim failed, the run never ended (`outcome` nil), or it
    /// stalled on an operation that no `expect stuck` names.
    public static func passes(
        outcome: RunOutcome?, results: [ExpectationResult], scenario: Scenario
    ) -> Bool {
        guard let outcome, results.allSatisfy(\.held) else { return false }
        guard case .stalled(let stuck) = outcome else { return true }
        let expectedStuck = Set(
            scenario.expectations.compactMap { e -> OperationID? in
                if case .stuck(let op) = e.claim { return op }
                return nil
            })
        return stuck.keys.allSatisfy(expectedStuck.contains)
    }

    // MARK: - Claims

    static func judge(
        _ claim: Claim, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let name = scenario.opName
        /// A queue's peak, and the words every peak claim starts with.
        func peakSeen(_ q: QueueID) -> (Int, String) {
            let peak = history.peak(of: q)
            return (peak, "peak of \(scenario.queueName(q)) was \(peak)")
        }
        switch claim {
        case .before(let a, let b):
            return before(a, b, scenario, history)
        case .order(let ids):
            return order(ids, scenario, history)
        case .concurrent(let ids):
            return concurrent(ids, scenario, history)
        case .peak(let q, let n):
            let (peak, text) = peakSeen(q)
            return peak == n
                ? (true, text) : (false, "\(text), not \(n)" + peakRule(q, lower: peak < n, scenario, history))
        case .finished(let op):
            let facts = history[op]
            guard let finished = facts.finished else {
                return (false, "\(name(op)) never finished" + stallClause(op, scenario, history))
            }
            if facts.cancelledWhenFinished, let c = facts.cancelled {
                let when =
                    facts.started.map { $0.seq < c.seq } ?? false ? "while it was executing" : "before it started"
                return (
                    false,
                    "\(name(op)) was cancelled at \(time(c))\(cancelCause(op, scenario, history)) \(when) "
                        + "(it finished at \(time(finished)))"
                )
            }
            return (true, "\(name(op)) finished at \(time(finished))")
        case .cancelled(let op):
            return cancelled(op, scenario, history)
        case .skipped(let op):
            return skipped(op, scenario, history)
        case .stuck(let op):
            return stuck(op, scenario, history)
        case .peakAtMost(let q, let n):
            let (peak, text) = peakSeen(q)
            return peak <= n
                ? (true, "\(text), at most \(n)")
                : (false, "\(text), more than \(n)" + peakRule(q, lower: false, scenario, history))
        case .peakAtLeast(let q, let n):
            let (peak, text) = peakSeen(q)
            return peak >= n
                ? (true, "\(text), at least \(n)")
                : (false, "\(text), fewer than \(n)" + peakRule(q, lower: true, scenario, history))
        case .dependsOn(let a, let b):
            return dependsOn(a, b, scenario)
        case .neverTogether(let ids):
            return neverTogether(ids, scenario, history)
        case .completionBefore(let a, let b):
            return completionBefore(a, b, scenario, history)
        case .onMain(let op, let on):
            return onMain(op, on, scenario, history)
        case .mainNeverBlockedOver(let limit):
            return mainNeverBlocked(over: limit, scenario, history)
        case .finishedBy(let op, let time):
            return finishedBy(op, time, scenario, history)
        }
    }

    private static func before(
        _ a: OperationID, _ b: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let (nameA, nameB) = (scenario.opName(a), scenario.opName(b))
        guard let started = history[b].started else { return (false, "\(nameB) never started") }
        guard let finished = history[a].finished else {
            return (false, "\(nameB) started at \(time(started)) but \(nameA) never finished")
        }
        if finished.seq < started.seq {
            return (true, "\(nameA) finished at \(time(finished)), \(nameB) started at \(time(started))")
        }
        return (
            false,
            "\(nameB) started at \(time(started)), before \(nameA) finished at \(time(finished))"
                + notWaiting(b, for: a, scenario)
        )
    }

    private static func order(
        _ ids: [OperationID], _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        if let missing = neverStarted(ids, scenario, history) { return (false, missing) }
        let actual = ids.sorted { history[$0].started!.seq < history[$1].started!.seq }
        let list = actual.map { "\(scenario.opName($0)) at \(time(history[$0].started!))" }
            .joined(separator: ", ")
        guard let i = ids.indices.first(where: { actual[$0] != ids[$0] }) else {
            return (true, "started in order: \(list)")
        }
        return (false, "started in another order: \(list)" + whyStarted(actual[i], before: ids[i], scenario, history))
    }

    private static func concurrent(
        _ ids: [OperationID], _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        if let missing = neverStarted(ids, scenario, history) { return (false, missing) }
        let names = scenario.opNames(ids)
        // Watched by the judge's facts (RunFacts.forExpectations).
        let (moment, most) = history.overlap(of: Set(ids)) ?? (nil, 0)
        if let moment { return (true, "\(names) were \(ids.count == 2 ? "both" : "all") executing at \(time(moment))") }
        return (false, "\(names) were never executing at once (at most \(most) at a time)")
    }

    private static func cancelled(
        _ op: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let facts = history[op]
        let name = scenario.opName(op)
        switch (facts.cancelled, facts.finished) {
        case (let c?, let f?) where facts.cancelledWhenFinished:
            return (true, "\(name) was cancelled at \(time(c)) and finished at \(time(f))")
        case (_, let f?):
            return (
                false,
                "\(name) finished at \(time(f)) without being cancelled" + cancelledDependencies(op, scenario, history)
            )
        case (let c?, nil):
            return (
                false, "\(name) was cancelled at \(time(c)) but never finished" + stallClause(op, scenario, history)
            )
        case (nil, nil):
            return (false, "\(name) was never cancelled and never finished")
        }
    }

    private static func skipped(
        _ op: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let facts = history[op]
        let name = scenario.opName(op)
        if let started = facts.started {
            if let c = facts.cancelled {
                return (
                    false,
                    "\(name) started at \(time(started)), before the cancel at \(time(c))"
                        + "\(cancelCause(op, scenario, history)): \(RuleWords.cancelOnlySetsFlag)"
                )
            }
            return (
                false,
                "\(name) started at \(time(started)) and was never cancelled"
                    + cancelledDependencies(op, scenario, history)
            )
        }
        guard let c = facts.cancelled else { return (false, "\(name) was never cancelled") }
        guard let f = facts.finished else {
            return (true, "\(name) was cancelled at \(time(c)) before it started and never ran (nor finished)")
        }
        return (
            true, "\(name) was cancelled at \(time(c)) before it started and finished at \(time(f)) without running"
        )
    }

    private static func stuck(
        _ op: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let name = scenario.opName(op)
        if let f = history[op].finished { return (false, "\(name) finished at \(time(f))") }
        switch history.outcome {
        case nil:
            return (false, "the run never ended")
        case .completed:
            return (true, "\(name) had not finished when the run ended")
        case .stalled(let reasons):
            let why = reasons[op].map { " (\($0.clause(in: scenario, reasons: reasons)))" } ?? ""
            return (true, "\(name) had not finished when the run stalled\(why)")
        }
    }

    // MARK: - Wording

    private static func neverStarted(
        _ ids: [OperationID], _ scenario: Scenario, _ history: RunFacts
    ) -> String? {
        let missing = ids.filter { history[$0].started == nil }
        guard !missing.isEmpty else { return nil }
        return "\(scenario.opNames(missing)) never started"
    }

    static func time(_ stamp: RunFacts.Stamp) -> String { Spelling.seconds(stamp.time) }
}

/// Judges a scenario's `expect` claims as its run goes, one event at a
/// time, keeping only the facts the claims ask about (`RunFacts`): what a
/// command that prints the stream and lets it go needs (`trace`).
public struct ExpectationJudge: Sendable {
    public let scenario: Scenario
    /// The facts so far: the operations the claims name, the peaks, the
    /// outcome, the timed actions performed.
    public private(set) var facts: RunFacts

    public init(scenario: Scenario) {
        self.scenario = scenario
        facts = .forExpectations(of: scenario)
    }

    public mutating func record(_ event: LifecycleEvent) { facts.record(event) }

    /// The verdicts on the events recorded so far; `outcome` as for
    /// `ExpectationChecker.evaluate`.
    public func results(outcome: RunOutcome? = nil) -> [ExpectationResult] {
        var history = facts
        if let outcome { history.outcome = outcome }
        return scenario.expectations.map { expectation in
            let (held, explanation) = ExpectationChecker.judge(expectation.claim, scenario, history)
            return ExpectationResult(expectation: expectation, held: held, explanation: explanation)
        }
    }
}

/// A judge follows the stream like any other reader of it.
extension ExpectationJudge: EventReader {
    public mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch { record(event) }
    }
}
