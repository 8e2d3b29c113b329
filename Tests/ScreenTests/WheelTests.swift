import Board
import EventFixtures
import ScenarioKit
import Testing

@testable import Screen

private let ids = Names(scenario: pipeline)

/// The mouse wheel scrolls the pane under the pointer, through the layout
/// the renderer uses; elsewhere it does nothing and says nothing.
@Suite struct WheelTests {
    let log = (1...40).map { "0.000  net  line \($0)" }

    @Test func overTheLogItGoesBackThreeLinesANotchAndForwardAgain() throws {
        let b = board()
        var state = InterfaceState(board: b)
        let f = frame(80, 24, log: log)
        let pane = try #require(InterfaceRenderer.layout(board: b, state: state, frame: f)?.log)
        let (x, y) = (pane.x + 2, pane.y + 2)
        #expect(
            InterfaceController.handle(.wheel(column: x, row: y, down: true), state: &state, board: b, frame: f)
                == .none)
        #expect(
            InterfaceController.handle(.wheel(column: x, row: y, down: false), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.logScroll == 3)
        #expect(screen(b, state, f)[15].contains("Log (3 newer below, PgDn)"))
        #expect(
            InterfaceController.handle(.wheel(column: x, row: y, down: true), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.logScroll == 0)
        #expect(state.message == nil)
    }

    @Test func overAColumnItScrollsItsCardsAndTheSelectionStaysInView() {
        let b = board()  // six cards in Pending, three shown at 80×24
        var state = InterfaceState(board: b)
        let f = frame(80, 24)
        #expect(state.selectedOperation == ids("fetch"))
        #expect(
            InterfaceController.handle(.wheel(column: 3, row: 8, down: false), state: &state, board: b, frame: f)
                == .none)
        #expect(
            InterfaceController.handle(.wheel(column: 3, row: 8, down: true), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.columnScroll[0] == 1)
        #expect(state.selectedOperation == ids("parse"))  // fetch scrolled out of view
        #expect(screen(b, state, f)[4].hasPrefix("Pending 6 ↑1 ↓2"))
        for _ in 0..<2 {
            #expect(
                InterfaceController.handle(.wheel(column: 3, row: 8, down: true), state: &state, board: b, frame: f)
                    == .redraw)
        }
        #expect(
            InterfaceController.handle(.wheel(column: 3, row: 8, down: true), state: &state, board: b, frame: f)
                == .none)
        #expect(state.columnScroll[0] == 3)
        #expect(state.selectedOperation == ids("save"))
        #expect(
            InterfaceController.handle(.wheel(column: 3, row: 8, down: false), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.selectedOperation == ids("save"))  // still in view: it stays
    }

    @Test func overTheOpenOverlayItScrollsTheOverlayAndNothingElse() {
        let b = board()
        var state = InterfaceState(board: b)
        state.overlay = .help
        let f = frame(80, 24)
        #expect(
            InterfaceController.handle(.wheel(column: 40, row: 10, down: true), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.overlayScroll == 3)
        #expect(
            InterfaceController.handle(.wheel(column: 0, row: 10, down: true), state: &state, board: b, frame: f)
                == .none)
        #expect(
            InterfaceController.handle(.wheel(column: 40, row: 10, down: false), state: &state, board: b, frame: f)
                == .redraw)
        #expect(state.overlayScroll == 0)
    }

    @Test func elsewhereItDoesNothingAndSaysNothing() {
        let b = board()
        var state = InterfaceState(board: b)
        let before = state
        let f = frame(80, 24, log: log)
        for (column, row) in [(10, 17), (10, 0), (10, 2), (10, 23), (500, 500)] {
            #expect(
                InterfaceController.handle(
                    .wheel(column: column, row: row, down: true), state: &state, board: b, frame: f) == .none)
        }
        #expect(state == before)
    }

    @Test func inThePickerItMovesTheSelectionAndScrollsThePane() {
        let list = PickerList([
            PickerSection(entries: [PickerEntry(fileName: "a.ops"), PickerEntry(fileName: "b.ops")]),
            PickerSection(
                heading: "Mistakes",
                entries: [
                    PickerEntry(fileName: "m.ops", diagnostics: (1...30).map { "note: line \($0)" })
                ]),
        ])
        var state = PickerState()
        let size = Size(columns: 60, rows: 16)
        #expect(
            ScenarioPicker.handle(.wheel(column: 5, row: 5, down: false), state: &state, list: list, size: size)
                == .none)
        #expect(
            ScenarioPicker.handle(.wheel(column: 5, row: 5, down: true), state: &state, list: list, size: size)
                == .redraw)
        #expect(
            ScenarioPicker.handle(.wheel(column: 5, row: 5, down: true), state: &state, list: list, size: size)
                == .redraw)
        #expect(state.selected == 2)
        #expect(ScenarioPicker.handle(.enter, state: &state, list: list, size: size) == .showDiagnostics(2))
        #expect(
            ScenarioPicker.handle(.wheel(column: 5, row: 8, down: true), state: &state, list: list, size: size)
                == .redraw)
        #expect(state.pane?.scroll == 3)
        #expect(ScenarioPicker.handle(.mouse(column: 5, row: 8), state: &state, list: list, size: size) == .none)
        #expect(state.pane?.scroll == 3)
    }
}
