import RunEvents
import ScenarioKit
import TextKit

/// What a run that has gone quiet waits for: the next moment of scenario
/// time at which the file says something happens — a timed action, or the
/// end of the work of an operation that is executing. `trace` says it on a
/// terminal when nothing has happened for a while (never in the stream).
///
/// Fed the stream one event at a time; holds what executes now and how far
/// the timed actions went, not the events. The end of an operation's work
/// is its start plus its duration in scenario time: what a run waits for,
/// not a promise of when the engine announces the finish.
public struct NextMoment: Sendable {
    public let scenario: Scenario
    /// Operations executing now, with the scenario time their work ends.
    private var workEnds: [OperationID: Double] = [:]
    /// The timed actions (in `scenario.actions`' order) performed so far.
    private var actionsDone = 0

    public init(scenario: Scenario) { self.scenario = scenario }

    public mutating func record(_ event: LifecycleEvent) {
        switch event.kind {
        case .operation(let op, .isExecuting, _, .bool(let executing)) where scenario.contains(op):
            let spec = scenario[operation: op]
            // The user's class: when its work ends is its code's, not known.
            if executing && !spec.neverFinishes && spec.body.customClass == nil {
                workEnds[op] = event.time + spec.body.totalDuration.seconds
            } else {
                workEnds[op] = nil
            }
        case .operation(let op, .isFinished, _, .bool(true)):
            workEnds[op] = nil
        case .action(_, .timed(let index), _):
            actionsDone = max(actionsDone, index + 1)
        default:
            break
        }
    }

    /// The earliest of the next timed action and the ends of the work
    /// executing now, with its scenario time; nil when neither is left.
    /// Ties go to the action.
    public func next() -> (time: Double, what: String)? {
        var best: (time: Double, what: String)?
        if actionsDone < scenario.actions.count {
            let action = scenario.actions[actionsDone]
            best = (
                action.time.seconds, "the timed action '\(ScenarioPrinter.actionText(action.action, in: scenario))'"
            )
        }
        if let end = workEnds.min(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }),
            end.value < best?.time ?? .infinity
        {
            best = (end.value, "the end of \(Spelling.possessive(scenario[operation: end.key].name)) work")
        }
        return best
    }

    /// The line a terminal shows while the run is quiet at scenario time
    /// `now`, going at `speed`: what comes next, when, and how long that
    /// is in real time; nil when nothing is to come.
    public func waitingLine(now: Double, speed: Double) -> String? {
        guard let (time, what) = next() else { return nil }
        let left = max(time - now, 0)
        return "waiting for \(what) at \(Spelling.seconds(time)): \(Spelling.realTime(seconds: left / speed)) "
            + "from now at speed \(ScenarioPrinter.speedText(speed))"
    }
}
