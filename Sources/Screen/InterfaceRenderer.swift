import Board

/// One drawn frame: the cells, and where the cards and queues landed (for
/// mouse clicks).
public struct RenderedFrame: Sendable, Hashable {
    public var grid: CellGrid
    public var hitMap: HitMap
}

/// Draws the whole main screen for a board, the interface state and the
/// per-frame values into a fresh grid of `frame.size`. Pure: the same
/// inputs give the same cells; the backend diffs and flushes them.
public enum InterfaceRenderer {
    /// The width an overlay's text is shown at on a terminal of `size`
    /// (`OverlayView.textWidth(for:)`): what the session writes the
    /// diagnostics of a watched file for.
    public static func overlayTextWidth(for size: Size) -> Int { OverlayView.textWidth(for: size) }

    public static func render(board: BoardState, state: InterfaceState, frame: FrameInput) -> RenderedFrame {
        var rendered = draw(board: board, state: state, frame: frame)
        if frame.ascii { rendered.grid.makeASCII() }
        return rendered
    }

    private static func draw(board: BoardState, state: InterfaceState, frame: FrameInput) -> RenderedFrame {
        var grid = CellGrid(size: frame.size)
        var hits = HitMap()
        guard let layout = layout(board: board, state: state, frame: frame) else {
            TooSmallView.draw(size: frame.size, glyphs: frame.glyphs, into: &grid)
            return RenderedFrame(grid: grid, hitMap: hits)
        }
        let theme = Theme(colors: frame.colors)
        let status = RunStatus(board: board, frame: frame, selectedQueue: state.selectedQueue)
        TitleBarView.draw(
            board: board, frame: frame, status: status, theme: theme, into: &grid, rect: layout.title,
            filter: state.filter.titleNote(board: board))
        QueueLinesView.draw(
            board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.queues, hits: &hits)
        if let caption = layout.caption {
            CaptionView.draw(frame: frame, theme: theme, into: &grid, rect: caption)
        }
        if state.graphShown {
            GraphView.draw(board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.boardArea)
        } else if state.boardArea == .table {
            TableView.draw(
                board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.boardArea, hits: &hits
            )
        } else if state.boardArea.isOverTime {
            TimelineView.draw(
                board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.boardArea, hits: &hits
            )
        } else {
            ColumnsView.draw(
                board: board, state: state, frame: frame, layout: layout, theme: theme, into: &grid, hits: &hits)
        }
        InspectorView.draw(board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.inspector)
        if let log = layout.log {
            LogView.draw(board: board, state: state, frame: frame, theme: theme, into: &grid, rect: log)
        }
        if let notes = layout.notes {
            NotesView.draw(
                board: board, state: state, frame: frame, status: status, theme: theme, into: &grid, rect: notes)
        }
        for separator in layout.paneSeparators {
            grid.drawBox(separator, glyphs: frame.glyphs, style: theme.rule)
            // Where the separator meets the panes' rule, keep the rule whole.
            grid.write(
                frame.glyphs.horizontal, at: Position(column: separator.x, row: separator.y - 1), style: theme.rule)
        }
        if let dock = layout.dockSeparator { grid.drawBox(dock, glyphs: frame.glyphs, style: theme.rule) }
        StatusLineView.draw(
            board: board, state: state, frame: frame, status: status, theme: theme, into: &grid, rect: layout.status)
        KeyBarView.draw(
            frame: frame, status: status, area: state.boardArea, graph: state.graphShown,
            band: state.graphShown && state.criticalPathShown && state.selectedOperation != nil, theme: theme,
            into: &grid, rect: layout.keyBar)
        if state.overlay != .none {
            OverlayView.draw(board: board, state: state, frame: frame, theme: theme, into: &grid, rect: layout.overlay)
            hits = HitMap()  // the overlay covers the board: clicks select nothing
        }
        return RenderedFrame(grid: grid, hitMap: hits)
    }

    /// The layout of a frame: the one function the renderer and the
    /// controller both ask, so that they agree on every rectangle.
    static func layout(board: BoardState, state: InterfaceState, frame: FrameInput) -> ScreenLayout? {
        let width = frame.size.columns
        let captionLines = CaptionView.lines(frame: frame, width: width).count
        return ScreenLayout(frame: frame, board: board, state: state, captionLines: captionLines)
    }

    /// The hit map `render` would return, without drawing: the controller
    /// maps mouse clicks through it.
    public static func hitMap(board: BoardState, state: InterfaceState, frame: FrameInput) -> HitMap {
        var hits = HitMap()
        guard state.overlay == .none, let layout = layout(board: board, state: state, frame: frame) else {
            return hits
        }
        let first = QueueLinesView.firstShown(
            count: board.queues.count, rows: layout.queues.height, selected: state.selectedQueue?.index)
        for (i, row) in board.queues.dropFirst(first).prefix(layout.queues.height).enumerated() {
            hits.add(
                Rect(x: layout.queues.x, y: layout.queues.y + i, width: layout.queues.width, height: 1), .queue(row.id))
        }
        if state.boardArea == .table {
            let table = TableView.table(board: board, state: state, frame: frame)
            let columns = OperationTable.placed(
                width: layout.boardArea.width, scenario: board.scenario, sort: table.sort.column)
            TableView.addTitleHits(columns, rect: layout.boardArea, into: &hits)
            for (op, y) in TableView.shownRows(table, state: state, rect: layout.boardArea) {
                hits.add(Rect(x: layout.boardArea.x, y: y, width: layout.boardArea.width, height: 1), .lane(op))
            }
            return hits
        }
        if state.boardArea.isOverTime {
            if let timeline = frame.timeline,
                let plan = TimelinePlan(state: state, frame: frame, rect: layout.boardArea, board: board)
            {
                TimelineView.addHits(plan, timeline: timeline, into: &hits)
            }
            return hits
        }
        for (_, cards) in ColumnsView.slots(board: board, state: state, layout: layout) {
            for (id, rect) in cards { hits.add(rect.intersection(layout.columnBody), .card(id)) }
        }
        return hits
    }
}
