import Board
import FoundationRules
import RunEvents
import ScenarioKit
import TextKit

/// The words of each rule of the queue engine, in one place: the quiz's
/// explanations (`QuizExplainer`) and the failed expectations
/// (`ExpectationChecker`) say a rule with the same sentence.
///
/// Each is a fragment, lower-case, with no final period, times in scenario
/// seconds; the callers put the evidence around it.
enum RuleWords {
    /// This Foundation's link between QoS and the priority bucket.
    static let qosRule = "this Foundation turns QoS into priority only when no priority is set and the cap is not 1"
    /// Why a dispatched operation can wait.
    static let threadRule = "synchronous work holds a thread; the pool grows about one thread a second"
    /// Why a dependent ran although its dependency was cancelled.
    static let cancelledCountsAsFinished = "a cancelled dependency counts as finished"
    /// Why a dependent of a cancelled operation was not cancelled too.
    static let cancelDoesNotCascade = "cancelling one does not cancel what depends on it"
    /// Why a cancel that came after the start did not skip the work.
    static let cancelOnlySetsFlag = "cancel on an executing operation only sets the flag"
    /// How a queue picks among its ready operations.
    static let barrierFirst = "a queue runs a barrier before any other operation"

    /// Why two operations could run at once: a barrier keeps out only its
    /// own queue's operations; operations on two queues, or on one that
    /// ran both, that do not wait for each other.
    static func together(_ a: OperationID, _ b: OperationID, in scenario: Scenario) -> String {
        let (specA, specB) = (scenario[operation: a], scenario[operation: b])
        guard scenario.dependencyPath(from: a, to: b) == nil, scenario.dependencyPath(from: b, to: a) == nil else {
            return ""
        }
        let (qa, qb) = (scenario.queueName(specA.queue), scenario.queueName(specB.queue))
        if specA.queue != specB.queue {
            if let (barrier, other) = specA.isBarrier ? (a, b) : specB.isBarrier ? (b, a) : nil {
                let (qBarrier, qOther) = barrier == a ? (qa, qb) : (qb, qa)
                return ": \(scenario.opName(barrier)) is a barrier of \(qBarrier) and \(scenario.opName(other)) is on "
                    + "\(qOther): a barrier keeps out only the operations of its own queue"
            }
            return ": \(scenario.opName(a)) is on \(qa) and \(scenario.opName(b)) on \(qb), and neither waits for the "
                + "other"
        }
        return ": neither waits for the other, and \(qa) ran both"
    }

    // MARK: - Dependencies

    /// What `op` depends on directly: `its dependency is fetch`, `it has
    /// no dependency`.
    static func dependencies(of op: OperationID, in scenario: Scenario) -> String {
        let deps = scenario[operation: op].dependencies
        guard !deps.isEmpty else { return "it has no dependency" }
        return "its \(deps.count == 1 ? "dependency is" : "dependencies are") " + scenario.opNames(deps)
    }

    /// `thumb does not depend on decode (its dependency is fetch)`.
    static func doesNotDependOn(_ b: OperationID, _ a: OperationID, in scenario: Scenario) -> String {
        "\(scenario.opName(b)) does not depend on \(scenario.opName(a)) (\(dependencies(of: b, in: scenario)))"
    }

    /// `although fetch was cancelled: a cancelled dependency counts as
    /// finished`.
    static func ranAlthoughCancelled(_ cancelled: [OperationID], in scenario: Scenario) -> String {
        "although \(scenario.opNames(cancelled)) \(cancelled.count == 1 ? "was" : "were") cancelled: "
            + cancelledCountsAsFinished
    }

    /// `X waited for its dependency D, which finished at T`, with the rule
    /// when D finished cancelled.
    static func waitedFor(
        _ op: OperationID, _ d: OperationID, finished: RunFacts.Stamp, cancelled: Bool, in scenario: Scenario
    ) -> String {
        let what = scenario[operation: d].isBarrier ? "the barrier" : "its dependency"
        let how =
            cancelled
            ? "was cancelled and finished at \(time(finished)) (\(cancelledCountsAsFinished))"
            : "finished at \(time(finished))"
        return "\(scenario.opName(op)) was waiting for \(what) \(scenario.opName(d)), which \(how)"
    }

    // MARK: - What asked

    /// ` (by 'at 300ms cancel fetch')`, ` (by fetch's completion block:
    /// 'suspend net')`, ` (by a key press: …)`; empty for no cause.
    /// With `lines`, the line of the file that asked follows (`, line
    /// 12`): a failed expectation names where its cause is written.
    static func cause(_ cause: RunFacts.Cause?, in scenario: Scenario, lines: Bool = false) -> String {
        guard let cause else { return "" }
        let text = ScenarioPrinter.actionText(cause.action, in: scenario)
        switch cause.origin {
        case .timed(let i) where scenario.actions.indices.contains(i):
            let line = lines ? lineText(scenario.actions[i].location) : ""
            return " (by 'at \(ScenarioPrinter.format(scenario.actions[i].time)) \(text)'\(line))"
        case .timed:
            return " (by '\(text)')"
        case .completion(let by):
            let line = lines && scenario.contains(by) ? lineText(scenario[operation: by].location) : ""
            return " (by \(Spelling.possessive(scenario.opName(by))) completion block: '\(text)'\(line))"
        case .user:
            return " (by a key press: '\(text)')"
        case .startBatch:
            return " (by '\(text)' at the start)"
        }
    }

    /// `, line 12`; nothing for a scenario made in code.
    static func lineText(_ location: SourceLocation) -> String {
        location.line > 0 ? ", line \(location.line)" : ""
    }

    /// `declared on line 3`: where a queue's declared cap and
    /// suspension are written.
    static func queueLine(_ q: QueueID, in scenario: Scenario) -> String {
        let line = scenario[queue: q].location.line
        return line > 0 ? "declared on line \(line)" : "declared"
    }

    /// ` (by 'at 500ms add late')` for an operation an `at` line adds.
    static func addAction(_ op: OperationID, in scenario: Scenario) -> String {
        guard let timed = scenario.actions.first(where: { $0.action.addedOperations.contains(op) }) else { return "" }
        return
            " (by 'at \(ScenarioPrinter.format(timed.time)) \(ScenarioPrinter.actionText(timed.action, in: scenario))')"
    }

    // MARK: - The queue

    /// `net's only slot`, `a slot of net (cap 3)`, `the main queue's only slot`.
    static func slot(of q: QueueID, cap: Int?, in scenario: Scenario) -> String {
        let name = scenario.queueName(q)
        if scenario[queue: q].isMain { return "the main queue's only slot" }
        switch cap {
        case 1?: return "\(Spelling.possessive(name)) only slot"
        case let n?: return "a slot of \(name) (cap \(n))"
        case nil: return "a slot of \(name)"
        }
    }

    /// `its queue net was suspended from 0.100s (by …) to 0.400s (by …)`;
    /// without `from`, the queue's suspension began before what is known
    /// (`(it resumed at 0.400s)`).
    /// With `lines`, each action's line follows it, and a queue declared
    /// suspended says so with its queue line.
    static func suspended(
        _ q: QueueID, from: (String, RunFacts.Cause?)?, resumed: (String, RunFacts.Cause?)?, in scenario: Scenario,
        lines: Bool = false
    ) -> String {
        let queue = "its queue \(scenario.queueName(q)) was suspended"
        if from == nil, lines, scenario[queue: q].startsSuspended {
            let declared = queue + " from the start (\(queueLine(q, in: scenario)))"
            guard let (until, byResume) = resumed else { return declared + " and not resumed" }
            return declared + " to \(until)\(cause(byResume, in: scenario, lines: true))"
        }
        guard let (since, by) = from else {
            return queue + (resumed.map { " (it resumed at \($0.0))" } ?? "")
        }
        let began = " from \(since)\(cause(by, in: scenario, lines: lines))"
        guard let (until, byResume) = resumed else { return queue + began + " and not resumed" }
        return queue + began + " to \(until)\(cause(byResume, in: scenario, lines: lines))"
    }

    /// `net's cap was 1 (set at 0.300s by 'at 300ms max net 1', line 9)`,
    /// or the declared cap (`net's cap was 3 (its queue line, line 2)`).
    /// A failed expectation says this, so the line is always named.
    static func cap(
        of q: QueueID, _ cap: Int?, changed: (String, RunFacts.Cause?)?, in scenario: Scenario
    ) -> String {
        let name = scenario.queueName(q)
        if scenario[queue: q].isMain { return "the main queue runs one operation at a time" }
        return "\(Spelling.possessive(name)) cap was " + capValue(of: q, cap, changed: changed, in: scenario)
    }

    /// `1 (set at 0.300s by 'at 300ms max net 1', line 9)`, `the system's
    /// default (its queue line, line 2)`.
    static func capValue(
        of q: QueueID, _ cap: Int?, changed: (String, RunFacts.Cause?)?, in scenario: Scenario
    ) -> String {
        let value = cap.map(String.init) ?? "the system's default"
        guard let (at, by) = changed else { return "\(value) (\(queueLine(q, in: scenario)))" }
        let because = cause(by, in: scenario, lines: true)
        let how = because.isEmpty ? " (set at \(at))" : " (set at \(at) \(because.dropFirst(2))"
        return value + how
    }

    // MARK: - Priority

    /// `fetch has the higher queuePriority (high against normal)`, or `is
    /// filed under the higher priority` when a QoS chose a bucket.
    /// `sources`: where the levels were set (`fetch's is on line 7`), when
    /// the caller names them.
    static func higherPriority(
        _ a: String, _ levelA: PriorityLevel, over levelB: PriorityLevel, fromQoS: Bool, sources: [String] = []
    ) -> String {
        let has = fromQoS ? "is filed under the higher priority" : "has the higher queuePriority"
        let whence = sources.map { "; " + $0 }.joined()
        return "\(a) \(has) (\(levelA.rawValue) against \(levelB.rawValue)\(whence))"
    }

    /// `QoS userInitiated filed x under high priority`.
    static func qosFiled(_ name: String, _ qos: QoSLevel, under level: PriorityLevel) -> String {
        "QoS \(qos.rawValue) filed \(name) under \(level.rawValue) priority"
    }

    /// `the QoS of x did not set a priority: the queue's cap was 1 when it
    /// was added (rule)`; `by`: what made the cap 1, when an action did.
    static func qosIgnored(_ names: [String], by: String = "") -> String {
        "the QoS of \(names.joined(separator: " and ")) did not set a priority: the queue's cap was 1\(by) when "
            + "\(names.count == 1 ? "it was" : "they were") added (\(qosRule))"
    }

    /// `a and b have the same priority (normal): a was added first (file order)`.
    static func sameBucket(_ a: String, _ b: String, _ level: PriorityLevel, order: String) -> String {
        "\(a) and \(b) have the same priority (\(level.rawValue)): \(a) was added first (\(order))"
    }

    static func time(_ stamp: RunFacts.Stamp) -> String { Spelling.seconds(stamp.time) }
}
