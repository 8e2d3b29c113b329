import Board
import FoundationRules
import RunEvents
import ScenarioKit

/// The commands that reach the run. They say nothing themselves: what the
/// status line reports comes from the action's event (`ActionNotice`), so
/// it is what the engine did, including what it ignored (the main queue's
/// suspension, cap and cancel-all; a finished operation's cancel). The
/// interface refuses only what it cannot ask for: no selection, a priority
/// that no longer matters, a cap below 1 or above no limit.
extension InterfaceCommand {
    /// Asks the engine to change something: refused once the run ended.
    var actsOnTheRun: Bool {
        switch self {
        case .cancelOperation, .raisePriority, .lowerPriority, .cancelAllOnQueue, .toggleSuspend, .raiseCap,
            .lowerCap, .defaultCap:
            true
        default:
            false
        }
    }
}

extension InterfaceController {
    static func cancel(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let op = state.selectedOperation else { return refuse(ScreenWords.noOperationSelected, &state, frame) }
        return .perform(.cancel(op))
    }

    static func changePriority(
        _ step: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        guard let op = state.selectedOperation else { return refuse(ScreenWords.noOperationSelected, &state, frame) }
        let card = board[operation: op]
        let name = card.name
        let levels = PriorityLevel.allCases.sorted()
        let current = card.queuePriority ?? .normal
        let index = levels.firstIndex(of: current)! + step
        guard levels.indices.contains(index) else {
            let word = step > 0 ? "highest" : "lowest"
            return refuse("\(name) is already \(current.rawValue), the \(word) queuePriority", &state, frame)
        }
        let action = Action.setPriority(op, levels[index])
        if card.isBarrier { return refuse(.barrierHasNoPriority, action, &state, board, frame) }
        switch card.phase {
        case .executing, .finished, .cancelled: return refuse(.alreadyStarted, action, &state, board, frame)
        case .notAdded, .pending, .ready: return .perform(action)
        }
    }

    /// The selected queue, or a refusal when there is none.
    private static func selectedQueue(_ state: inout InterfaceState, _ board: BoardState) -> QueueRow? {
        guard let q = state.selectedQueue, board.queues.indices.contains(q.index) else { return nil }
        return board[queue: q]
    }

    static func cancelAll(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse(ScreenWords.noQueueSelected, &state, frame) }
        return .perform(.cancelAll(row.id))
    }

    static func toggleSuspend(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse(ScreenWords.noQueueSelected, &state, frame) }
        return .perform(row.holdsBack ? .resume(row.id) : .suspend(row.id))
    }

    static func raiseCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse(ScreenWords.noQueueSelected, &state, frame) }
        guard let n = row.limit else {
            return refuse("\(row.name) has no cap (the system decides): - sets one", &state, frame)
        }
        // The language writes caps up to Int.max (`max q 9223372036854775807`).
        guard n < Int.max else { return refuse("\(row.name) already has the largest cap there is", &state, frame) }
        return .perform(.setCap(row.id, .limit(n + 1)))
    }

    /// From a number: one less, never below 1. From default: what executes
    /// now (at least 1), so the queue keeps its pace and `-` again lowers it.
    static func lowerCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse(ScreenWords.noQueueSelected, &state, frame) }
        guard let n = row.limit else { return .perform(.setCap(row.id, .limit(max(1, row.executing)))) }
        guard n > 1 else { return refuse(.capBelowOne, .setCap(row.id, .limit(0)), &state, board, frame) }
        return .perform(.setCap(row.id, .limit(n - 1)))
    }

    static func defaultCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse(ScreenWords.noQueueSelected, &state, frame) }
        guard row.limit != nil || row.isMain else {
            return refuse("\(row.name) already has no cap (the system decides)", &state, frame)
        }
        return .perform(.setCap(row.id, .systemDefault))
    }
}
