import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

@Suite struct CardAndColumnTests {
    /// fetch finished, parse executing (half done at t=2.5), thumbs skipped,
    /// save and flush pending, paint ready on the busy main queue.
    let everyPhase = board { s in
        for name in ["fetch", "thumbs", "paint"] { s.add(name) }
        s.add("parse", ready: false)
        s.add("save", ready: false)
        s.add("flush", ready: false)
        s.skip("thumbs")
        s.run("fetch", from: 0, to: 2)
        s.ready("parse")
        s.start("parse")
        s.dispatch("paint")
    }

    @Test func cardsInEveryColumn() {
        let lines = screen(everyPhase, InterfaceState(board: everyPhase), frame(80, 24, now: 2.5))
        #expect(
            Array(lines[4...7]) == [
                "Pending 2       │Ready 1        │Executing 1    │Finished 1     │Cancelled 1",
                "save            │paint          │parse          │fetch          │thumbs",
                "work normal disk│blocks normal  │work normal net│work normal net│work low/UT net",
                "after parse     │main thread bu…│█████░░░░░  50%│✓ 2.000s       │⊘ skipped",
            ])
        #expect(
            Array(lines[8...10]) == [
                "flush           │               │               │               │",
                "barrier disk    │               │               │               │",
                "after save      │               │               │               │",
            ])
    }

    @Test func cancelRequestedWhileExecutingIsMarked() {
        let b = board { s in
            s.add("fetch")
            s.start("fetch")
            s.cancel("fetch")
        }
        let rows = CardView.rows(b[operation: OperationID(0)], board: b, now: 0.5, width: 15, glyphs: .unicode).rows
        #expect(rows == ["fetch         ⊘", "work normal net", "██▌░░░░░░░  25%"])
        let ascii = CardView.rows(b[operation: OperationID(0)], board: b, now: 0.5, width: 15, glyphs: .ascii).rows
        #expect(ascii[0] == "fetch         x")
        #expect(
            InspectorText.lines(board: b, op: OperationID(0), now: 0.5).contains(
                InspectorLine(
                    "note: cancel() while it runs only sets isCancelled; it ends when its work checks the flag", .note))
        )
    }

    @Test func waitingForAWorkerThreadIsDimAndSaysSo() {
        let wide = makeScenario(queues: [QueueSpec(name: "wide")], ops: [op("w1", on: "wide"), op("w2", on: "wide")])
        let b = board(wide) { s in
            s.add("w1")
            s.add("w2")
            s.start("w1")
            s.dispatch("w2")
        }
        let (rows, dim) = CardView.rows(b[operation: OperationID(1)], board: b, now: 0, width: 15, glyphs: .unicode)
        #expect(rows == ["w2", "work normal", "no thread yet"])
        #expect(dim)
        var state = InterfaceState(board: b)
        state.selectedOperation = nil  // so that reverse video does not hide the dim style
        state.selectedColumn = 4
        let grid = InterfaceRenderer.render(board: b, state: state, frame: frame()).grid
        #expect(grid[17, 3].text == "w" && grid[17, 3].style.dim)
        #expect(grid[17, 5].text == "n" && grid[17, 5].style.dim)
        let text = InspectorText.lines(board: b, op: OperationID(1), now: 0).map(\.text)
        #expect(text.contains("not running: dispatched by wide at 0.000s, waiting for a worker thread"))
        #expect(text.contains { $0.contains("libdispatch starts a few workers at once") })
    }

    @Test func aLongColumnScrollsToKeepTheSelectionVisible() {
        let names = (1...8).map { "o\($0)" }
        let long = makeScenario(queues: [QueueSpec(name: "q")], ops: names.map { op($0, on: "q") })
        let b = board(long) { s in for n in names { s.add(n) } }
        var state = InterfaceState(board: b)
        #expect(state.selectedColumn == 1)
        let f = frame()
        for _ in 0..<5 { _ = InterfaceController.handle(.down, state: &state, board: b, frame: f) }
        #expect(state.selectedOperation == OperationID(5))
        #expect(state.columnScroll[1] == 3)
        let lines = screen(b, state, f)
        #expect(lines[2].hasPrefix("Pending 0       │Ready 8 ↑3 ↓2  │"))
        #expect([lines[3], lines[6], lines[9]].map { String($0.dropFirst(17).prefix(2)) } == ["o4", "o5", "o6"])
        // Back to the top: the column scrolls up with the selection.
        for _ in 0..<5 { _ = InterfaceController.handle(.character("k"), state: &state, board: b, frame: f) }
        #expect(state.columnScroll[1] == 0)
        #expect(screen(b, state, f)[2].hasPrefix("Pending 0       │Ready 8 ↓5     │"))
    }

    @Test func scrollOffsetRule() {
        #expect(ColumnScroll.offset(stored: 0, count: 8, capacity: 3, selected: 5) == 3)
        #expect(ColumnScroll.offset(stored: 4, count: 8, capacity: 3, selected: 4) == 4)
        #expect(ColumnScroll.offset(stored: 7, count: 8, capacity: 3, selected: nil) == 5)
        #expect(ColumnScroll.offset(stored: 2, count: 3, capacity: 3, selected: 0) == 0)
        #expect(ColumnScroll.offset(stored: 2, count: 8, capacity: 0, selected: 7) == 0)
    }

    @Test func cardsInAZeroSizedRectDrawNothing() {
        var grid = CellGrid(columns: 10, rows: 3)
        CardView.draw(
            everyPhase[operation: OperationID(0)], board: everyPhase, selected: true, frame: frame(), height: 3,
            theme: Theme(colors: true),
            into: &grid, rect: Rect(x: 2, y: 1, width: 0, height: 0))
        #expect(grid == CellGrid(columns: 10, rows: 3))
    }
}
