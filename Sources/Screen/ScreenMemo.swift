import Board
import RunEvents
import ScenarioKit
import Synchronization

/// What the frames of one scenario's run derive from values that rarely
/// change, kept by the shell that draws them (one per scenario shown) and
/// handed to each frame (`FrameInput.memo`): the timeline's order of the
/// scenario's operations, and the thread view's canvas of a timeline that
/// has not changed since the last frame (a step through history moves only
/// the cursor over it), and the table's sorted order. On a run of 100,000 operations each is tens of
/// milliseconds to make; a frame without a memo makes them again.
///
/// Locked: frames are drawn on the main thread, but `FrameInput` is
/// `Sendable`.
public final class ScreenMemo: Sendable {
    private struct CanvasKey: Hashable {
        var recorded: Int
        var window: TimeWindow
        var edge: Double
        var plotX: Int
        var plotWidth: Int
        var rows: [TimelineRow]
        var ys: [Int]
    }

    /// What a table's order depends on: the board's moment, the lanes
    /// recorded, the sort and the filter.
    private struct TableKey: Hashable {
        var seq: Int
        var count: Int
        var recorded: Int
        var sort: OperationTable.Sort
        var visible: Set<OperationID>?
    }

    private struct Kept {
        var order: TimelineOrder?
        var canvas: (key: CanvasKey, canvas: ThreadCanvas)?
        var search: NameSearch?
        var tableRows: (key: TableKey, rows: [OperationID])?
    }

    private let kept = Mutex(Kept())
    /// The scenario's dependency graph (`graph(of:)`, in GraphView.swift).
    let graphKept = Mutex<GraphDrawing?>(nil)
    /// Held while the scenario's graph is laid out (`layOutGraph`, ahead,
    /// or a frame's): one layout, which the other waits for.
    let graphLayoutLock = Mutex<Void>(())
    /// What stands for what with the folds of the last frame (`foldedAs`).
    let foldsKept = Mutex<(folds: Set<OperationID>, count: Int, drawnAs: [OperationID?]?)?>(nil)
    /// The selection's reach in the graph drawn (`reach(of:in:)`).
    let reachKept = Mutex<
        (op: OperationID, count: Int, drawnAs: [OperationID?]?, up: [Bool], down: [Bool])?
    >(nil)
    /// The graph a filter and folds leave (`graph(of:drawnAs:)`).
    let shapedGraphKept = Mutex<GraphDrawing?>(nil)
    /// The last critical path `H` showed (`heldBack`, in GraphView+Path.swift).
    let heldBackKept = Mutex<HeldBack?>(nil)
    /// The timeline the critical paths of `H` are read from, for the first
    /// `count` events (`pathTimeline`, in GraphView+Path.swift).
    let pathTimelineKept = Mutex<(count: Int, timeline: RunTimeline)?>(nil)

    public init() {}

    /// The scenario's timeline order (the memo serves one scenario).
    func order(of scenario: Scenario) -> TimelineOrder {
        if let order = kept.withLock({ $0.order }), order.operationCount == scenario.operations.count {
            return order
        }
        let order = TimelineOrder(scenario)
        kept.withLock { $0.order = order }
        return order
    }

    /// The names `/` searches, made once (the memo serves one scenario).
    func search(of scenario: Scenario) -> NameSearch {
        if let search = kept.withLock({ $0.search }), search.count == scenario.operations.count { return search }
        let search = NameSearch(scenario)
        kept.withLock { $0.search = search }
        return search
    }

    /// The table of `board` sorted by `sort`, its rows sorted again only
    /// when the board, the lanes, the sort or the filter changed (a frame
    /// that only moves the selection keeps the order).
    func table(
        board: BoardState, lanes: TimelineLanes?, sort: OperationTable.Sort, visible: Set<OperationID>?
    ) -> OperationTable {
        let key = TableKey(
            seq: board.lastSeq, count: board.cards.count, recorded: lanes?.recorded ?? -1, sort: sort,
            visible: visible)
        if let kept = kept.withLock({ $0.tableRows }), kept.key == key {
            return OperationTable(board: board, lanes: lanes, sort: sort, visible: visible, rows: kept.rows)
        }
        let table = OperationTable(board: board, lanes: lanes, sort: sort, visible: visible)
        kept.withLock { $0.tableRows = (key, table.rows) }
        return table
    }

    /// The thread canvas of `plan` over `timeline`, made again only when
    /// the timeline recorded more or the plan shows another window or rows.
    func canvas(_ plan: TimelinePlan, timeline: TimelineLanes) -> ThreadCanvas {
        let key = CanvasKey(
            recorded: timeline.recorded, window: plan.window, edge: plan.edge, plotX: plan.plot.x,
            plotWidth: plan.plot.width, rows: plan.rows.map(\.row), ys: plan.rows.map(\.y))
        if let kept = kept.withLock({ $0.canvas }), kept.key == key { return kept.canvas }
        let canvas = ThreadCanvas(plan, timeline: timeline)
        kept.withLock { $0.canvas = (key, canvas) }
        return canvas
    }
}
