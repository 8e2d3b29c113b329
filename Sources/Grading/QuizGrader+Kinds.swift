import Board
import RunEvents
import ScenarioKit
import TextKit

/// The answers that are counts or sets: one row per queue (peak), per
/// state (counts) or per operation (main-thread), each wrong row
/// explained by what the run did.
extension QuizGrader {
    static func peak(_ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [(QueueID, Int)]) -> QuizGrade {
        let given = Dictionary(answer, uniquingKeysWith: { first, _ in first })
        let asked = QuizAnswerParser.askedQueues(scenario)
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        for q in asked {
            let actual = explainer.timeline.peak(of: q)
            let yours = given[q]
            rows.append(
                QuizGrade.Row(
                    label: scenario.queueName(q), yours: yours.map(String.init) ?? "—", actual: String(actual),
                    time: "", right: yours == actual, moment: explainer.peakMoment(of: q)?.0.seq))
            if yours != actual {
                let versus = yours.map { "not \($0)" } ?? "you gave no number"
                explanations.append("\(scenario.queueName(q)): \(actual) at most, \(versus) — \(explainer.whyPeak(q))")
            }
        }
        return graded(.peak, rows, explanations)
    }

    static func counts(_ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [FinalState: Int]) -> QuizGrade {
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        var byState: [FinalState: [OperationID]] = [:]
        for op in ops { byState[explainer.finalState(of: op), default: []].append(op) }
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        // A state neither given nor in the run asks nothing: no row, no point.
        for state in FinalState.allCases where answer[state] != nil || byState[state] != nil {
            let those = byState[state] ?? []
            let yours = answer[state] ?? 0
            rows.append(
                QuizGrade.Row(
                    label: state.rawValue, yours: answer[state].map(String.init) ?? "—", actual: String(those.count),
                    time: "", right: yours == those.count))
            guard yours != those.count else { continue }
            guard let first = those.first else {
                explanations.append("\(state.rawValue): none, not \(yours) — no operation ended \(state.rawValue)")
                continue
            }
            let example = "\(scenario.opName(first)): " + explainer.howItEnded(first)
            guard those.count > 1 else {
                explanations.append("\(state.rawValue): 1, not \(yours) — \(example)")
                continue
            }
            let names = Spelling.list(those.prefix(8).map { scenario.opName($0) })
            let more = those.count > 8 ? " and \(those.count - 8) more" : ""
            explanations.append("\(state.rawValue): \(those.count), not \(yours) — \(names)\(more); \(example)")
        }
        return graded(.counts, rows, explanations)
    }

    static func mainThread(_ scenario: Scenario, _ explainer: QuizExplainer, _ answer: Set<OperationID>) -> QuizGrade {
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        for op in ops {
            let thread = explainer.timeline[op].thread
            let actual = thread?.isMain == true
            let yours = answer.contains(op)
            rows.append(
                QuizGrade.Row(
                    label: scenario.opName(op), yours: yours ? "main" : "—",
                    actual: thread.map { $0.isMain ? "main" : "thread \($0)" } ?? "never ran", time: "",
                    right: yours == actual, moment: explainer.timeline[op].started?.seq))
            if yours != actual {
                explanations.append("\(scenario.opName(op)): \(explainer.whereItRan(op))")
            }
        }
        return graded(.mainThread, rows, explanations)
    }

    static func graded(
        _ kind: QuizKind, _ rows: [QuizGrade.Row], _ explanations: [String], notes: [String] = []
    ) -> QuizGrade {
        let score = rows.filter(\.right).count
        return QuizGrade(
            kind: kind, score: score, total: rows.count, inOrder: score, extraNames: 0, isCorrect: score == rows.count,
            rows: rows, explanations: QuizExplainer.withoutRepeats(explanations), notes: notes)
    }
}

extension QuizExplainer {
    /// When `q` first had the most operations executing at once, and which.
    func peakMoment(of q: QueueID) -> (RunTimeline.Stamp, [OperationID])? {
        let most = timeline.peak(of: q)
        guard most > 0 else { return nil }
        var executing: [OperationID] = []
        for event in timeline.events {
            guard case .operation(let op, let key, _, .bool(let value)) = event.kind, scenario.contains(op),
                scenario[operation: op].queue == q
            else { continue }
            if key == .isExecuting && value {
                if !executing.contains(op) { executing.append(op) }
            } else if key == .isExecuting || (key == .isFinished && value) {
                executing.removeAll { $0 == op }
            }
            if executing.count == most { return (RunTimeline.Stamp(seq: event.seq, time: event.time), executing) }
        }
        return nil
    }

    /// Why `q` had no more operations executing at once than it had.
    func whyPeak(_ q: QueueID) -> String {
        let qName = queueName(q)
        guard let (stamp, ids) = peakMoment(of: q) else {
            return "none of \(Spelling.possessive(qName)) operations ever executed"
        }
        if scenario[queue: q].isMain {
            return "the main queue runs one operation at a time, on the main thread"
        }
        let names = scenario.opNames(ids)
        let cap = timeline.board(through: stamp.seq)[queue: q].limit
        if ids.count == 1 {
            let serial = cap == 1 ? ": its cap was 1 (a serial queue)" : ""
            return "no two of its operations executed at once; the first to execute was \(names), at \(time(stamp))"
                + serial
        }
        if let cap, cap == ids.count {
            return "\(names) were executing at once at \(time(stamp)), as many as its cap (\(cap)) then"
        }
        let capText = cap.map { "its cap was \($0) then" } ?? "its cap left it to the system"
        return "the most executing at once was \(ids.count), first at \(time(stamp)) (\(names)); \(capText)"
    }

    /// Where `op` ran: the main thread and why, or another thread.
    func whereItRan(_ op: OperationID) -> String {
        let spec = scenario[operation: op]
        let qName = queueName(spec.queue)
        let byHand = scenario.startedByHand.contains(op)
        guard let thread = timeline[op].thread else {
            if byHand, timeline[op].cancelled == nil {
                return "it never ran: it is in no queue, and the main thread never called its start()"
            }
            return "it never ran: \(stallReason(op) ?? "it was cancelled before it started")"
        }
        if byHand {
            return thread.isMain
                ? "it is in no queue: the main thread called its start() by hand, and "
                    + (spec.body.isAsync ? "it began there" : "start() ran its main() right there, on the main thread")
                : "its start() was called by hand on thread \(thread)"
        }
        if thread.isMain {
            return scenario[queue: spec.queue].isMain
                ? "it ran on the main thread: its queue \(qName) is OperationQueue.main, which runs its operations "
                    + "there, one at a time"
                : "its start() ran on the main thread"
        }
        let verb = spec.body.isAsync ? "its start() ran on" : "it ran on"
        return "\(verb) thread \(thread), not the main thread: \(qName) is not the main queue, and an operation "
            + "queue other than OperationQueue.main runs its operations on threads of the pool"
    }
}
