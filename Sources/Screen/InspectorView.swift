import Board
import ScenarioKit

/// The inspector pane: `InspectorText` for the selected operation, or
/// `QueueInspectorText` for the selected queue while a queue line is
/// selected (`InterfaceState.inspectsQueue`), wrapped to the pane. It
/// always follows the selection; Enter gives it the full
/// width and more rows (`InterfaceState.inspectorExpanded`).
enum InspectorView {
    /// The rows the inspector's text takes at `width` (its rule besides).
    static func textRows(
        board: BoardState, op: OperationID, now: Double, width: Int, hiding: Bool = false, asked: InspectorLine? = nil
    ) -> Int {
        let texts = lines(board: board, op: op, now: now, hiding: hiding, asked: asked).map { ($0.text, Style.plain) }
        var scratch = CellGrid(size: Size(columns: max(1, width), rows: 1))
        return PaneView.paragraphs(
            texts, indent: 2, into: &scratch, rect: Rect(x: 0, y: 0, width: max(1, width), height: 0))
    }

    /// The rows the queue inspector's text takes at `width`.
    static func textRows(board: BoardState, queue: QueueID, width: Int, hiding: Bool = false) -> Int {
        let texts = queueLines(board: board, queue: queue, hiding: hiding).map { ($0.text, Style.plain) }
        var scratch = CellGrid(size: Size(columns: max(1, width), rows: 1))
        return PaneView.paragraphs(
            texts, indent: 2, into: &scratch, rect: Rect(x: 0, y: 0, width: max(1, width), height: 0))
    }

    /// The queue it shows instead of the selected operation, if any.
    static func inspectedQueue(board: BoardState, state: InterfaceState) -> QueueID? {
        guard state.inspectsQueue, let q = state.selectedQueue, board.scenario.contains(q) else { return nil }
        return q
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        let hiding = frame.predict?.hidesAnswers ?? false
        if let q = inspectedQueue(board: board, state: state) {
            let content = PaneView.frame(
                rect, title: "Inspector: queue \(board[queue: q].name)", glyphs: frame.glyphs, theme: theme,
                into: &grid)
            let items = queueLines(board: board, queue: q, hiding: hiding).map { ($0.text, style($0, theme)) }
            PaneView.paragraphs(items, indent: 2, into: &grid, rect: content)
            return
        }
        let name = state.selectedOperation.map { board[operation: $0].name }
        let title = name.map { "Inspector: \($0)" } ?? "Inspector"
        let content = PaneView.frame(rect, title: title, glyphs: frame.glyphs, theme: theme, into: &grid)
        guard let op = state.selectedOperation else {
            grid.write(
                ScreenWords.noOperationSelected, at: Position(column: content.x, row: content.y), style: theme.dim,
                clippedTo: content)
            return
        }
        let asked = state.waitsFor.answerLine(about: op, in: board.scenario)
        let items = lines(board: board, op: op, now: frame.now, hiding: hiding, asked: asked).map {
            ($0.text, style($0, theme))
        }
        PaneView.paragraphs(items, indent: 2, into: &grid, rect: content)
    }

    private static func style(_ line: InspectorLine, _ theme: Theme) -> Style {
        switch line.role {
        case .plain: theme.plain
        case .heading, .reason: theme.heading
        case .note: theme.dim
        }
    }

    /// The queue inspector's lines; `hiding` leaves out its reasons and
    /// notes, like the operation's.
    static func queueLines(board: BoardState, queue: QueueID, hiding: Bool) -> [InspectorLine] {
        let all = QueueInspectorText.lines(board: board, queue: queue)
        return hiding ? all.filter { $0.role != .reason && $0.role != .note } : all
    }

    /// The inspector's lines; `hiding` (a question not yet answered)
    /// leaves out the reasons and the engine's notes, which would give the
    /// answer away. `asked`, the answer to `D` about this operation, comes
    /// first: it is what the user just asked.
    static func lines(board: BoardState, op: OperationID, now: Double, hiding: Bool, asked: InspectorLine? = nil)
        -> [InspectorLine]
    {
        let all = InspectorText.lines(board: board, op: op, now: now)
        return (asked.map { [$0] } ?? []) + (hiding ? all.filter { $0.role != .reason && $0.role != .note } : all)
    }
}
