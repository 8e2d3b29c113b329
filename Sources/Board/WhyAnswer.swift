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

    /// When `op` started, in one sentence naming the link that cost the
    /// most (`CriticalPath.summary`), then the chain that decided it; or
    /// why it never started, as far as the run tells.
    public static func chain(to op: OperationID, in timeline: RunTimeline) -> (lines: [String], started: Bool) {
        var lines: [String] = []
        let started = chain(to: op, in: timeline, path: timeline.criticalPath(to: op)) { lines.append($0) }
        return (lines, started)
    }

    /// The same, each line handed to `line` as it is made (a chain of
    /// 100,000 operations is 200,000 lines: `why` writes them as they
    /// come), from `path`, `op`'s chain in `timeline`. True when it started.
    public static func chain(
        to op: OperationID, in timeline: RunTimeline, path: CriticalPath?, line: (String) -> Void
    ) -> Bool {
        let scenario = timeline.scenario
        let name = scenario.opName(op)
        guard let path else {
            line(neverStarted(op, in: timeline))
            refusedStarts(of: op, in: timeline).forEach(line)
            return false
        }
        let place =
            timeline.isByHand(op)
            ? "the main thread, by hand (it is in no queue)" : scenario.queueName(scenario[operation: op].queue)
        line(path.summary(in: timeline))
        line(
            "\(name) started at \(Spelling.seconds(path.started)) on \(place). What decided when, from the start of "
                + "the run:")
        let byHand = scenario.startedByHand
        for step in path.steps { line(path.line(step, timeline: timeline, byHand: byHand)) }
        line(path.total())
        refusedStarts(of: op, in: timeline, before: timeline[op].started?.seq).forEach(line)
        return true
    }

    /// The `start` actions of `op` whose call was not made (before `seq`,
    /// when given), one line each: `  start() not called at 0.101s (line 8):
    /// not ready (…)`.
    static func refusedStarts(of op: OperationID, in timeline: RunTimeline, before seq: Int? = nil) -> [String] {
        let scenario = timeline.scenario
        var lines: [String] = []
        for event in timeline.events where seq.map({ event.seq < $0 }) ?? true {
            guard case .action(.start(op), let origin, let refusal?) = event.kind else { continue }
            lines.append(
                "  start() not called at \(Spelling.seconds(event.time)) (\(EventFormatter.byText(origin, in: scenario))): "
                    + refusal.text)
        }
        return lines
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

    /// `y` holds a slot of the queue `x` waits for in a stalled run
    /// (directly, or through the operation its dependencies wait for):
    /// not a dependency, so said as what it is. nil otherwise.
    public static func holdsSlot(_ y: OperationID, for x: OperationID, in timeline: RunTimeline) -> String? {
        guard case .stalled(let stuck)? = timeline.outcome else { return nil }
        let scenario = timeline.scenario
        var waiter = x
        if case .waitsFor(_, let root)? = stuck[x] { waiter = root }
        guard case .waitsForSlot(let q, _, let holders)? = stuck[waiter], holders.contains(y) else { return nil }
        let through = waiter == x ? "" : " (through \(scenario.opName(waiter)), which waits for one)"
        return "in this run, \(scenario.opName(y)) holds a slot of \(scenario.queueName(q)) that "
            + "\(scenario.opName(x)) waits for\(through): it started and never finished"
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
                return "\(name) never started: the run stalled, and \(reason.clause(in: scenario, reasons: stuck))"
            }
            return "\(name) never started: the run stalled"
        case .completed?:
            return "\(name) never started, and the run completed"
        case nil:
            return "\(name) had not started when the run's events end"
        }
    }
}
