import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// The keys of the views over time, through the controller.
@Suite struct TimelineKeyTests {
    static let size = Size(columns: 80, rows: 24)

    @Test(arguments: [
        (Key.character("t"), InterfaceCommand.cycleBoardArea), (.character("z"), .zoomIn), (.character("Z"), .zoomOut),
        (.character(","), .scrollEarlier), (.character("."), .scrollLater), (.character("x"), .fitTimeline),
    ])
    func theTimelineKeysFindTheirCommands(key: Key, command: InterfaceCommand) {
        #expect(InterfaceKeys.table.command(for: key) == command)
    }

    @Test func tGoesRoundTheBoardTheTimelineTheThreadsAndTheTable() {
        var scene = TimelineScene(TimelineRuns.chain, .columns, size: Self.size)
        #expect(scene.wholeScreen[2].hasPrefix("Pending 0"))
        var seen: [BoardArea] = []
        for _ in 0..<4 {
            #expect(scene.press(.character("t")) == .redraw)
            seen.append(scene.state.boardArea)
        }
        #expect(seen == [.timeline, .threads, .table, .columns])
        scene.press(.character("t"))
        #expect(scene.wholeScreen[2].hasPrefix("Timeline · 0s to 3s"))
        scene.press(.character("t"))
        #expect(scene.wholeScreen[2].hasPrefix("Threads · 0s to 3s"))
        // A restart keeps the view.
        #expect(scene.state.restarted().boardArea == .threads)
    }

    @Test func theKeyBarSaysWhereTGoesNext() {
        #expect(
            KeyBarView.text(width: 200, status: .running, area: .columns, glyphs: .unicode).hasSuffix(
                "< slower  t timeline"))
        #expect(
            KeyBarView.text(width: 80, status: .running, area: .timeline, glyphs: .unicode)
                == " ? help  q quit  t threads  z zoom in  Z zoom out  , earlier  . later  x fit")
        #expect(
            KeyBarView.text(width: 30, status: .ended, area: .threads, glyphs: .unicode) == " ? help  q quit  t table")
        #expect(
            KeyBarView.text(width: 50, status: .ended, area: .table, glyphs: .unicode)
                == " ? help  q quit  t board  o sort  O reverse")
    }

    @Test func zoomHalvesAndDoublesTheWindowAroundTheCursor() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        #expect(scene.press(.character("z")) == .redraw)
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 2.25, span: 0.75))
        #expect(scene.wholeScreen[2] == "Timeline · 2.25s to 3s · 11ms a column · zoomed")
        scene.press(.character("Z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        // Out as far as the whole run: the window fits (and follows) it again.
        scene.press(.character("Z"))
        #expect(scene.state.timelineView.window == nil)
        #expect(scene.press(.character("Z")) == .redraw)
        #expect(scene.message == "the whole run shows already: z zooms in")
    }

    @Test func zoomAroundTheCursorInHistory() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size, history: 9)  // at 1s
        scene.press(.character("z"))
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 0.625, span: 0.75))
    }

    @Test func zoomInStopsAtATenthOfAMillisecondAColumn() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        for _ in 0..<8 { scene.press(.character("z")) }
        #expect(scene.state.timelineView.window?.span == 3.0 / 256)
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window?.span == 3.0 / 256)
        #expect(scene.message == "zoomed in as far as it goes: one column is 0.17ms")
    }

    @Test func scrollMovesAFixedWindowAQuarterAtATime() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        scene.press(.character("z"))
        scene.press(.character(","))
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.125, span: 1.5))
        scene.press(.left)
        scene.press(.character("h"))
        scene.press(.character(","))
        #expect(scene.state.timelineView.window == TimeWindow(start: 0, span: 1.5))
        scene.press(.character(","))
        #expect(scene.message == "this is the start of the run")
        scene.press(.right)
        #expect(scene.state.timelineView.window == TimeWindow(start: 0.375, span: 1.5))
        for _ in 0..<4 { scene.press(.character(".")) }
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        #expect(scene.message == "this is the end of the run so far")
    }

    @Test func xFitsTheWholeRunAgain() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        scene.press(.character("z"))
        #expect(scene.press(.character("x")) == .redraw)
        #expect(scene.state.timelineView.window == nil)
        scene.press(.character("x"))
        #expect(scene.message == "the whole run shows already")
        scene.press(.left)
        #expect(scene.message == "the whole run shows: z zooms in first")
    }

    @Test func onTheBoardTheTimelineKeysSayWhereTheyApply() {
        var scene = TimelineScene(TimelineRuns.chain, .columns, size: Self.size)
        for key in ["z", "Z", ",", ".", "x"] {
            scene.press(.character(Character(key)))
            #expect(scene.message == "\(key) moves the timeline: t shows it")
        }
        #expect(scene.state.timelineView.window == nil)
    }

    @Test func upAndDownSelectInLaneOrderAndTheInspectorFollows() {
        var scene = TimelineScene(TimelineRuns.cap, size: Self.size)
        #expect(scene.state.selectedOperation == OperationID(0))
        scene.press(.down)
        scene.press(.character("j"))
        #expect(scene.state.selectedOperation == OperationID(2))
        scene.press(.up)
        #expect(scene.state.selectedOperation == OperationID(1))
        #expect(scene.wholeScreen[14].hasPrefix("─ Inspector: b "))
        scene.press(.character("k"))
        #expect(scene.press(.up) == InterfaceOutcome.none)
        // The board finds it where its card is when t comes back round.
        for _ in 0..<3 { scene.press(.character("t")) }
        #expect(scene.state.boardArea == .columns)
        #expect(scene.state.selectedColumn == 3)
    }

    @Test func aClickOnALaneSelectsItsOperationAndOnTheAxisMovesTheCursor() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size, history: 16)
        scene.state.historyCursor = nil
        scene.frame.historyShown = nil
        // Rows: title, queue line, header, labels, axis, q's header, a, b, c.
        #expect(scene.press(.mouse(column: 30, row: 8)) == .redraw)
        #expect(scene.state.selectedOperation == OperationID(2))
        // The column of 1.5s (plot from column 11, 3s over 69 columns): b is
        // running, since its start (the 11th notification).
        #expect(scene.press(.mouse(column: 11 + 34, row: 4)) == .redraw)
        #expect(scene.state.historyCursor == 11)
        // The last column: live again.
        scene.press(.mouse(column: 79, row: 3))
        #expect(scene.state.historyCursor == nil)
        let rendered = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame)
        #expect(rendered.hitMap == InterfaceRenderer.hitMap(board: scene.board, state: scene.state, frame: scene.frame))
        #expect(rendered.hitMap.target(column: 5, row: 7) == .lane(OperationID(1)))
    }

    @Test func aClickOnASpanInTheThreadViewSelectsItsOperation() {
        var scene = TimelineScene(TimelineRuns.ramp, .threads, size: Self.size)
        // thread #2's row: dl2 from 0.3s, dl5 from 0.7s.
        scene.press(.mouse(column: 16 + 50, row: 6))
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "dl5"))
        // The wheel walks the lane order.
        scene.press(.wheel(column: 40, row: 6, down: true))
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "dl6"))
    }

    @Test func aClickOnAnInFlightSpanOrAStartMarkSelectsItsAsynchronousOperation() {
        var scene = TimelineScene(TimelineRuns.async, .threads, size: Self.size)
        let names = scene.board.scenario
        let area = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!.boardArea
        let plan = TimelinePlan(state: scene.state, frame: scene.frame, rect: area)!
        func y(_ row: TimelineRow) -> Int { plan.rows.first { $0.row == row }!.y }
        func x(_ t: Double) -> Int { plan.plot.x + plan.column(of: t) }
        // net 2's row: dl4 in flight from 0.46s.
        scene.press(.mouse(column: x(0.7), row: y(.inFlight(1))))
        #expect(scene.state.selectedOperation == names.operationID(named: "dl4"))
        // thread #1's row: dl3's start() at 0.41s, one column.
        scene.press(.mouse(column: x(0.41), row: y(.thread(ThreadTag(1)))))
        #expect(scene.state.selectedOperation == names.operationID(named: "dl3"))
        // Between the marks, and on the heading: nothing there.
        scene.press(.mouse(column: x(0.2), row: y(.thread(ThreadTag(1)))))
        scene.press(.mouse(column: x(0.2), row: y(.inFlightHeader)))
        #expect(scene.state.selectedOperation == names.operationID(named: "dl3"))
    }
}

/// A hundred operations: one row each, the rows scrolled to keep the
/// selection in sight, the header saying which show.
@Suite struct TimelineScrollTests {
    /// The board area's rows of the whole screen.
    static func area(_ scene: TimelineScene) -> [String] {
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        let grid = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame).grid
        return lines(of: grid, layout.boardArea).map(trimmed)
    }

    @Test func aHundredOperationsScrollWithTheSelection() {
        var scene = TimelineScene(TimelineRuns.many(), size: Size(columns: 80, rows: 24), now: 1)
        InterfaceController.selectLane(OperationID(0), state: &scene.state, board: scene.board, frame: scene.frame)
        #expect(Self.area(scene)[0].hasSuffix("lanes 1–8 of 100"))
        for _ in 0..<60 { scene.press(.down) }
        #expect(scene.state.selectedOperation == OperationID(60))
        #expect(scene.state.timelineView.laneScroll == 54)
        #expect(
            Self.area(scene) == [
                "Timeline · 0s to 1s · 14ms a column                           lanes 55–61 of 100",
                "           0s           0.2s          0.4s          0.6s          0.8s",
                "           ├────────────┼─────────────┼─────────────┼─────────────┼────────────▼",
                "a cap 4    444444444444444444444444444444444444444444444444444444444444444444444",
                "  op54     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op55     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op56     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op57     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op58     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op59     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "b cap 1                                                                        │",
                "  op60     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
            ])
        // Back up: the top row is the selection's, under its queue's header.
        for _ in 0..<10 { scene.press(.up) }
        let rows = Self.area(scene)
        #expect(rows[0].hasSuffix("lanes 51–58 of 100"))
        #expect(rows[3].hasPrefix("a cap 4"))
        #expect(rows[4].hasPrefix("  op50 "))
        // To the very end: the last rows fill the area, none stays empty.
        for _ in 0..<60 { scene.press(.down) }
        let last = Self.area(scene)
        #expect(last[0].hasSuffix("lanes 93–100 of 100"))
        #expect(last[3].hasPrefix("b cap 1"))
        #expect(last[11].hasPrefix("  op99 "))
    }

    @Test func theLaneOrderGroupsByQueueAndRowsCountTheirHeaders() {
        let order = TimelineOrder(TimelineRuns.many().scenario)
        #expect(order.groups.map(\.operations.count) == [60, 40])
        #expect(order.rows(from: 58, through: 61) == 6)
        #expect(order.offset(stored: 0, height: 9, selected: 60) == 54)
        #expect(order.offset(stored: 99, height: 9, selected: nil) == 92)
        #expect(order.offset(stored: 70, height: 9, selected: 10) == 10)
    }
}
