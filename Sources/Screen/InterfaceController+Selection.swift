import Board
import ScenarioKit

extension InterfaceController {
    /// Up / down within the selected card's column; no wrap-around.
    static func moveVertically(
        _ delta: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let columns = state.columns(board)
        guard let op = state.selectedOperation, let place = columns.locate(op) else {
            return refuse(ScreenWords.noOperationToSelect, &state, frame)
        }
        let ids = columns.ids[place.column]
        let next = min(max(0, place.index + delta), ids.count - 1)
        guard next != place.index else { return backToOperation(&state) }
        select(ids[next], column: place.column, state: &state, board: board, frame: frame)
        return .redraw
    }

    /// Left / right to the nearest column that has cards (empty ones are
    /// skipped), landing on the card at the same visible row, or the last.
    static func moveHorizontally(
        _ step: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let columns = state.columns(board)
        guard let op = state.selectedOperation, let place = columns.locate(op) else {
            return refuse(ScreenWords.noOperationToSelect, &state, frame)
        }
        guard let target = columns.nearestNonEmpty(from: place.column, step: step) else {
            return backToOperation(&state)
        }
        let capacity =
            InterfaceRenderer.layout(board: board, state: state, frame: frame)
            .map(ColumnsView.capacity) ?? 1
        let offset = ColumnScroll.offset(
            stored: state.columnScroll[place.column], count: columns.ids[place.column].count, capacity: capacity,
            selected: place.index)
        let targetIDs = columns.ids[target]
        let targetOffset = ColumnScroll.offset(
            stored: state.columnScroll[target], count: targetIDs.count, capacity: capacity, selected: nil)
        let index = min(targetOffset + (place.index - offset), targetIDs.count - 1)
        select(targetIDs[index], column: target, state: &state, board: board, frame: frame)
        return .redraw
    }

    /// An arrow that moves nothing still brings the inspector back from a
    /// queue to the selected operation.
    private static func backToOperation(_ state: inout InterfaceState) -> InterfaceOutcome {
        guard state.inspectsQueue else { return .none }
        state.inspectsQueue = false
        return .redraw
    }

    /// Selects `op`; its queue becomes the selected queue too (Tab can
    /// still pick another one for the queue keys), and the inspector shows
    /// the operation again.
    static func select(
        _ op: OperationID, column: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) {
        if state.selectedOperation != op { state.clearMessages() }
        state.selectedOperation = op
        state.inspectsQueue = false
        state.selectedColumn = column
        state.selectedQueue = board[operation: op].queue
        state.settleScroll(board: board, frame: frame)
    }

    /// Tab / Shift-Tab through the queues, wrapping around; the inspector
    /// shows the queue selected.
    static func cycleQueue(
        _ step: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let count = board.queues.count
        guard count > 0 else { return refuse("this scenario has no queue", &state, frame) }
        let current = state.selectedQueue?.index ?? 0
        let queue = QueueID(((current + step) % count + count) % count)
        state.selectedQueue = queue
        state.inspectsQueue = true
        // The queue keys now act on this queue: say so when the selected
        // card is on another one.
        if let op = state.selectedOperation, board.scenario.contains(op), board[operation: op].queue != queue {
            tell(
                "s, C, + and - act on \(board[queue: queue].name) now; \(board[operation: op].name) is on "
                    + board[queue: board[operation: op].queue].name, &state, frame)
        }
        return .redraw
    }

    /// A click selects the card, queue or lane under it (on the timeline's
    /// axis it moves the history cursor; on a table column's title it
    /// sorts by that column), through the same layout
    /// the renderer used; elsewhere (or over an overlay) it does nothing.
    static func click(
        column: Int, row: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let hits = InterfaceRenderer.hitMap(board: board, state: state, frame: frame)
        switch hits.target(column: column, row: row) {
        case .card(let op)?:
            guard let place = state.columns(board).locate(op) else { return .none }
            select(op, column: place.column, state: &state, board: board, frame: frame)
            return .redraw
        case .queue(let q)?:
            state.selectedQueue = q
            state.inspectsQueue = true
            return .redraw
        case .lane(let op)?:
            guard op != state.selectedOperation else { return .none }
            selectLane(op, state: &state, board: board, frame: frame)
            return .redraw
        case .timeAxis?:
            return clickAxis(column: column, state: &state, board: board, frame: frame)
        case .tableColumn(let title)?:
            return sortByTitle(title, state: &state, board: board, frame: frame)
        case nil:
            return .none
        }
    }
}
