/// The frame every bottom pane shares: a one-row rule with the pane's title
/// on its first row, content below.
enum PaneView {
    /// Draws the rule and returns the content rect.
    static func frame(
        _ rect: Rect, title: String, glyphs: GlyphSet, theme: Theme, into grid: inout CellGrid
    ) -> Rect {
        guard !rect.isEmpty else { return rect }
        let rule = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        grid.drawBox(rule, glyphs: glyphs, style: theme.rule, title: title, titleStyle: theme.heading)
        return rect.inset(top: 1)
    }

    /// Writes styled paragraphs wrapped to `rect`, skipping `skip` wrapped
    /// lines; returns how many wrapped lines there were in all.
    @discardableResult
    static func paragraphs(
        _ items: [(String, Style)], skip: Int = 0, indent: Int = 0, into grid: inout CellGrid, rect: Rect
    ) -> Int {
        var lines: [(String, Style)] = []
        for (text, style) in items {
            if text.isEmpty {
                lines.append(("", style))
                continue
            }
            let wrapped = wrap(text, width: rect.width - indent)
            for (i, line) in wrapped.enumerated() {
                lines.append(((i == 0 ? "" : String(repeating: " ", count: indent)) + line, style))
            }
        }
        for (i, (text, style)) in lines.dropFirst(max(0, skip)).prefix(rect.height).enumerated() {
            grid.write(text, at: Position(column: rect.x, row: rect.y + i), style: style, clippedTo: rect)
        }
        return lines.count
    }
}
