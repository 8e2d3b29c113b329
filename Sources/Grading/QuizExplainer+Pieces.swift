import Board
import RunEvents
import ScenarioKit
import TextKit

extension QuizExplainer {
    // MARK: - Pieces

    /// Among what `op` waits for (its dependencies; on its queue, the
    /// barrier ordering), the one that finished last before `seq`.
    func lastPrerequisite(of op: OperationID, before seq: Int) -> (OperationID, RunTimeline.Stamp)? {
        var candidates = Array(scenario[operation: op].dependencies)
        let spec = scenario[operation: op]
        if let added = timeline[op].added {
            for (i, other) in scenario.operations.enumerated() where other.queue == spec.queue {
                let id = OperationID(i)
                guard id != op, let otherAdded = timeline[id].added, otherAdded.seq < added.seq else { continue }
                if other.isBarrier || spec.isBarrier { candidates.append(id) }
            }
        }
        var best: (OperationID, RunTimeline.Stamp)?
        for id in candidates {
            guard let f = timeline[id].finished, f.seq <= seq else { continue }
            if f.seq > (best?.1.seq ?? Int.min) { best = (id, f) }
        }
        return best
    }

    func stallReason(_ op: OperationID) -> String? {
        guard case .stalled(let stuck) = timeline.outcome, let reason = stuck[op] else {
            return timeline.outcome == nil && timeline[op].finished == nil ? "the run was stopped before it ended" : nil
        }
        return reason.clause(in: scenario)
    }

    func causeText(_ cause: RunTimeline.Cause?) -> String { RuleWords.cause(cause, in: scenario) }

    func addActionText(_ op: OperationID) -> String { RuleWords.addAction(op, in: scenario) }

    func isAddedLater(_ op: OperationID) -> Bool { scenario.addedLater.contains(op) }

    func at(_ stamp: RunTimeline.Stamp?) -> String { stamp.map { " at \(time($0))" } ?? "" }
    func time(_ stamp: RunTimeline.Stamp) -> String { Spelling.seconds(stamp.time) }
    func name(_ op: OperationID) -> String { scenario.opName(op) }
    func queueName(_ q: QueueID) -> String { scenario.queueName(q) }
}
