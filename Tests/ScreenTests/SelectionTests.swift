import EventFixtures
import Board
import LifecycleEngine
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
        #expect(InterfaceController.handle(.character("s"), state: &state, board: b, frame: frame())
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

@Suite struct PickerTests {
    let entries = [
        PickerEntry(fileName: "01-basics.ops", title: "Basics", firstNote: "one queue, three operations"),
        PickerEntry(fileName: "02-deps.ops", title: "Dependencies"),
        PickerEntry(fileName: "03-cap.ops", title: "The cap", firstNote: "cap 2"),
        PickerEntry(fileName: "04-qos.ops"),
    ]

    @Test func navigationAndOpen() {
        var state = PickerState()
        let size = Size(columns: 40, rows: 7)  // two entries visible
        #expect(ScenarioPicker.handle(.up, state: &state, entries: entries, size: size) == .none)
        #expect(ScenarioPicker.handle(.down, state: &state, entries: entries, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.character("j"), state: &state, entries: entries, size: size) == .redraw)
        #expect(state.selected == 2)
        #expect(state.scroll == 1)
        #expect(ScenarioPicker.handle(.end, state: &state, entries: entries, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.character("j"), state: &state, entries: entries, size: size) == .none)
        #expect(ScenarioPicker.handle(.character("k"), state: &state, entries: entries, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.enter, state: &state, entries: entries, size: size) == .open(2))
        #expect(ScenarioPicker.handle(.character("q"), state: &state, entries: entries, size: size) == .quit)
        #expect(ScenarioPicker.handle(.character("x"), state: &state, entries: [], size: size) == .none)
        #expect(ScenarioPicker.handle(.enter, state: &state, entries: [], size: size) == .none)
    }

    @Test func rendersTheWindowAroundTheSelection() {
        var state = PickerState()
        state.selected = 2
        state.scroll = 1
        let grid = ScenarioPicker.render(entries: entries, state: state, size: Size(columns: 40, rows: 7))
        #expect(grid.lines.map(trimmed) == [
            " opscope: choose a scenario",
            "",
            "  02-deps.ops  Dependencies",
            "",
            "▶ 03-cap.ops  The cap",
            "    cap 2",
            " ↑↓ choose  Enter open  q quit",
        ])
        var clicked = state
        #expect(ScenarioPicker.handle(.mouse(column: 3, row: 2), state: &clicked, entries: entries, size: Size(columns: 40, rows: 7)) == .redraw)
        #expect(clicked.selected == 1)
    }
}
