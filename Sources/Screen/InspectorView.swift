import Board
import ScenarioKit

/// The inspector pane: `InspectorText` for the selected operation, wrapped
/// to the pane. It always follows the selection; Enter gives it the full
/// width and more rows (`InterfaceState.inspectorExpanded`).
enum InspectorView {
    /// The rows the inspector's text takes at `width` (its rule besides).
    static func textRows(board: BoardState, op: OperationID, now: Double, width: Int, hiding: Bool = false) -> Int {
        let texts = lines(board: board, op: op, now: now, hiding: hiding).map { ($0.text, Style.plain) }
        var scratch = CellGrid(size: Size(columns: max(1, width), rows: 1))
        return PaneView.paragraphs(
            texts, indent: 2, into: &scratch, rect: Rect(x: 0, y: 0, width: max(1, width), height: 0))
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        let name = state.selectedOperation.map { board[operation: $0].name }
        let title = name.map { "Inspector: \($0)" } ?? "Inspector"
        let content = PaneView.frame(rect, title: title, glyphs: frame.glyphs, theme: theme, into: &grid)
        guard let op = state.selectedOperation else {
            grid.write(
                "no operation selected", at: Position(column: content.x, row: content.y), style: theme.dim,
                clippedTo: content)
            return
        }
        let hiding = frame.predict?.hidesAnswers ?? false
        let items = lines(board: board, op: op, now: frame.now, hiding: hiding).map { line -> (String, Style) in
            switch line.role {
            case .plain: return (line.text, theme.plain)
            case .heading: return (line.text, theme.heading)
            case .reason: return (line.text, theme.heading)
            case .note: return (line.text, theme.dim)
            }
        }
        PaneView.paragraphs(items, indent: 2, into: &grid, rect: content)
    }

    /// The inspector's lines; `hiding` (a question not yet answered)
    /// leaves out the reasons and the engine's notes, which would give the
    /// answer away.
    static func lines(board: BoardState, op: OperationID, now: Double, hiding: Bool) -> [InspectorLine] {
        let all = InspectorText.lines(board: board, op: op, now: now)
        return hiding ? all.filter { $0.role != .reason && $0.role != .note } : all
    }
}
