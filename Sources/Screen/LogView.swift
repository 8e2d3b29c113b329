import Board
import ScenarioKit

/// The log pane: the newest observer notifications that fit, or older ones
/// when scrolled back (`InterfaceState.logScroll` entries from the newest),
/// each wrapped whole (continuation rows indented), so no line loses the
/// fact at its end. `f` shows only the lines about the selected operation.
enum LogView {
    /// The entries the log shows: all (in history, those up to the
    /// cursor: one entry per notification), or those about
    /// `state.logFilter`. Under a filter (`F`, asked of `board`), the
    /// lines about the operations it hides are left out; the lines about
    /// no operation (queues, the run) stay.
    static func entries(state: InterfaceState, frame: FrameInput, board: BoardState? = nil) -> ArraySlice<LogEntry> {
        var upTo = frame.historyShown.map { frame.log.prefix($0) } ?? frame.log[...]
        if let board, let shown = state.filter.shown(on: board) {
            upTo = ArraySlice(upTo.filter { $0.operation.map(shown.contains) ?? true })
        }
        guard let op = state.logFilter else { return upTo }
        return ArraySlice(upTo.filter { $0.operation == op })
    }

    /// The rows shown in a pane of `rows` × `width`, oldest first, and the
    /// clamped scroll (entries back from the newest).
    static func window(
        _ entries: ArraySlice<LogEntry>, rows: Int, width: Int, scroll: Int, glyphs: GlyphSet
    ) -> (rows: [String], scroll: Int) {
        let back = min(max(0, scroll), max(0, entries.count - 1))
        var shown: [String] = []
        var index = entries.count - back - 1
        while index >= 0 && shown.count < rows {
            let text = Wording.plain(entries[entries.startIndex + index].text, glyphs: glyphs)
            let wrapped = wrap(text, width: max(1, width), indent: 2)
            shown.insert(contentsOf: wrapped, at: 0)
            index -= 1
        }
        return (Array(shown.suffix(rows)), back)
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme, into grid: inout CellGrid,
        rect: Rect
    ) {
        let content = rect.inset(top: 1)
        let entries = entries(state: state, frame: frame, board: board)
        let (shown, back) = window(
            entries, rows: content.height, width: content.width, scroll: state.logScroll, glyphs: frame.glyphs)
        var title = "Log"
        if let op = state.logFilter, board.scenario.operations.indices.contains(op.index) {
            title += " of \(board[operation: op].name) (f: all)"
        }
        if back > 0 { title += " (\(back) newer below, PgDn)" }
        // In history the log ends at the cursor's notification: its rows
        // are marked, as the moment every pane shows.
        var marked = 0
        if let shownCount = frame.historyShown, back == 0, shownCount > 0, let last = entries.last,
            last.seq == frame.history?.events[shownCount - 1].seq
        {
            let text = Wording.plain(last.text, glyphs: frame.glyphs)
            marked = min(shown.count, wrap(text, width: max(1, content.width), indent: 2).count)
            title += " \(frame.glyphs.dot) at the cursor"
        }
        _ = PaneView.frame(rect, title: title, glyphs: frame.glyphs, theme: theme, into: &grid)
        for (i, line) in shown.enumerated() {
            let style = i >= shown.count - marked ? theme.selected : theme.plain
            grid.write(line, at: Position(column: content.x, row: content.y + i), style: style, clippedTo: content)
        }
        if entries.isEmpty {
            let text = state.logFilter == nil ? "no notifications yet" : "nothing about it yet (f shows all)"
            grid.write(text, at: Position(column: content.x, row: content.y), style: theme.dim, clippedTo: content)
        }
    }
}
