import Board
import RunEvents
import ScenarioKit
import TextKit

/// `columns at TIME`: how many operations sit in each column of the board
/// at a moment. One row per column the learner gave a count for or the
/// board had operations in (a column both left empty asks nothing); each
/// wrong row names the operations that were there and why the first of
/// them was there and not further on.
extension QuizGrader {
    static func columns(_ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [Phase: Int]) -> QuizGrade {
        let moment = scenario.quiz?.moment?.seconds ?? 0
        let board = explainer.timeline.board(atTime: moment)
        var byColumn: [Phase: [OperationID]] = [:]
        for card in board.cards where !card.isBarrier { byColumn[card.phase, default: []].append(card.id) }
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        let at = Spelling.seconds(moment)
        for column in Phase.columns {
            let those = byColumn[column] ?? []
            let yours = answer[column]
            guard yours != nil || !those.isEmpty else { continue }
            let right = (yours ?? 0) == those.count
            let moment = those.first.flatMap { explainer.columnMoment(of: $0, in: column, at: board) }
            rows.append(
                QuizGrade.Row(
                    label: column.rawValue, yours: yours.map(String.init) ?? "—", actual: String(those.count),
                    time: "", right: right, moment: moment?.seq))
            guard !right else { continue }
            let versus = yours.map { "not \($0)" } ?? "you gave none"
            guard let first = those.first else {
                explanations.append(
                    "\(column.rawValue): none at \(at), \(versus) — no operation was \(column.rawValue) then")
                continue
            }
            let names = Spelling.list(those.prefix(8).map { scenario.opName($0) })
            let more = those.count > 8 ? " and \(those.count - 8) more" : ""
            explanations.append(
                "\(column.rawValue): \(those.count) at \(at), \(versus) — \(names)\(more); "
                    + explainer.whyInColumn(first, column, at: board))
        }
        return graded(.columns, rows, explanations)
    }
}

extension QuizExplainer {
    /// The event that put `op` in `column` by the time of `board`.
    func columnMoment(of op: OperationID, in column: Phase, at board: BoardState) -> RunTimeline.Stamp? {
        let f = timeline[op]
        let stamp: RunTimeline.Stamp? =
            switch column {
            case .pending, .notAdded: f.added
            case .ready: f.ready
            case .executing: f.started
            case .finished, .cancelled: f.finished
            }
        return stamp.flatMap { $0.seq <= board.lastSeq ? $0 : nil }
    }

    /// Why `op` sat in `column` on `board` and not further on: what it
    /// waited for, what held it back, or when it got there.
    func whyInColumn(_ op: OperationID, _ column: Phase, at board: BoardState) -> String {
        let opName = name(op)
        let f = timeline[op]
        switch column {
        case .notAdded:
            return "\(opName) was not added yet"
        case .executing:
            let since = f.started.map { " since \(time($0))" } ?? ""
            if f.finished == nil, let reason = stallReason(op) {
                return "\(opName) was executing\(since) and never finished: \(reason)"
            }
            return "\(opName) was executing\(since): it had not finished yet"
        case .finished:
            return "\(opName) had finished\(at(f.finished))"
        case .cancelled:
            let when = f.cancelled.map { " at \(time($0))\(causeText(f.cancelCause))" } ?? ""
            let ran =
                f.started.map { $0.seq < (f.cancelled?.seq ?? Int.max) ? " while it was executing" : "" }
                ?? " before it started"
            return "\(opName) was cancelled\(when)\(ran) and had finished\(at(f.finished))"
        case .pending, .ready:
            let reasons = board.whyNotRunning(op).compactMap { heldBack(op, $0, on: board) }
            guard !reasons.isEmpty else { return "\(opName) had not started yet" }
            return "\(opName) " + reasons.joined(separator: ", and ")
        }
    }

    /// One reason `op` was not executing on `board`, as a clause after its name.
    private func heldBack(_ op: OperationID, _ reason: NotRunningReason, on board: BoardState) -> String? {
        let q = board[operation: op].queue
        switch reason {
        case .notAdded:
            return "was not added yet"
        case .startsByHand:
            return "is in no queue, and the main thread had not called its start() yet"
        case .waitingFor(let ids):
            return "waited for \(scenario.opNames(ids)), which had not finished"
        case .queueSuspended:
            return "waited: its queue \(queueName(q)) was suspended"
        case .queueAtCap(_, let dispatched, let cap):
            let running = board.cards.filter { $0.queue == q && $0.isExecuting }.map(\.id)
            let waiting = dispatched > 0 ? ", \(dispatched) more dispatched and waiting for a thread" : ""
            // A start() that returned unfinished holds its slot for good.
            let stranded = board.cards.filter { $0.queue == q && $0.stranded }.map(\.id)
            let held = stranded.isEmpty ? "" : "; \(scenario.opNames(stranded)) started and never finished"
            return "was ready, but its queue \(queueName(q)) was at its cap (\(EventFormatter.capText(cap))) "
                + "(\(running.isEmpty ? "none" : scenario.opNames(running)) executing\(waiting)\(held))"
        case .behindHigherPriority(let count, _, _):
            return "was ready, behind \(Spelling.count(count, "ready operation")) of \(queueName(q)) that the queue "
                + "takes first (higher priority, or added earlier)"
        case .dispatchedWaitingForThread:
            if board[queue: q].isMain { return "was dispatched to the main queue, waiting for the main thread" }
            return "was dispatched by \(queueName(q)) and waited for a worker thread (\(RuleWords.threadRule))"
        case .dispatchedBehindBarrier(let barrier):
            return "was dispatched while the barrier \(name(barrier)) ran, and waited behind its block"
        }
    }
}
