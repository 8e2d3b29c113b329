import Board
import RunEvents
import ScenarioKit
import TextKit

/// One row per queue: `▶ net  2 running · cap 4  5 in queue  SUSPENDED`. The
/// selected queue (target of C, s, +, -, 0) is marked and reversed. When
/// there are more queues than rows, the rows show a window that holds the
/// selected queue.
enum QueueLinesView {
    /// The text of one queue's row, `nameWidth` cells for the name.
    static func text(_ row: QueueRow, selected: Bool, nameWidth: Int, glyphs: GlyphSet) -> String {
        var parts = [Wording.load(row, glyphs: glyphs), "\(max(0, row.operationCount)) in queue"]
        if row.holdsBack { parts.append("SUSPENDED") }
        let marker = selected ? glyphs.pointer : " "
        return "\(marker) \(fit(row.name, nameWidth, ellipsis: glyphs.ellipsis))  " + parts.joined(separator: "   ")
    }

    /// The first queue index shown in `rows` rows so the selected one is.
    static func firstShown(count: Int, rows: Int, selected: Int?) -> Int {
        ColumnScroll.offset(stored: 0, count: count, capacity: rows, selected: selected)
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect, hits: inout HitMap
    ) {
        let nameWidth = min(20, board.queues.map { displayWidth($0.name) }.max() ?? 0)
        let first = firstShown(count: board.queues.count, rows: rect.height, selected: state.selectedQueue?.index)
        for (i, row) in board.queues.dropFirst(first).prefix(rect.height).enumerated() {
            let line = Rect(x: rect.x, y: rect.y + i, width: rect.width, height: 1)
            let selected = row.id == state.selectedQueue
            let text = text(row, selected: selected, nameWidth: nameWidth, glyphs: frame.glyphs)
            let style = selected ? theme.selectedQueue : (row.holdsBack ? theme.warning : theme.plain)
            grid.write(
                truncate(text, toWidth: rect.width, ellipsis: frame.glyphs.ellipsis),
                at: Position(column: line.x, row: line.y), style: style, clippedTo: line)
            hits.add(line, .queue(row.id))
        }
    }
}
