import Board
import ScenarioKit
import TextKit

/// The five columns Pending | Ready | Executing | Finished | Cancelled:
/// a header row (`Ready 7 ↑2 ↓3`: the count and the cards scrolled out of
/// sight above / below), then the cards, scrolled so the selected card shows.
enum ColumnsView {
    /// Rows between the tops of two cards: a blank row separates cards once
    /// the body is tall enough to afford it (20 rows).
    static func stride(bodyHeight: Int, cardHeight: Int) -> Int {
        bodyHeight >= 20 ? cardHeight + 1 : cardHeight
    }

    /// How many whole cards fit in a body of `bodyHeight` rows.
    static func capacity(bodyHeight: Int, cardHeight: Int) -> Int {
        let step = stride(bodyHeight: bodyHeight, cardHeight: cardHeight)
        return max(0, (bodyHeight + step - cardHeight) / step)
    }

    /// How many whole cards fit in the columns of `layout`.
    static func capacity(_ layout: ScreenLayout) -> Int {
        capacity(bodyHeight: layout.columnBody.height, cardHeight: layout.cardHeight)
    }

    /// The cards laid out: each visible card's rect, per column, and the
    /// scroll offset used. Shared by `draw` and the hit map.
    static func slots(
        board: BoardState, state: InterfaceState, layout: ScreenLayout
    ) -> [(offset: Int, cards: [(OperationID, Rect)])] {
        let columns = state.columns(board)
        let capacity = capacity(layout)
        let step = stride(bodyHeight: layout.columnBody.height, cardHeight: layout.cardHeight)
        return columns.ids.enumerated().map { c, ids in
            let selected = c == state.selectedColumn ? state.selectedOperation.flatMap { ids.firstIndex(of: $0) } : nil
            let offset = ColumnScroll.offset(
                stored: state.columnScroll[c], count: ids.count, capacity: capacity, selected: selected)
            let rect = layout.columns[c]
            let visible = ids.dropFirst(offset).prefix(capacity)
            let cards = visible.enumerated().map { i, id in
                (id, Rect(x: rect.x, y: layout.columnBody.y + i * step, width: rect.width, height: layout.cardHeight))
            }
            return (offset, cards)
        }
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, layout: ScreenLayout, theme: Theme,
        into grid: inout CellGrid, hits: inout HitMap
    ) {
        let columns = state.columns(board)
        let laidOut = slots(board: board, state: state, layout: layout)
        for separator in layout.columnSeparators {
            grid.drawBox(separator, glyphs: frame.glyphs, style: theme.rule)
        }
        for (c, phase) in Phase.columns.enumerated() {
            let rect = layout.columns[c]
            let count = columns.ids[c].count
            let (offset, cards) = laidOut[c]
            let below = count - offset - cards.count
            let header = Self.header(
                phase, count: count, total: columns.totals[c], above: offset, below: below, width: rect.width,
                glyphs: frame.glyphs)
            grid.write(
                header,
                at: Position(column: rect.x, row: rect.y), style: theme.column(phase), clippedTo: rect)
            for (id, cardRect) in cards {
                let clipped = cardRect.intersection(layout.columnBody).intersection(rect)
                CardView.draw(
                    board[operation: id], board: board, selected: id == state.selectedOperation, frame: frame,
                    height: layout.cardHeight, theme: theme, into: &grid, rect: clipped)
                hits.add(clipped, .card(id))
            }
        }
    }
}

extension ColumnsView {
    /// A column's header, `Ready 3/7 ↑2 ↓1`: the cards shown (of all in
    /// the column, when a filter hides some) and those scrolled out above
    /// and below. Where that does not fit, the total goes first (the title
    /// bar counts what the filter hides), then the title shortens; the
    /// scroll marks go last, since they say where the other cards are.
    static func header(
        _ phase: Phase, count: Int, total: Int, above: Int, below: Int, width: Int, glyphs: GlyphSet
    ) -> String {
        var marks = ""
        if above > 0 { marks += " \(glyphs.up)\(above)" }
        if below > 0 { marks += " \(glyphs.down)\(below)" }
        let of = total == count ? "" : "/\(total)"
        let title = Wording.columnTitle(phase)
        let candidates = [
            "\(title) \(count)\(of)\(marks)", "\(title) \(count)\(marks)", "\(title.prefix(4)) \(count)\(marks)",
        ]
        let fits = candidates.first { displayWidth($0) <= width }
        return fits ?? truncate(candidates[2], toWidth: width, ellipsis: glyphs.ellipsis)
    }
}
