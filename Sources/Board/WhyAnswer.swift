import RunEvents
import ScenarioKit
import TextKit

/// `opscope why`'s answers, pure: whether one operation waits for another
/// in the file, and the chain of what held an operation back in a run.
public enum WhyAnswer {
    /// "Does `x` wait for `y`?" from the file's `after` clauses: yes with
    /// the path, or no with what `x` depends on (and the other way round,
    /// when `y` waits for `x`).
    public static func waitsFor(_ x: OperationID, _ y: OperationID, in scenario: Scenario) -> (String, Bool) {
        let (nameX, nameY) = (scenario.opName(x), scenario.opName(y))
        if x == y { return ("\(nameX) is \(nameY): an operation does not wait for itself", false) }
        if let path = scenario.dependencyPath(from: x, to: y) {
            let line = scenario[operation: x].location.line
            let at = line > 0 ? " (line \(line))" : ""
            if path.count == 2 { return ("yes: \(nameX) waits for \(nameY) directly, an 'after' clause\(at)", true) }
            return (
                "yes: \(nameX) waits for \(nameY) through " + path.map(scenario.opName).joined(separator: " → "), true
            )
        }
        let deps = scenario[operation: x].dependencies
        let own =
            deps.isEmpty
            ? "it has no dependency"
            : "its \(deps.count == 1 ? "dependency is" : "dependencies are") \(scenario.opNames(deps))"
        var text = "no: \(nameX) does not wait for \(nameY), directly or through others; \(own)"
        if let back = scenario.dependencyPath(from: y, to: x) {
            text += "; it is the other way round: " + back.map(scenario.opName).joined(separator: " → ")
        }
        return (text, false)
    }

    /// When `op` started and the chain that decided it; or why it never
    /// started, as far as the run tells.
    public static func chain(to op: OperationID, in timeline: RunTimeline) -> (lines: [String], started: Bool) {
        let scenario = timeline.scenario
        let name = scenario.opName(op)
        guard let path = timeline.criticalPath(to: op) else {
            return ([neverStarted(op, in: timeline)], false)
        }
        let queue = scenario.queueName(scenario[operation: op].queue)
        var lines = [
            "\(name) started at \(Spelling.seconds(path.started)) on \(queue). What decided when, from the start of "
                + "the run:"
        ]
        lines += path.lines(in: timeline)
        lines.append(path.total())
        return (lines, true)
    }

    /// `y` on the chain of `path`: it ran, and what follows waited for it.
    public static func onTheChain(_ y: OperationID, _ path: CriticalPath, in scenario: Scenario) -> String? {
        let ran = path.steps.contains { if case .ran(y) = $0.link { true } else { false } }
        let name = scenario.opName(y)
        guard ran else {
            return "in this run, \(name) is not on the chain that decided when \(scenario.opName(path.operation)) "
                + "started"
        }
        return "in this run, \(name) is on the chain that decided when \(scenario.opName(path.operation)) started"
    }

    static func neverStarted(_ op: OperationID, in timeline: RunTimeline) -> String {
        let scenario = timeline.scenario
        let name = scenario.opName(op)
        let facts = timeline[op]
        if let cancelled = facts.cancelled {
            let ending = facts.finished.map { " and finished at \(Spelling.seconds($0.time)) without running" } ?? ""
            return "\(name) never started: it was cancelled at \(Spelling.seconds(cancelled.time)) before it "
                + "started\(ending)"
        }
        switch timeline.outcome {
        case .stalled(let stuck)?:
            if let reason = stuck[op] {
                return "\(name) never started: the run stalled, and \(reason.clause(in: scenario))"
            }
            return "\(name) never started: the run stalled"
        case .completed?:
            return "\(name) never started, and the run completed"
        case nil:
            return "\(name) had not started when the run's events end"
        }
    }
}
