/// The log pane: the newest observer notifications that fit, or older ones
/// when scrolled back (`InterfaceState.logScroll` lines from the newest).
enum LogView {
    /// The lines shown in `rows` rows, oldest first, and the clamped scroll.
    static func window(_ lines: [String], rows: Int, scroll: Int) -> (lines: ArraySlice<String>, scroll: Int) {
        let back = min(max(0, scroll), max(0, lines.count - rows))
        let end = lines.count - back
        return (lines[max(0, end - rows)..<end], back)
    }

    static func draw(
        state: InterfaceState, frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect
    ) {
        let content = rect.inset(top: 1)
        let (shown, back) = window(frame.logLines, rows: content.height, scroll: state.logScroll)
        var title = "Log"
        if back > 0 { title += " (\(back) newer below, PgDn)" }
        _ = PaneView.frame(rect, title: title, glyphs: frame.glyphs, theme: theme, into: &grid)
        for (i, line) in shown.enumerated() {
            grid.write(
                truncate(line, toWidth: content.width, ellipsis: frame.glyphs.ellipsis),
                at: Position(column: content.x, row: content.y + i), style: theme.plain, clippedTo: content)
        }
        if frame.logLines.isEmpty {
            grid.write(
                "no notifications yet", at: Position(column: content.x, row: content.y), style: theme.dim,
                clippedTo: content)
        }
    }
}
