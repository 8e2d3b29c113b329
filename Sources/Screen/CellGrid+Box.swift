import TextKit

extension CellGrid {
    /// Draws a frame on the outer cells of `rect` with the glyphs of `glyphs`,
    /// and an optional title on the top edge (after the corner, truncated to
    /// fit). The inside is left as it is; use `rect.inset(by: 1)` for it.
    /// Rectangles narrower or shorter than 2 cells get the edges that fit:
    /// a 1-row rect is a horizontal line, a 1-column rect a vertical one.
    public mutating func drawBox(
        _ rect: Rect, glyphs: GlyphSet, style: Style = .plain,
        title: String? = nil, titleStyle: Style? = nil, clippedTo clip: Rect? = nil
    ) {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard !rect.isEmpty else { return }
        let left = rect.minX
        let right = rect.maxX - 1
        let top = rect.minY
        let bottom = rect.maxY - 1
        func at(_ c: Int, _ r: Int, _ s: String) {
            write(s, at: Position(column: c, row: r), style: style, clippedTo: area)
        }
        if rect.height == 1 {
            for c in left...right { at(c, top, glyphs.horizontal) }
        } else if rect.width == 1 {
            for r in top...bottom { at(left, r, glyphs.vertical) }
        } else {
            for c in (left + 1)..<right {
                at(c, top, glyphs.horizontal)
                at(c, bottom, glyphs.horizontal)
            }
            for r in (top + 1)..<bottom {
                at(left, r, glyphs.vertical)
                at(right, r, glyphs.vertical)
            }
            at(left, top, glyphs.topLeft)
            at(right, top, glyphs.topRight)
            at(left, bottom, glyphs.bottomLeft)
            at(right, bottom, glyphs.bottomRight)
        }
        if let title, !title.isEmpty, rect.width > 4 {
            let shown = truncate(title, toWidth: rect.width - 4, ellipsis: glyphs.ellipsis)
            let titleArea = Rect(x: left + 1, y: top, width: rect.width - 2, height: 1).intersection(area)
            write(
                " \(shown) ", at: Position(column: left + 1, row: top),
                style: titleStyle ?? style, clippedTo: titleArea)
        }
    }
}
