import Board
import RunEvents
import ScenarioKit

/// The interface state that persists from frame to frame: what is selected,
/// how far things are scrolled, which panes and overlays are open, the
/// transient message. A plain value; only `InterfaceController` and
/// `reconcile` change it, the renderer only reads it.
///
/// The selection is an operation, not a slot: when events move the card to
/// another column the selection goes with it.
public struct InterfaceState: Sendable, Hashable {
    /// Lines of a band scrolled out above, for one operation.
    public struct BandScroll: Sendable, Hashable {
        public var op: OperationID?
        public var line = 0
        public init(op: OperationID? = nil, line: Int = 0) {
            self.op = op
            self.line = line
        }
    }

    public enum Overlay: Sendable, Hashable {
        case none, help
        /// The Swift program the scenario stands for (`opscope swift`).
        case swift
        /// Why the run is stuck (`y`): its stall by root cause, then each
        /// stuck operation with its own reason.
        case stall
        /// This run compared with the one before it (`d`, after `r` or a
        /// reload): `FrameInput.overlayText`.
        case diff
        /// A save of a watched file that has errors: its diagnostics
        /// (`FrameInput.overlayText`), over the run before it.
        case problems
    }

    /// Whether the notes pane shows: the user's choice (`n`), or the
    /// interface's (`automatic`: from `ScreenLayout.dockColumns` always, a
    /// dock beside the board; below that in place of the log while the run
    /// is paused or not started, when there is time to read).
    public enum NotesChoice: Sendable, Hashable {
        case automatic, shown, hidden
    }

    /// The selected operation; nil only when the scenario has none.
    public var selectedOperation: OperationID?
    /// The column the cursor is in (index into `Phase.columns`), kept for
    /// moves when the selection is gone.
    public var selectedColumn = 0
    /// The target of C, s, +, -, 0; nil only when the scenario has no queue.
    public var selectedQueue: QueueID?
    /// The inspector shows `selectedQueue` rather than the selected
    /// operation: set when a queue line is selected (Tab, Shift-Tab, a
    /// click on it), cleared when a card is (the arrows, a click on one).
    public var inspectsQueue = false
    /// First visible card index per column, `Phase.columns` order. Stored
    /// wishes: the views apply `ColumnScroll.offset` to keep the selection visible.
    public var columnScroll = [0, 0, 0, 0, 0]
    public var logVisible = true
    /// Lines scrolled back from the newest log line; 0 follows the log.
    public var logScroll = 0
    /// `f`: the log shows only the lines about this operation.
    public var logFilter: OperationID?
    public var notes = NotesChoice.automatic
    public var overlay = Overlay.none
    /// Lines scrolled down in the open overlay.
    public var overlayScroll = 0
    /// Lines of the notes pane scrolled out above (`(` `)`, the wheel).
    public var notesScroll = 0
    /// Enter: the inspector takes the full width and more height.
    public var inspectorExpanded = false
    /// `t`: the columns, the timeline, the thread view or the table in the board area.
    public var boardArea = BoardArea.columns
    /// `G`: the dependency graph takes the board area, whatever `t` chose.
    public var graphShown = false
    /// `e` in the graph: operations whose node also stands for all that
    /// waits for them (`GraphFolds`).
    public var graphFolds: Set<OperationID> = []
    /// `H`: the graph marks the selected operation's critical path and
    /// lists its links.
    public var criticalPathShown = false
    /// `H`'s band scrolled (PgUp PgDn, Home End): the first of its lines
    /// shown, for the operation it was scrolled on (another starts at the
    /// top).
    public var criticalPathScroll = BandScroll()
    /// The timeline's window and rows scrolled (both views over time share them).
    public var timelineView = TimelineViewState()
    /// The table's sort and rows scrolled (`BoardArea.table`).
    public var tableView = TableViewState()
    /// The history cursor: how many of the run's notifications the screen
    /// shows; nil: the live run (or, once it ended, its end).
    public var historyCursor: Int?
    /// `g`: the time being typed to move the history cursor to; nil while
    /// not typing.
    public var timeEntry: String?
    /// `/`: the search being typed, and the one kept for Ctrl-N / Ctrl-P.
    public var search = SearchState()
    /// `F`: the filter in force and the one being typed.
    public var filter = FilterState()
    /// `D`: the name being typed, and the last answer.
    public var waitsFor = WaitsForState()
    public var message: TransientMessage?
    /// What the engine did with the last action from a key (it replaces
    /// `message`, and a message replaces it).
    public var notice: ActionNotice?

    public init() {}

    /// A state for a fresh board: the first card and the first queue selected.
    public init(board: BoardState) {
        reconcile(with: board)
    }

    /// Makes the state fit `board` after a batch of events (or a restart):
    /// the selection follows its operation into whatever column it is in
    /// now; a missing selection falls back to the first card; the queue
    /// stays valid; with `frame`, the scroll offsets are also settled so that
    /// the selected card is visible at that terminal size.
    public mutating func reconcile(with board: BoardState, frame: FrameInput? = nil) {
        let columns = self.columns(board)
        if let op = selectedOperation, let place = columns.locate(op) {
            selectedColumn = place.column
        } else {
            selectedOperation =
                columns.ids.indices.contains(selectedColumn)
                ? columns.ids[selectedColumn].first ?? columns.first : columns.first
            if let op = selectedOperation, let place = columns.locate(op) { selectedColumn = place.column }
        }
        if board.queues.isEmpty {
            selectedQueue = nil
        } else if selectedQueue == nil || selectedQueue!.index >= board.queues.count {
            selectedQueue = selectedOperation.map { board[operation: $0].queue } ?? QueueID(0)
        }
        for c in columnScroll.indices {
            columnScroll[c] = min(max(0, columnScroll[c]), max(0, columns.ids[c].count - 1))
        }
        if let frame { settleScroll(board: board, frame: frame) }
    }

    /// Scrolls `op`'s column just enough that its card shows (a caption
    /// names it), leaving the selection where it is.
    public mutating func reveal(_ op: OperationID, board: BoardState, frame: FrameInput) {
        let columns = self.columns(board)
        guard let layout = InterfaceRenderer.layout(board: board, state: self, frame: frame),
            let place = columns.locate(op), columnScroll.indices.contains(place.column)
        else { return }
        let count = columns.ids[place.column].count
        columnScroll[place.column] = ColumnScroll.offset(
            stored: columnScroll[place.column], count: count, capacity: ColumnsView.capacity(layout),
            selected: place.index)
    }

    /// Stores the effective scroll offsets the renderer would use.
    mutating func settleScroll(board: BoardState, frame: FrameInput) {
        guard let layout = InterfaceRenderer.layout(board: board, state: self, frame: frame) else { return }
        let columns = self.columns(board)
        let capacity = ColumnsView.capacity(layout)
        for c in columnScroll.indices {
            let selected = c == selectedColumn ? selectedOperation.flatMap { columns.ids[c].firstIndex(of: $0) } : nil
            columnScroll[c] = ColumnScroll.offset(
                stored: columnScroll[c], count: columns.ids[c].count, capacity: capacity, selected: selected)
        }
        if boardArea == .table { tableView.scroll = TableView.offset(board: board, state: self, frame: frame) }
        if boardArea.isOverTime,
            let plan = TimelinePlan(state: self, frame: frame, rect: layout.boardArea, board: board)
        {
            if plan.threads { timelineView.threadScroll = plan.first } else { timelineView.laneScroll = plan.first }
        }
    }

    /// Shows `text` until `TransientMessage.lifetime` real seconds after `now`.
    /// Shows `text` on the status line for `lasting` real seconds.
    public mutating func show(
        _ text: String, kind: TransientMessage.Kind = .info, now: Double, lasting: Double = TransientMessage.lifetime
    ) {
        message = TransientMessage(text, kind: kind, expiresAt: now + lasting)
        notice = nil
    }

    /// Shows what the engine did with an action from a key (its event).
    public mutating func show(_ action: Action, ignored: ActionRefusal?, seq: Int, now: Double) {
        notice = ActionNotice(
            action: action, ignored: ignored, seq: seq, expiresAt: now + TransientMessage.lifetime)
        message = nil
    }

    /// Clears the status line (the selection moved: what it said was about another card).
    public mutating func clearMessages() {
        message = nil
        notice = nil
    }

    /// The message, if it has not expired at `now` (real seconds).
    public func visibleMessage(now: Double) -> TransientMessage? {
        guard let message, now < message.expiresAt else { return nil }
        return message
    }

    /// The action notice, if it has not expired at `now` (real seconds).
    public func visibleNotice(now: Double) -> ActionNotice? {
        guard let notice, now < notice.expiresAt else { return nil }
        return notice
    }

    /// The state after `r`: panes as they were, selection and scrolling
    /// reset. Nothing is selected until `reconcile(with:)` sees the fresh
    /// board, which selects its first card.
    public func restarted() -> InterfaceState {
        var fresh = InterfaceState()
        fresh.logVisible = logVisible
        fresh.inspectorExpanded = inspectorExpanded
        fresh.selectedQueue = selectedQueue
        fresh.notes = notes
        fresh.boardArea = boardArea
        fresh.graphShown = graphShown
        fresh.graphFolds = graphFolds
        fresh.criticalPathShown = criticalPathShown
        fresh.filter.active = filter.active
        fresh.tableView.sort = tableView.sort
        return fresh
    }
}
