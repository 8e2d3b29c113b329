import Board
import RunEvents
import ScenarioKit
import TextKit

/// The pieces of the thread view's rows that show, painted in the order of
/// their start so that where two share a column the later one owns it,
/// and who owns each cell: what the view draws, highlights and maps clicks
/// from, so the three agree.
struct ThreadCanvas {
    /// A piece of one row, in plot columns (clipped to the plot).
    struct Piece {
        enum Kind {
            /// An operation's execution; `alternate`: every other one on its
            /// row, drawn with the other glyph. On a thread's row, a
            /// synchronous operation's (it holds the thread); on an in-flight
            /// row, an asynchronous one's time in flight (it holds none).
            case execution(alternate: Bool)
            /// A block; `away`: on another thread than its operation's.
            case block(index: Int, away: Bool)
            case completion
            /// An asynchronous operation's `start()` call, on the thread that
            /// made it: one column, since it returns at once (the stream
            /// has the moment, not the return).
            case start
        }

        var kind: Kind
        var operation: OperationID
        /// Index into the plan's rows.
        var row: Int
        var from: Int
        var to: Int
        /// Where the piece begins before clipping (a label starts there only
        /// if it was not clipped).
        var start: Int
    }

    let plan: TimelinePlan
    /// In painting order: executions, blocks and `start()` calls by their
    /// start (an operation's execution before its first block), then the
    /// completions.
    private(set) var pieces: [Piece] = []
    /// Per row of the plan, per plot column: the operation (index) drawn
    /// there last, or -1.
    private(set) var owners: [[Int]]
    /// The names written over the glyphs, each where its piece begins and
    /// only where it has room: a block's number where it begins (its
    /// operation's name where the block is on another thread), then each
    /// operation's name where its execution begins. Made with the canvas,
    /// since deciding means measuring every name.
    private(set) var labels: [(text: String, piece: Int)] = []

    init(_ plan: TimelinePlan, timeline: TimelineLanes) {
        self.plan = plan
        owners = plan.rows.map { _ in [Int](repeating: -1, count: plan.plot.width) }
        guard plan.plot.width > 0 else { return }
        var rowOf: [Int: Int] = [:]
        var inFlightRowOf: [Int: Int] = [:]
        for (i, (row, _)) in plan.rows.enumerated() {
            switch row {
            case .thread(let tag): rowOf[tag.number] = i
            case .inFlight(let r): inFlightRowOf[r] = i
            default: break
            }
        }
        guard !rowOf.isEmpty || !inFlightRowOf.isEmpty else { return }
        // (start, order at equal starts, piece)
        var timed: [(Double, Int, Piece)] = []
        func add(_ kind: Piece.Kind, _ op: OperationID, row: Int, _ begins: Double, _ ends: Double, rank: Int) {
            let first = plan.column(of: begins)
            let last = max(first, plan.column(of: ends))
            let from = max(0, first)
            let to = min(last, plan.plot.width - 1)
            guard from <= to else { return }
            timed.append((begins, rank, Piece(kind: kind, operation: op, row: row, from: from, to: to, start: first)))
        }
        var perThread: [Int: Int] = [:]
        var perInFlightRow: [Int: Int] = [:]
        let executions = timeline.lanes.indices.compactMap { i -> (Double, Int)? in
            let lane = timeline.lanes[i]
            guard let started = lane.started, lane.thread != nil || lane.inFlightRow != nil,
                plan.admitted?.contains(OperationID(i)) ?? true
            else { return nil }
            return (started, i)
        }
        for (started, i) in executions.sorted(by: { $0 < $1 }) {
            let lane = timeline.lanes[i]
            let stop = lane.stopped ?? lane.finished ?? plan.edge
            if let inFlight = lane.inFlightRow {
                // Asynchronous: the start() call on its thread, the time in
                // flight on its own row.
                if let thread = lane.thread, let row = rowOf[thread.number] {
                    add(.start, OperationID(i), row: row, started, started, rank: 0)
                }
                guard let row = inFlightRowOf[inFlight] else { continue }
                let k = perInFlightRow[inFlight, default: 0]
                perInFlightRow[inFlight] = k + 1
                add(.execution(alternate: k % 2 == 1), OperationID(i), row: row, started, stop, rank: 0)
                continue
            }
            guard let thread = lane.thread, let row = rowOf[thread.number] else { continue }
            let k = perThread[thread.number, default: 0]
            perThread[thread.number] = k + 1
            add(.execution(alternate: k % 2 == 1), OperationID(i), row: row, started, stop, rank: 0)
        }
        for (i, lane) in timeline.lanes.enumerated() where plan.admitted?.contains(OperationID(i)) ?? true {
            for block in lane.blocks {
                guard let row = rowOf[block.thread.number] else { continue }
                let kind = Piece.Kind.block(index: block.index, away: block.thread != lane.thread)
                add(kind, OperationID(i), row: row, block.started, block.returned ?? plan.edge, rank: 1)
            }
        }
        pieces = timed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
        for completion in timeline.completions where plan.admitted?.contains(completion.operation) ?? true {
            guard let row = rowOf[completion.thread.number] else { continue }
            let c = plan.column(of: completion.time)
            guard c >= 0 && c < plan.plot.width else { continue }
            pieces.append(Piece(kind: .completion, operation: completion.operation, row: row, from: c, to: c, start: c))
        }
        glyphs = plan.rows.map { _ in [Glyph](repeating: .none, count: plan.plot.width) }
        for p in pieces {
            let glyph: Glyph
            switch p.kind {
            case .execution(let alternate): glyph = alternate ? .executionAlternate : .execution
            case .block: glyph = .block
            case .completion: glyph = .completion
            case .start: glyph = .start
            }
            for c in p.from...p.to {
                owners[p.row][c] = p.operation.index
                glyphs[p.row][c] = glyph
            }
        }
        findLabels(timeline.scenario)
    }

    /// What a cell shows, the last piece over it deciding: kept with the
    /// canvas, so that a frame draws the plot's cells, not every piece of a
    /// run of a hundred thousand operations.
    enum Glyph: UInt8 {
        case none, execution, executionAlternate, block, completion, start
    }

    /// Per row of the plan, per plot column: what it shows.
    private(set) var glyphs: [[Glyph]] = []

    private mutating func findLabels(_ scenario: Scenario) {
        func label(_ text: String, _ i: Int) {
            let room = room(pieces[i])
            guard !text.isEmpty, room > 0, displayWidth(text) <= room else { return }
            labels.append((text, i))
        }
        for (i, p) in pieces.enumerated() {
            // Not where the window cut it: the number marks where it began.
            guard case .block(let index, let away) = p.kind, p.start == p.from else { continue }
            let name = scenario.operations[p.operation.index].name
            label(away ? "\(name).\(index + 1)" : index > 0 ? String(index + 1) : "", i)
        }
        for (i, p) in pieces.enumerated() {
            guard case .execution = p.kind else { continue }
            label(scenario.operations[p.operation.index].name, i)
        }
    }

    /// How many cells from its first shown one on `p` still owns.
    func room(_ p: Piece) -> Int {
        var c = p.from
        while c <= p.to && owners[p.row][c] == p.operation.index { c += 1 }
        return c - p.from
    }

    /// Each run of cells one operation owns, as a screen rectangle.
    func runs() -> [(Rect, OperationID)] {
        var runs: [(Rect, OperationID)] = []
        for (i, (_, y)) in plan.rows.enumerated() {
            var c = 0
            while c < plan.plot.width {
                let owner = owners[i][c]
                var end = c + 1
                while end < plan.plot.width && owners[i][end] == owner { end += 1 }
                if owner >= 0 {
                    runs.append((Rect(x: plan.plot.x + c, y: y, width: end - c, height: 1), OperationID(owner)))
                }
                c = end
            }
        }
        return runs
    }
}

/// The thread view: a row per thread (main first, then the others in the
/// order the run first used them) with the operations it ran, each a span
/// with its name inside where the name fits; the blocks of a `blocks`
/// operation `▒` (numbered from the second on: this Foundation runs them
/// one after another inside the operation's own span); the completion
/// blocks `◆`; an asynchronous operation's `start()` call `▸`, one column:
/// it returns at once. A pool that grows while its threads are blocked
/// shows as rows whose first span starts late (scenario 18's ramp).
///
/// Below the threads, under "in flight, no thread", the asynchronous
/// operations' time in flight (from `start()` to `isFinished`), packed
/// into rows per queue (`TimelineLanes.InFlightRow`): what they hold
/// meanwhile is no thread, so no thread's row shows it.
extension TimelineView {
    static func drawThreads(
        _ canvas: ThreadCanvas, timeline: TimelineLanes, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid
    ) {
        let plan = canvas.plan
        let glyphs = frame.glyphs
        let g = glyphs.timeline
        let names = Rect(x: plan.area.x, y: plan.area.y, width: plan.nameWidth - 1, height: plan.area.height)
        let selected = state.selectedOperation
        let selectedLane = selected.flatMap {
            timeline.lanes.indices.contains($0.index) ? timeline.lanes[$0.index] : nil
        }
        let selectedThread = selectedLane?.thread
        let selectedInFlight = selectedLane?.inFlightRow
        if plan.rows.isEmpty, plan.body.height > 0 {
            grid.write(
                "no operation has run on a thread yet", at: Position(column: plan.area.x, row: plan.body.y),
                style: theme.dim, clippedTo: plan.body)
        }
        for (row, y) in plan.rows {
            let text: String
            let mine: Bool
            switch row {
            case .thread(let tag):
                (text, mine) = (TimelinePlan.threadLabel(tag), tag == selectedThread)
            case .inFlight(let r):
                (text, mine) = (TimelinePlan.inFlightLabel(r, timeline: timeline), r == selectedInFlight)
            case .inFlightHeader:
                // Across the row: nothing is drawn in its plot.
                let whole = Rect(x: plan.area.x, y: y, width: plan.area.width, height: 1)
                grid.write(
                    truncate(TimelineLanes.inFlightHeading, toWidth: whole.width, ellipsis: glyphs.ellipsis),
                    at: Position(column: whole.x, row: y), style: theme.dim, clippedTo: whole)
                continue
            default:
                continue
            }
            grid.write(
                truncate(text, toWidth: names.width, ellipsis: glyphs.ellipsis),
                at: Position(column: names.x, row: y), style: mine ? theme.heading.reversed : theme.heading,
                clippedTo: names)
        }
        let x0 = plan.plot.x
        let cells: [ThreadCanvas.Glyph: Cell] = [
            .execution: Cell(g.executing, style: theme.executingSpan),
            .executionAlternate: Cell(g.executingAlternate, style: theme.executingSpan),
            .block: Cell(g.block, style: theme.executingSpan),
            .completion: Cell(g.completion, style: theme.completionMark),
            .start: Cell(g.start, style: theme.executingSpan),
        ]
        for (r, row) in canvas.glyphs.enumerated() {
            let y = plan.rows[r].y
            for (c, glyph) in row.enumerated() where glyph != .none {
                if let cell = cells[glyph] { grid.put(cell, at: x0 + c, row: y) }
            }
        }
        // The labels, over the glyphs.
        for (text, i) in canvas.labels {
            let p = canvas.pieces[i]
            grid.write(text, at: Position(column: x0 + p.from, row: plan.rows[p.row].y), style: theme.spanLabel)
        }
        // The selected operation's cells: bold and underlined.
        guard let selected else { return }
        for (i, (_, y)) in plan.rows.enumerated() {
            for c in 0..<plan.plot.width where canvas.owners[i][c] == selected.index {
                var style = grid[x0 + c, y].style
                style.bold = true
                style.underline = true
                grid.setStyle(style, in: Rect(x: x0 + c, y: y, width: 1, height: 1))
            }
        }
    }
}
