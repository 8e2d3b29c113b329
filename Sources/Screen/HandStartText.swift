import Board
import RunEvents
import ScenarioKit
import TextKit

/// What the card and the inspector say of an operation started by hand (a
/// `start` action names it): it is in no queue, the main thread calls its
/// `start()` for the file's `start` lines, and each call was made or
/// refused, as the stream's actions tell (`BoardState.actions`).
enum HandStartText {
    /// The file's `start` lines of `op` that the run has not come to yet,
    /// in time order: their index in `Scenario.actions`.
    static func startsToCome(of op: OperationID, board: BoardState) -> [Int] {
        board.scenario.actions.indices.filter { index in
            guard case .start(op) = board.scenario.actions[index].action else { return false }
            return board.stallContext.isToCome(timedAction: index)
        }
    }

    /// `at 500ms (line 9)`: an `at` line of the file.
    static func lineText(_ index: Int, in scenario: Scenario) -> String {
        let timed = scenario.actions[index]
        let line = timed.location.line > 0 ? " (line \(timed.location.line))" : ""
        return "at \(Spelling.duration(timed.time))\(line)"
    }

    /// Why it has not run, as a reason: its next `start` line, or that none
    /// is left.
    static func reason(_ card: OperationCard, board: BoardState) -> String {
        guard let next = startsToCome(of: card.id, board: board).first else {
            return "in no queue: only a start() by hand runs it, and no 'start' line is left to call it"
        }
        return "in no queue: the main thread calls its start() by hand \(lineText(next, in: board.scenario))"
    }

    /// The card's few cells: `start() at 500ms`, `no start() left`.
    static func short(_ card: OperationCard, board: BoardState) -> String {
        guard let next = startsToCome(of: card.id, board: board).first else { return "no start() left" }
        return "start() at \(Spelling.duration(board.scenario.actions[next].time))"
    }

    /// One line per `start` the run carried out or refused so far:
    /// `start() called by hand at 0.501s (line 9)`, `start() not called at
    /// 0.101s (line 8): not ready (…)`.
    static func calls(of op: OperationID, board: BoardState) -> [String] {
        var lines: [String] = []
        for index in 0..<board.actions.count {
            let entry = board.actions[index]
            guard case .start(op) = entry.action else { continue }
            let by = EventFormatter.byText(entry.origin, in: board.scenario)
            let at = "at \(Spelling.seconds(entry.time)) (\(by))"
            if let refusal = entry.ignored {
                lines.append("start() not called \(at): \(refusal.text)")
            } else {
                lines.append("start() called by hand on the main thread \(at)")
            }
        }
        return lines
    }

    /// What starting it by hand means, for the inspector's notes.
    static func note(_ card: OperationCard, spec: OperationSpec) -> String {
        if spec.body.isAsync {
            return "started by hand: never in a queue; its start() runs on the main thread and returns at once, "
                + "and it posts isExecuting and isFinished itself"
        }
        return "started by hand: never in a queue; its start() runs main() on the calling thread, the main thread, "
            + "and returns once it finished: meanwhile the main thread runs nothing else (the interface is frozen)"
    }
}
