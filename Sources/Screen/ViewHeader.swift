import TextKit

/// The first row of a view over many rows (the timeline, the threads, the
/// table): what it shows on the left in bold, cut to fit, and on the right,
/// dim, which rows show when not all do (`lanes 3–20 of 266`).
enum ViewHeader {
    static func draw(
        _ left: String, noun: String, first: Int, shown: Int, total: Int, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, row: Rect
    ) {
        var right = ""
        if total > shown {
            let dash = frame.glyphs.isASCII ? "-" : "–"
            right = "\(noun) \(first + 1)\(dash)\(min(total, first + shown)) of \(total)"
        }
        let rightWidth = displayWidth(right)
        let room = max(0, row.width - (rightWidth > 0 ? rightWidth + 2 : 0))
        grid.write(
            truncate(left, toWidth: room, ellipsis: frame.glyphs.ellipsis), at: Position(column: row.x, row: row.y),
            style: theme.heading, clippedTo: row)
        if rightWidth > 0 && rightWidth <= row.width {
            grid.write(right, at: Position(column: row.maxX - rightWidth, row: row.y), style: theme.dim, clippedTo: row)
        }
    }
}
