import Board

extension InterfaceController {
    /// Lines the wheel scrolls the log and the overlays per notch.
    static let wheelLines = 3

    /// A wheel notch scrolls the pane under the pointer, through the same
    /// layout the renderer uses: the open overlay, the log (up: older
    /// lines), a column of cards (one card per notch; the selection, if
    /// it is in that column, moves along to stay in view), or the timeline
    /// (the next or previous operation). Anywhere else it
    /// does nothing, and says nothing: a wheel is not a key to refuse.
    static func wheel(
        column: Int, row: Int, down: Bool, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        guard let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame) else { return .none }
        let point = Position(column: column, row: row)
        if state.overlay != .none {
            guard layout.overlay.contains(point) else { return .none }
            let visible = max(1, layout.overlay.height - 2)
            let total = OverlayView.lineCount(board: board, state: state, frame: frame, rect: layout.overlay)
            let next = min(max(0, state.overlayScroll + (down ? wheelLines : -wheelLines)), max(0, total - visible))
            guard next != state.overlayScroll else { return .none }
            state.overlayScroll = next
            return .redraw
        }
        if let notes = layout.notes, notes.contains(point) {
            guard let next = notesScrolled(down ? 1 : -1, page: false, state: state, board: board, frame: frame)
            else { return .none }
            state.notesScroll = next
            return .redraw
        }
        if let log = layout.log, log.contains(point) {
            let most = max(0, LogView.entries(state: state, frame: frame, board: board).count - 1)
            let next = min(max(0, state.logScroll + (down ? -wheelLines : wheelLines)), most)
            guard next != state.logScroll else { return .none }
            state.logScroll = next
            return .redraw
        }
        if state.boardArea == .table {
            guard layout.boardArea.contains(point) else { return .none }
            return moveRow(down ? 1 : -1, state: &state, board: board, frame: frame)
        }
        if state.boardArea.isOverTime {
            guard layout.boardArea.contains(point) else { return .none }
            return moveLane(down ? 1 : -1, state: &state, board: board, frame: frame)
        }
        if let c = layout.columns.firstIndex(where: { $0.contains(point) }) {
            return scrollColumn(c, down: down, state: &state, board: board, frame: frame, layout: layout)
        }
        return .none
    }

    /// Scrolls column `c` by one card; a selection in it that would leave
    /// the view moves to the nearest card still shown.
    static func scrollColumn(
        _ c: Int, down: Bool, state: inout InterfaceState, board: BoardState, frame: FrameInput, layout: ScreenLayout
    ) -> InterfaceOutcome {
        let ids = state.columns(board).ids[c]
        let capacity = ColumnsView.capacity(layout)
        let selected = c == state.selectedColumn ? state.selectedOperation.flatMap { ids.firstIndex(of: $0) } : nil
        let current = ColumnScroll.offset(
            stored: state.columnScroll[c], count: ids.count, capacity: capacity, selected: selected)
        let next = min(max(0, current + (down ? 1 : -1)), max(0, ids.count - capacity))
        guard next != current else { return .none }
        state.columnScroll[c] = next
        if let selected, selected < next || selected >= next + capacity {
            select(
                ids[selected < next ? next : next + capacity - 1], column: c, state: &state, board: board, frame: frame)
        }
        return .redraw
    }
}
