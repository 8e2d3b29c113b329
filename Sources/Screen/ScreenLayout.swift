import Board

/// Where each part of the main screen goes for a frame, in cells. One
/// function, used by the renderer to draw and by the controller to map
/// mouse clicks and page sizes, so both always agree.
///
/// Top to bottom: title bar (1 row), queue lines (1 per queue, at most
/// rows / 8), the caption band while a caption shows (its wrapped lines,
/// at most 3), the five columns (a header row, then cards), the bottom
/// panes (each with a one-row rule carrying its title), the status line
/// (message or main-thread note) and the key bar. From `dockColumns` on,
/// the notes dock takes the right of the columns and bottom panes; below,
/// the notes take the log's place in the bottom panes when they show. The
/// bottom panes are the inspector and the log side by side; they take 2/5
/// of the rows left (5…16), the columns the rest; an expanded inspector
/// takes 2/3 and hides the log.
struct ScreenLayout: Sendable, Hashable {
    /// Below this the screen shows `TooSmallView` instead: the columns need
    /// 5 × 11 cells for a readable card, the panes 4 rows of text.
    static let minimum = Size(columns: 60, rows: 16)
    /// From this width the notes are a dock beside the board.
    static let dockColumns = 100
    /// From this width cards have a fourth row: start, duration, thread.
    static let detailedCardColumns = 160
    /// The most rows the caption band takes.
    static let captionRows = 3

    let title: Rect
    let queues: Rect
    /// The caption band; nil while no caption shows.
    let caption: Rect?
    /// The five column rectangles (header row + body), left to right.
    let columns: [Rect]
    /// One-cell-wide vertical lines between the columns.
    let columnSeparators: [Rect]
    /// The rows of the columns below their headers (the board's width).
    let columnBody: Rect
    /// The whole of the columns' place, headers included: where the
    /// timeline and the thread view draw instead (`BoardArea`).
    let boardArea: Rect
    /// Rows of a card: 3, or 4 on wide terminals.
    let cardHeight: Int
    let inspector: Rect
    let log: Rect?
    /// The notes pane: the dock, or in the bottom panes.
    let notes: Rect?
    /// The notes are the dock on the right.
    let notesDocked: Bool
    /// One-cell-wide vertical lines between the bottom panes.
    let paneSeparators: [Rect]
    /// The vertical line left of the notes dock, when docked.
    let dockSeparator: Rect?
    let status: Rect
    let keyBar: Rect
    /// Where the help and Swift overlays go (centred).
    let overlay: Rect

    /// Whether the notes show in this frame (`InterfaceState.NotesChoice`).
    /// A question (predict mode) always shows: it is where the answer is
    /// typed and the grade read.
    static func notesShown(state: InterfaceState, frame: FrameInput) -> Bool {
        if frame.predict != nil { return true }
        return switch state.notes {
        case .shown: true
        case .hidden: false
        case .automatic: frame.size.columns >= dockColumns || frame.isPaused || frame.notStarted
        }
    }

    /// nil below `minimum`.
    init?(frame: FrameInput, board: BoardState, state: InterfaceState, captionLines: Int = 0) {
        let size = frame.size
        guard size.columns >= Self.minimum.columns, size.rows >= Self.minimum.rows else { return nil }
        let screen = Rect(size: size)
        let queueRows = min(board.queues.count, max(1, size.rows / 8))
        let captionRows = min(Self.captionRows, max(0, captionLines), max(0, size.rows / 8))
        let available = size.rows - 3 - queueRows - captionRows
        let showNotes = Self.notesShown(state: state, frame: frame)
        let docked = showNotes && size.columns >= Self.dockColumns
        let dockWidth = min(56, max(30, size.columns * 3 / 10))
        var bottomRows = min(16, max(5, available * 2 / 5))
        if state.inspectorExpanded {
            // Expanded: as tall as its text (and its rule), within two
            // thirds of the room, never shorter than it was.
            let width = docked ? size.columns - dockWidth - 1 : size.columns
            let hiding = frame.predict?.hidesAnswers ?? false
            var needed: Int?
            if let q = InspectorView.inspectedQueue(board: board, state: state) {
                needed = InspectorView.textRows(board: board, queue: q, width: width, hiding: hiding)
            } else if let op = state.selectedOperation, board.scenario.contains(op) {
                needed = InspectorView.textRows(
                    board: board, op: op, now: frame.now, width: width, hiding: hiding,
                    asked: state.waitsFor.answerLine(about: op, in: board.scenario))
            }
            if let needed { bottomRows = min(available * 2 / 3, max(bottomRows, needed + 1)) }
        }
        let rows = screen.split(
            .vertical,
            [
                .fixed(1), .fixed(queueRows), .fixed(captionRows), .fixed(available - bottomRows),
                .fixed(bottomRows), .fixed(1), .fixed(1),
            ])
        title = rows[0]
        queues = rows[1]
        caption = captionRows > 0 ? rows[2] : nil
        status = rows[5]
        keyBar = rows[6]

        notesDocked = docked
        var dockLine: Rect?
        var boardArea = rows[3]
        var bottomArea = rows[4]
        var dock: Rect?
        if docked {
            let middle = Rect(x: 0, y: rows[3].y, width: size.columns, height: rows[3].height + rows[4].height)
            let parts = middle.split(.horizontal, [.fill, .fixed(1), .fixed(dockWidth)])
            boardArea = Rect(x: 0, y: rows[3].y, width: parts[0].width, height: rows[3].height)
            bottomArea = Rect(x: 0, y: rows[4].y, width: parts[0].width, height: rows[4].height)
            dockLine = parts[1]
            dock = parts[2]
        }

        let columnParts = boardArea.split(
            .horizontal, [.fill, .fixed(1), .fill, .fixed(1), .fill, .fixed(1), .fill, .fixed(1), .fill])
        columns = stride(from: 0, to: columnParts.count, by: 2).map { columnParts[$0] }
        columnSeparators = stride(from: 1, to: columnParts.count, by: 2).map { columnParts[$0] }
        columnBody = boardArea.inset(top: 1)
        self.boardArea = boardArea
        cardHeight = size.columns >= Self.detailedCardColumns && columnBody.height >= 12 ? 4 : 3

        let showLog = state.logVisible && !state.inspectorExpanded
        let notesBelow = showNotes && !docked && !state.inspectorExpanded
        var weights = [5]
        if notesBelow || showLog { weights.append(4) }
        var constraints: [Constraint] = []
        for (i, w) in weights.enumerated() {
            if i > 0 { constraints.append(.fixed(1)) }
            constraints.append(.remaining(weight: w))
        }
        let parts = bottomArea.split(.horizontal, constraints)
        var panes = stride(from: 0, to: parts.count, by: 2).map { parts[$0] }
        paneSeparators = stride(from: 1, to: parts.count, by: 2).map { parts[$0].inset(top: 1) }
        dockSeparator = dockLine
        inspector = panes.removeFirst()
        if notesBelow {
            notes = panes.removeFirst()
            log = nil
        } else {
            log = showLog ? panes.removeFirst() : nil
            notes = dock
        }

        overlay = Self.overlayRect(size)
    }

    /// Where the overlays go at `size`: centred, at most 100 columns wide.
    static func overlayRect(_ size: Size) -> Rect {
        let overlayWidth = min(size.columns - 4, 100)
        let overlayHeight = size.rows - 4
        return Rect(x: (size.columns - overlayWidth) / 2, y: 2, width: overlayWidth, height: overlayHeight)
    }
}
