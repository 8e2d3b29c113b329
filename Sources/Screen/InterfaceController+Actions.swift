import Board
import LifecycleEngine
import ScenarioKit

/// The commands that reach the run. Each is checked against the board
/// first: what the engine would ignore (the main queue's suspension, cap and
/// cancel-all) or what cannot apply gets a message instead of an action.
extension InterfaceController {
    static func cancel(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let op = state.selectedOperation else { return refuse("no operation selected", &state, frame) }
        let card = board[operation: op]
        let name = card.name
        if card.isBarrier {
            return refuse(
                "cannot cancel \(name): addBarrierBlock gives no handle to a barrier (C cancels it with its queue)",
                &state, frame)
        }
        switch card.phase {
        case .finished: return refuse("cannot cancel \(name): it already finished", &state, frame)
        case .cancelled: return refuse("cannot cancel \(name): it is already cancelled", &state, frame)
        case .notAdded: return refuse("cannot cancel \(name): it is not in its queue yet", &state, frame)
        case .executing where card.isCancelled:
            return refuse("\(name) is already cancelled: it ends when its work checks isCancelled", &state, frame)
        case .executing:
            tell("cancelled \(name) while it runs: Foundation only sets isCancelled", &state, frame)
        case .pending, .ready:
            let held = board[queue: card.queue].holdsBack ? " (its queue is suspended: on resume)" : ""
            tell("cancelled \(name): it becomes ready and finishes without running\(held)", &state, frame)
        }
        return .perform(.cancel(op))
    }

    static func changePriority(
        _ step: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        guard let op = state.selectedOperation else { return refuse("no operation selected", &state, frame) }
        let card = board[operation: op]
        let name = card.name
        if card.isBarrier {
            return refuse("cannot change the priority of \(name): a barrier has no queuePriority", &state, frame)
        }
        switch card.phase {
        case .executing, .finished, .cancelled:
            return refuse("the priority of \(name) no longer matters: it already started", &state, frame)
        case .notAdded, .pending, .ready:
            break
        }
        let levels = PriorityLevel.allCases.sorted()
        let current = card.queuePriority ?? .normal
        let index = levels.firstIndex(of: current)! + step
        guard levels.indices.contains(index) else {
            let word = step > 0 ? "highest" : "lowest"
            return refuse("\(name) is already \(current.rawValue), the \(word) queuePriority", &state, frame)
        }
        let next = levels[index]
        if card.priorityChangesLost {
            tell(
                "priority of \(name) → \(next.rawValue): Foundation will lose it (serial queue, no priority when added)",
                &state, frame)
        } else {
            tell("priority of \(name): \(current.rawValue) → \(next.rawValue)", &state, frame)
        }
        return .perform(.setPriority(op, next))
    }

    /// The selected queue, or a refusal when there is none.
    private static func selectedQueue(_ state: inout InterfaceState, _ board: BoardState) -> QueueRow? {
        guard let q = state.selectedQueue, board.queues.indices.contains(q.index) else { return nil }
        return board[queue: q]
    }

    static func cancelAll(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse("no queue selected", &state, frame) }
        if row.isMain { return refuse("OperationQueue.main ignores cancelAllOperations()", &state, frame) }
        let open = board.cards.filter {
            $0.queue == row.id && [.pending, .ready, .executing].contains($0.phase) && !$0.isCancelled
        }
        guard !open.isEmpty else {
            return refuse("\(row.name) has no waiting or running operation to cancel", &state, frame)
        }
        tell("cancelAllOperations on \(row.name): \(Wording.count(open.count, "operation")) cancelled", &state, frame)
        return .perform(.cancelAll(row.id))
    }

    static func toggleSuspend(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse("no queue selected", &state, frame) }
        if row.isMain { return refuse("OperationQueue.main ignores isSuspended", &state, frame) }
        if row.isSuspended {
            tell("resumed \(row.name)", &state, frame)
            return .perform(.resume(row.id))
        }
        tell("suspended \(row.name): running operations go on, no new one starts", &state, frame)
        return .perform(.suspend(row.id))
    }

    static func raiseCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse("no queue selected", &state, frame) }
        if row.isMain { return refuse("OperationQueue.main ignores maxConcurrentOperationCount", &state, frame) }
        guard let n = row.limit else {
            return refuse("\(row.name) has the default cap (the system decides): - sets a number", &state, frame)
        }
        tell("cap of \(row.name): \(n) → \(n + 1)", &state, frame)
        return .perform(.setCap(row.id, .limit(n + 1)))
    }

    /// From a number: one less, never below 1. From default: what executes
    /// now (at least 1), so the queue keeps its pace and `-` again lowers it.
    static func lowerCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse("no queue selected", &state, frame) }
        if row.isMain { return refuse("OperationQueue.main ignores maxConcurrentOperationCount", &state, frame) }
        let next: Int
        if let n = row.limit {
            guard n > 1 else {
                return refuse("the cap of \(row.name) is already 1: a cap of 0 would stall the queue", &state, frame)
            }
            next = n - 1
            tell("cap of \(row.name): \(n) → \(next); running operations go on", &state, frame)
        } else {
            next = max(1, row.executing)
            tell("cap of \(row.name): default → \(next) (what runs now)", &state, frame)
        }
        return .perform(.setCap(row.id, .limit(next)))
    }

    static func defaultCap(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let row = selectedQueue(&state, board) else { return refuse("no queue selected", &state, frame) }
        if row.isMain { return refuse("OperationQueue.main ignores maxConcurrentOperationCount", &state, frame) }
        guard row.limit != nil else { return refuse("the cap of \(row.name) is already default", &state, frame) }
        tell("cap of \(row.name) → default (the system decides)", &state, frame)
        return .perform(.setCap(row.id, .systemDefault))
    }
}
