import Board
import RunEvents
import ScenarioKit
import TextKit

/// The table's persistent state: its sort (`o`, `O`, ← →) and the first
/// row shown (a stored wish, like `columnScroll`: the view moves it just
/// enough to keep the selected row in sight).
public struct TableViewState: Sendable, Hashable {
    public var sort = OperationTable.Sort.fileOrder
    public var scroll = 0

    public init() {}
}

/// The operations as a table in the board area (`t` after the threads):
///
///     Table · by waited ▼                                rows 1–9 of 266
///     name     queue started  waited ▼ ran      thread state     why not running
///     fetch44  net   0.232s   171ms    10ms     #4     finished
///
/// a header with the sort and where the rows shown are, the column
/// titles (the sort column's with ▲ or ▼), then a row per operation in
/// the sort's order, the selected one in reverse video and always in
/// sight, one not added yet dim. A pure function of the board at the
/// history cursor, the lanes and the interface state; the sorted order
/// comes from the frame's memo while nothing it depends on changed.
enum TableView {
    /// The table of this frame: the board shown, its lanes, the state's
    /// sort, and the operations `visible` lets through (nil: those the
    /// filter in force shows, `F`; all without one).
    static func table(
        board: BoardState, state: InterfaceState, frame: FrameInput, visible: Set<OperationID>? = nil
    ) -> OperationTable {
        let sort = state.tableView.sort
        var visible = visible
        if visible == nil, let filter = state.filter.active {
            let mask = filter.shown(on: board)
            visible = Set((0..<board.scenario.operations.count).lazy.map(OperationID.init).filter(mask.contains))
        }
        if let memo = frame.memo {
            return memo.table(board: board, lanes: frame.timeline, sort: sort, visible: visible)
        }
        return OperationTable(board: board, lanes: frame.timeline, sort: sort, visible: visible)
    }

    /// Rows of operations that fit in `rect` under the two header rows.
    static func capacity(_ rect: Rect) -> Int { max(0, rect.height - 2) }

    /// The first row shown: the stored scroll moved just enough to show the selection.
    static func offset(board: BoardState, state: InterfaceState, frame: FrameInput) -> Int {
        guard let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame) else { return 0 }
        return offset(table(board: board, state: state, frame: frame), state: state, rect: layout.boardArea)
    }

    static func offset(_ table: OperationTable, state: InterfaceState, rect: Rect) -> Int {
        ColumnScroll.offset(
            stored: state.tableView.scroll, count: table.rows.count, capacity: capacity(rect),
            selected: state.selectedOperation.flatMap(table.row))
    }

    /// The rows shown in `rect`, each with its y.
    static func shownRows(_ table: OperationTable, state: InterfaceState, rect: Rect) -> [(OperationID, Int)] {
        let first = offset(table, state: state, rect: rect)
        return table.rows.dropFirst(first).prefix(capacity(rect)).enumerated().map { ($1, rect.y + 2 + $0) }
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme, into grid: inout CellGrid,
        rect: Rect, hits: inout HitMap
    ) {
        guard !rect.isEmpty else { return }
        let table = table(board: board, state: state, frame: frame)
        let glyphs = frame.glyphs
        let columns = OperationTable.placed(width: rect.width, scenario: board.scenario, sort: table.sort.column)
        let first = offset(table, state: state, rect: rect)
        drawHeader(table, first: first, shown: capacity(rect), frame: frame, theme: theme, into: &grid, rect: rect)
        guard rect.height > 1 else { return }
        let titles = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: 1)
        for p in columns {
            grid.write(
                table.title(p.column, width: p.width, glyphs: glyphs),
                at: Position(column: rect.x + p.x, row: titles.y),
                style: theme.heading, clippedTo: titles)
        }
        addTitleHits(columns, rect: rect, into: &hits)
        for (op, y) in shownRows(table, state: state, rect: rect) {
            let line = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            var style = board[operation: op].phase == .notAdded ? theme.dim : theme.plain
            if op == state.selectedOperation && !state.inspectsQueue { style = theme.selected }
            grid.fill(line, with: .blank(style))
            for p in columns {
                let text = truncate(table.cell(p.column, of: op), toWidth: p.width, ellipsis: glyphs.ellipsis)
                grid.write(text, at: Position(column: rect.x + p.x, row: y), style: style, clippedTo: line)
            }
            hits.add(line, .lane(op))
        }
        if table.rows.isEmpty && rect.height > 2 {
            grid.write(
                "no operation to show", at: Position(column: rect.x, row: rect.y + 2), style: theme.dim,
                clippedTo: rect)
        }
    }

    /// Each column title's cells (its width and the gap after it) as a
    /// click target that sorts by that column.
    static func addTitleHits(_ columns: [OperationTable.Placed], rect: Rect, into hits: inout HitMap) {
        guard rect.height > 1 else { return }
        for (i, p) in columns.enumerated() {
            let end = i + 1 < columns.count ? columns[i + 1].x : rect.width
            let cells = Rect(x: rect.x + p.x, y: rect.y + 1, width: max(0, end - p.x), height: 1)
            hits.add(cells.intersection(rect), .tableColumn(p.column))
        }
    }

    /// `Table · by waited ▼` (or `in file order`), and on the right which
    /// rows show when not all do.
    static func drawHeader(
        _ table: OperationTable, first: Int, shown: Int, frame: FrameInput, theme: Theme, into grid: inout CellGrid,
        rect: Rect
    ) {
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        let dot = " \(frame.glyphs.dot) "
        var left = "Table" + dot
        if let column = table.sort.column {
            left += "by " + table.title(column, width: Int.max, glyphs: frame.glyphs)
        } else {
            left += table.sort.descending ? "in file order, reversed" : "in file order"
        }
        ViewHeader.draw(
            left, noun: "rows", first: first, shown: shown, total: table.rows.count, frame: frame, theme: theme,
            into: &grid, row: row)
    }
}
