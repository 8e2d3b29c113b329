import Board
import RunEvents
import ScenarioKit
import TextKit

/// The run over time, in the board area (`t`): a time axis, then for each
/// queue a header row with how many of its operations were executing in
/// each column (its cap marked where they reached it), and one row per
/// operation: `·` pending, `░` ready, `▒` dispatched and waiting for a
/// worker thread, `█` executing, then `✓` where it
/// finished or `⊘` where it finished cancelled. The axis marks the actions
/// and captions `▲` and the history cursor `▼`, whose line runs down
/// through the lanes. The thread view (`t` again) has a row per thread
/// instead (see `TimelineView+Threads`).
///
/// A pure function of the frame's `TimelineLanes`, the interface state and
/// a rectangle, like every view; what it draws comes from `TimelinePlan`,
/// which the controller asks too.
enum TimelineView {
    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme, into grid: inout CellGrid,
        rect: Rect, hits: inout HitMap
    ) {
        guard !rect.isEmpty else { return }
        guard let timeline = frame.timeline,
            let plan = TimelinePlan(state: state, frame: frame, rect: rect, board: board)
        else {
            grid.write(
                ScreenWords.noTimeline, at: Position(column: rect.x, row: rect.y), style: theme.dim,
                clippedTo: rect)
            return
        }
        let glyphs = frame.glyphs.timeline
        drawHeader(plan, timeline: timeline, frame: frame, theme: theme, into: &grid)
        drawAxis(plan, timeline: timeline, glyphs: glyphs, theme: theme, into: &grid)
        var canvas: ThreadCanvas?
        if plan.threads {
            // A filtered canvas is made for the frame: the memo keeps the whole run's.
            let memo = plan.admitted == nil ? frame.memo : nil
            let threads = memo?.canvas(plan, timeline: timeline) ?? ThreadCanvas(plan, timeline: timeline)
            drawThreads(threads, timeline: timeline, state: state, frame: frame, theme: theme, into: &grid)
            canvas = threads
        } else {
            drawLanes(plan, timeline: timeline, state: state, frame: frame, theme: theme, into: &grid)
        }
        drawCursor(plan, glyphs: glyphs, theme: theme, into: &grid)
        addHits(plan, timeline: timeline, canvas: canvas, into: &hits)
    }

    /// Where a click selects an operation or moves the cursor; the same
    /// regions `draw` adds (`canvas`: the thread view's, when it was built
    /// already).
    static func addHits(
        _ plan: TimelinePlan, timeline: TimelineLanes, canvas: ThreadCanvas? = nil, into hits: inout HitMap
    ) {
        let axis = Rect(x: plan.plot.x, y: plan.labelsY, width: plan.plot.width, height: 2).intersection(plan.area)
        hits.add(axis, .timeAxis)
        if plan.threads {
            for (rect, op) in (canvas ?? ThreadCanvas(plan, timeline: timeline)).runs() { hits.add(rect, .lane(op)) }
        } else {
            for (row, y) in plan.rows {
                guard case .operation(let op) = row else { continue }
                hits.add(Rect(x: plan.area.x, y: y, width: plan.area.width, height: 1), .lane(op))
            }
        }
    }

    // MARK: - Header and axis

    static func drawHeader(
        _ plan: TimelinePlan, timeline: TimelineLanes, frame: FrameInput, theme: Theme, into grid: inout CellGrid
    ) {
        let row = Rect(x: plan.area.x, y: plan.headerY, width: plan.area.width, height: 1)
        let dot = " \(frame.glyphs.dot) "
        var left = (plan.threads ? "Threads" : "Timeline") + dot
        left += "\(label(plan.window.start)) to \(label(plan.window.end))" + dot
        left += "\(stepText(plan.step)) a column"
        left += plan.fits ? "" : dot + "zoomed"
        let noun = !plan.threads ? "lanes" : timeline.inFlight.isEmpty ? "threads" : "rows"
        ViewHeader.draw(
            left, noun: noun, first: plan.first, shown: plan.shown, total: plan.total, frame: frame, theme: theme,
            into: &grid, row: row)
    }

    static func drawAxis(
        _ plan: TimelinePlan, timeline: TimelineLanes, glyphs: TimelineGlyphs, theme: Theme, into grid: inout CellGrid
    ) {
        guard plan.area.height > 2, plan.plot.width > 0 else { return }
        let x = plan.plot.x
        let width = plan.plot.width
        let clip = Rect(x: x, y: plan.labelsY, width: width, height: 2)
        for c in 0..<width { grid.put(Cell(glyphs.rule, style: theme.rule), at: x + c, row: plan.axisY) }
        let interval = tickInterval(step: plan.step)
        let decimals = decimals(of: interval)
        var k = (plan.window.start / interval - 1e-9).rounded(.up)
        var free = 0  // the first label column still free
        var previous = -Double.infinity
        while true {
            let t = k * interval
            // The column that holds the tick's moment, as for every span.
            let c = plan.column(of: t)
            // A tick no later than the one before: the window is beyond
            // what a double tells apart at this interval, nothing more to mark.
            guard c < width, t <= plan.window.end + plan.step * 1e-6, t > previous else { break }
            previous = t
            k += 1
            guard c >= 0 else { continue }
            grid.put(
                Cell(c == 0 && t == 0 ? glyphs.firstTick : glyphs.tick, style: theme.rule), at: x + c, row: plan.axisY)
            let text = label(t, decimals: decimals)
            if c >= free && c + text.count <= width {
                grid.write(text, at: Position(column: x + c, row: plan.labelsY), style: theme.dim, clippedTo: clip)
                free = c + text.count + 1
            }
        }
        for mark in timeline.marks {
            let c = plan.column(of: mark.time)
            if c >= 0 && c < width { grid.put(Cell(glyphs.mark, style: theme.timeMark), at: x + c, row: plan.axisY) }
        }
    }

    /// The cursor: `▼` on the axis, and a line down through the lanes that
    /// shows in the gaps and turns the glyphs it crosses to reverse video,
    /// so what each lane was doing at that moment still reads.
    static func drawCursor(_ plan: TimelinePlan, glyphs: TimelineGlyphs, theme: Theme, into grid: inout CellGrid) {
        let c = plan.column(of: plan.cursor)
        guard c >= 0, c < plan.plot.width, plan.area.height > 2 else { return }
        let x = plan.plot.x + c
        grid.put(Cell(glyphs.cursorHead, style: theme.cursorLine), at: x, row: plan.axisY)
        for (_, y) in plan.rows {
            var cell = grid[x, y]
            if cell.text == " " {
                cell = Cell(glyphs.cursorLine, style: theme.cursorLine)
            } else if !cell.isContinuation && !cell.isWide {
                cell.style.reverse.toggle()
            }
            grid.put(cell, at: x, row: y)
        }
    }

    // MARK: - Lanes

    static func drawLanes(
        _ plan: TimelinePlan, timeline: TimelineLanes, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid
    ) {
        let glyphs = frame.glyphs
        let names = Rect(x: plan.area.x, y: plan.area.y, width: plan.nameWidth - 1, height: plan.area.height)
        if plan.rows.isEmpty, plan.body.height > 0 {
            let text = timeline.scenario.operations.isEmpty ? ScreenWords.noOperations : ""
            grid.write(
                text, at: Position(column: plan.area.x, row: plan.body.y), style: theme.dim, clippedTo: plan.body)
        }
        for (row, y) in plan.rows {
            switch row {
            case .queue(let q):
                let ascii = glyphs.isASCII
                let most = drawRunning(
                    timeline.queueSteps[q.index], plan: plan, y: y, theme: theme, ascii: ascii, into: &grid)
                // A row drawn to scale says what its top stands for, before the name gives way.
                let legend = RunningScale.legend(most: most, ascii: ascii)
                let label = truncate(
                    TimelinePlan.queueLabel(q, timeline: timeline),
                    toWidth: max(1, names.width - displayWidth(legend)), ellipsis: glyphs.ellipsis)
                grid.write(
                    label + legend, at: Position(column: names.x, row: y), style: theme.heading, clippedTo: names)
            case .byHand:
                grid.write(
                    truncate(TimelinePlan.byHandLabel, toWidth: names.width, ellipsis: glyphs.ellipsis),
                    at: Position(column: names.x, row: y), style: theme.heading, clippedTo: names)
            case .operation(let op):
                let selected = op == state.selectedOperation
                let name = fit(
                    "  " + timeline.scenario.operations[op.index].name, names.width, ellipsis: glyphs.ellipsis)
                let lane = timeline.lanes[op.index]
                let style = selected ? theme.selected : lane.begins == nil ? theme.dim : theme.plain
                grid.write(name, at: Position(column: names.x, row: y), style: style, clippedTo: names)
                drawLane(lane, plan: plan, y: y, glyphs: glyphs, theme: theme, into: &grid)
            case .thread, .inFlightHeader, .inFlight:
                break
            }
        }
    }

    /// One operation's row: per column the most advanced state it was in
    /// during that column, then its end.
    static func drawLane(
        _ lane: TimelineLanes.Lane, plan: TimelinePlan, y: Int, glyphs: GlyphSet, theme: Theme,
        into grid: inout CellGrid
    ) {
        guard let begins = lane.begins, plan.plot.width > 0 else { return }
        let first = plan.column(of: begins)
        let last = plan.column(of: lane.finished ?? plan.edge)
        let from = max(0, first)
        let to = min(last, plan.plot.width - 1)
        guard from <= to else { return }
        let g = glyphs.timeline
        let pending = Cell(g.pending, style: theme.pendingSpan)
        let ready = Cell(g.ready, style: theme.readySpan)
        let executing = Cell(g.executing, style: theme.executingSpan)
        let dispatched = Cell(g.dispatched, style: theme.dispatchedSpan)
        let readyAt = lane.ready ?? .infinity
        let dispatchedAt = lane.dispatched ?? .infinity
        let startedAt = lane.started ?? .infinity
        let stoppedAt = lane.stopped ?? .infinity
        for c in from...to {
            let begins = plan.time(atColumn: c)
            let ends = begins + plan.step
            let cell: Cell
            if startedAt < ends && stoppedAt >= begins {
                cell = executing
            } else if dispatchedAt < ends {
                cell = dispatched
            } else if readyAt < ends {
                cell = ready
            } else {
                cell = pending
            }
            grid.put(cell, at: plan.plot.x + c, row: y)
        }
        if lane.finished != nil, last == to {
            let end =
                lane.cancelled != nil
                ? Cell(glyphs.cancelled, style: theme.cancelledEnd) : Cell(glyphs.check, style: theme.finishedEnd)
            grid.put(end, at: plan.plot.x + last, row: y)
        }
    }

    /// A queue's header row: the most of its operations executing at once
    /// in each column (blank for none; to scale when a column in view
    /// counts more than 9, `RunningScale`), in reverse video where that
    /// reached the cap in force then. Returns the count the scale's top
    /// stands for, when the row is drawn to scale.
    @discardableResult
    static func drawRunning(
        _ steps: [TimelineLanes.QueueStep], plan: TimelinePlan, y: Int, theme: Theme, ascii: Bool = false,
        into grid: inout CellGrid
    ) -> Int? {
        guard plan.plot.width > 0 else { return nil }
        // The first step at or after the window's start (steps are in time order).
        var low = 0
        var high = steps.count
        while low < high {
            let mid = (low + high) / 2
            if steps[mid].time < plan.window.start { low = mid + 1 } else { high = mid }
        }
        var index = low
        var current = index > 0 ? steps[index - 1].executing : 0
        var cap = index > 0 ? steps[index - 1].cap : -1
        let lastColumn = min(plan.plot.width - 1, plan.column(of: plan.edge))
        guard lastColumn >= 0 else { return nil }
        var tops = [Int](repeating: 0, count: lastColumn + 1)
        var reached = [Bool](repeating: false, count: lastColumn + 1)
        for c in 0...lastColumn {
            let ends = plan.time(atColumn: c + 1)
            var top = current
            var full = cap > 0 && current >= cap
            while index < steps.count && steps[index].time < ends {
                current = steps[index].executing
                cap = steps[index].cap
                top = max(top, current)
                if cap > 0 && current >= cap { full = true }
                index += 1
            }
            tops[c] = top
            reached[c] = full
        }
        let row = RunningScale.glyphs(tops, ascii: ascii)
        for c in 0...lastColumn where tops[c] > 0 {
            grid.put(
                Cell(String(row.glyphs[c]), style: reached[c] ? theme.capReached : theme.runningCount),
                at: plan.plot.x + c, row: y)
        }
        return row.most
    }

    // MARK: - Words

    /// Ticks at a round interval, at least ten columns apart.
    static func tickInterval(step: Double) -> Double {
        var scale = 0.0001
        while scale.isFinite {
            for base in [1.0, 2, 5] where base * scale / step >= 10 { return base * scale }
            scale *= 10
        }
        return step * 10
    }

    /// The decimals a label needs at `interval`: 1 for 0.2s, 3 for 0.005s.
    static func decimals(of interval: Double) -> Int {
        var d = 0
        var scaled = interval
        while d < 4 && abs(scaled - scaled.rounded()) > 1e-6 {
            scaled *= 10
            d += 1
        }
        return d
    }

    /// `0s`, `0.2s`, `1.25s`: seconds to `decimals`, without trailing zeros.
    static func label(_ t: Double, decimals: Int = 3) -> String {
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        // Held to what a whole number holds: a time no run reaches (a view
        // may be handed one) reads as the largest, never traps.
        let scaled = Int64(saturating: (max(0, t) * power).rounded())
        let whole = Int64(power)
        var text = String(scaled / whole)
        if decimals > 0 {
            var fraction = String(scaled % whole)
            fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
            while fraction.last == "0" { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return text + "s"
    }

    /// One column's length: to the millisecond from 10ms on, to the
    /// microsecond below (`13ms`, `2.5ms`, `0.1ms`).
    static func stepText(_ step: Double) -> String { TimelineText.stepText(step) }
}
