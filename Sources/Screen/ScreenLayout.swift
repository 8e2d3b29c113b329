import Board

/// Where each part of the main screen goes for a terminal size, in cells.
/// One function, used by the renderer to draw and by the controller to map
/// mouse clicks and page sizes, so both always agree.
///
/// Top to bottom: title bar (1 row), queue lines (1 per queue, at most
/// rows / 8), the five columns (a header row, then cards), the bottom panes
/// (each with a one-row rule carrying its title), the status line (message
/// or main-thread note) and the key bar. The bottom panes are the inspector
/// and the log side by side; from `wideColumns` on, a notes & expectations
/// pane joins them. The bottom panes take 2/5 of the rows left (5…16), the
/// columns the rest; an expanded inspector takes 2/3 and hides the log.
struct ScreenLayout: Sendable, Hashable {
    /// Below this the screen shows `TooSmallView` instead: the columns need
    /// 5 × 11 cells for a readable card, the panes 4 rows of text.
    static let minimum = Size(columns: 60, rows: 16)
    /// From this width the notes pane is always shown beside the log.
    static let wideColumns = 140

    let title: Rect
    let queues: Rect
    /// The five column rectangles (header row + body), left to right.
    let columns: [Rect]
    /// One-cell-wide vertical lines between the columns.
    let columnSeparators: [Rect]
    /// The rows of the columns below their headers (full width).
    let columnBody: Rect
    let inspector: Rect
    let log: Rect?
    let notes: Rect?
    /// One-cell-wide vertical lines between the bottom panes.
    let paneSeparators: [Rect]
    let status: Rect
    let keyBar: Rect
    /// Where the help and notes overlays go (centred).
    let overlay: Rect

    /// nil below `minimum`.
    init?(size: Size, board: BoardState, state: InterfaceState) {
        guard size.columns >= Self.minimum.columns, size.rows >= Self.minimum.rows else { return nil }
        let screen = Rect(size: size)
        let queueRows = min(board.queues.count, max(1, size.rows / 8))
        let available = size.rows - 3 - queueRows
        let bottomRows = state.inspectorExpanded
            ? available * 2 / 3 : min(16, max(5, available * 2 / 5))
        let rows = screen.split(
            .vertical,
            [.fixed(1), .fixed(queueRows), .fixed(available - bottomRows), .fixed(bottomRows), .fixed(1), .fixed(1)])
        title = rows[0]
        queues = rows[1]
        status = rows[4]
        keyBar = rows[5]

        let columnParts = rows[2].split(
            .horizontal, [.fill, .fixed(1), .fill, .fixed(1), .fill, .fixed(1), .fill, .fixed(1), .fill])
        columns = stride(from: 0, to: columnParts.count, by: 2).map { columnParts[$0] }
        columnSeparators = stride(from: 1, to: columnParts.count, by: 2).map { columnParts[$0] }
        columnBody = rows[2].inset(top: 1)

        let wide = size.columns >= Self.wideColumns
        let showLog = state.logVisible && !state.inspectorExpanded
        var weights = [5]
        if showLog { weights.append(4) }
        if wide { weights.append(3) }
        var constraints: [Constraint] = []
        for (i, w) in weights.enumerated() {
            if i > 0 { constraints.append(.fixed(1)) }
            constraints.append(.remaining(weight: w))
        }
        let parts = rows[3].split(.horizontal, constraints)
        var panes = stride(from: 0, to: parts.count, by: 2).map { parts[$0] }
        paneSeparators = stride(from: 1, to: parts.count, by: 2).map { parts[$0].inset(top: 1) }
        inspector = panes.removeFirst()
        log = showLog ? panes.removeFirst() : nil
        notes = wide ? panes.removeFirst() : nil

        let overlayWidth = min(size.columns - 4, 78)
        let overlayHeight = size.rows - 4
        overlay = Rect(
            x: (size.columns - overlayWidth) / 2, y: 2, width: overlayWidth, height: overlayHeight)
    }
}
