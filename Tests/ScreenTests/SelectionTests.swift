import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

private let ids = Names(scenario: pipeline)

@Suite struct SelectionTests {
    @Test func selectionFollowsItsOperationAcrossColumns() {
        var script = Script(pipeline)
        script.add("fetch")
        script.add("thumbs")
        var b = BoardState(scenario: pipeline, replaying: script.events)
        var state = InterfaceState(board: b)
        #expect(state.selectedOperation == ids("parse"))  // the first card of the first column
        InterfaceController.select(ids("fetch"), column: 1, state: &state, board: b, frame: frame())
        script.start("fetch")
        b = BoardState(scenario: pipeline, replaying: script.events)
        state.reconcile(with: b, frame: frame())
        #expect(state.selectedOperation == ids("fetch"))
        #expect(state.selectedColumn == 2)  // Executing
        script.finish("fetch")
        b = BoardState(scenario: pipeline, replaying: script.events)
        state.reconcile(with: b, frame: frame())
        #expect(state.selectedColumn == 3)  // Finished
        #expect(screen(b, state, frame())[5].hasPrefix("parse           │thumbs         │               │fetch"))
        let grid = InterfaceRenderer.render(board: b, state: state, frame: frame()).grid
        #expect(grid[49, 5].text == "f" && grid[49, 5].style.reverse)
    }

    @Test func leftAndRightSkipEmptyColumns() {
        let b = board { s in
            s.add("fetch")
            s.add("parse", ready: false)
            s.skip("parse")
        }
        var state = InterfaceState(board: b)
        state.selectedOperation = ids("save")  // Pending (not added), row 2
        let f = frame()
        #expect(InterfaceController.handle(.right, state: &state, board: b, frame: f) == .redraw)
        #expect(state.selectedOperation == ids("fetch"))  // Ready has only one card
        #expect(InterfaceController.handle(.character("l"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.selectedOperation == ids("parse"))  // Executing and Finished are empty
        #expect(state.selectedColumn == 4)
        #expect(InterfaceController.handle(.right, state: &state, board: b, frame: f) == InterfaceOutcome.none)
        _ = InterfaceController.handle(.left, state: &state, board: b, frame: f)
        #expect(state.selectedOperation == ids("fetch"))
        _ = InterfaceController.handle(.character("h"), state: &state, board: b, frame: f)
        #expect(state.selectedOperation == ids("thumbs"))  // first card of Pending at the same row
        #expect(state.selectedQueue == ids.q("net"))
    }

    @Test func tabCyclesQueuesAndTheSelectedQueueIsTheTarget() {
        var state = InterfaceState(board: board())
        let b = board()
        #expect(state.selectedQueue == ids.q("net"))
        _ = InterfaceController.handle(.tab, state: &state, board: b, frame: frame())
        #expect(state.selectedQueue == ids.q("disk"))
        #expect(
            InterfaceController.handle(.character("s"), state: &state, board: b, frame: frame())
                == .perform(.suspend(ids.q("disk"))))
        _ = InterfaceController.handle(.shiftTab, state: &state, board: b, frame: frame())
        _ = InterfaceController.handle(.shiftTab, state: &state, board: b, frame: frame())
        #expect(state.selectedQueue == ids.q("ui"))
    }

    @Test func aClickSelectsTheCardUnderIt() {
        let b = board { s in
            s.add("fetch")
            s.add("thumbs")
            s.start("thumbs")
        }
        var state = InterfaceState(board: b)
        let f = frame()
        let hits = InterfaceRenderer.render(board: b, state: state, frame: f).hitMap
        #expect(hits == InterfaceRenderer.hitMap(board: b, state: state, frame: f))
        #expect(hits.rect(of: .card(ids("thumbs"))) == Rect(x: 33, y: 5, width: 15, height: 3))
        #expect(InterfaceController.handle(.mouse(column: 40, row: 7), state: &state, board: b, frame: f) == .redraw)
        #expect(state.selectedOperation == ids("thumbs"))
        #expect(state.selectedColumn == 2)
        #expect(InterfaceController.handle(.mouse(column: 5, row: 2), state: &state, board: b, frame: f) == .redraw)
        #expect(state.selectedQueue == ids.q("disk"))
        #expect(InterfaceController.handle(.mouse(column: 70, row: 12), state: &state, board: b, frame: f) == .none)
        state.overlay = .help
        #expect(InterfaceController.handle(.mouse(column: 40, row: 7), state: &state, board: b, frame: f) == .none)
    }

    @Test func restartKeepsPanesAndResetsSelection() {
        let b = board { $0.add("fetch") }
        var state = InterfaceState(board: b)
        state.logVisible = false
        state.columnScroll = [2, 0, 0, 0, 0]
        state.selectedOperation = ids("paint")
        #expect(InterfaceController.handle(.character("r"), state: &state, board: b, frame: frame()) == .restart)
        #expect(!state.logVisible)
        #expect(state.columnScroll == [0, 0, 0, 0, 0])
        #expect(state.selectedOperation == nil)
        state.reconcile(with: board())  // the loop's fresh board
        #expect(state.selectedOperation == ids("fetch"))
    }
}
