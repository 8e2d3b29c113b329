import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// The interface's modes are one list, asked in turn: the first that is on
/// and answers takes the key.
@Suite struct InterfaceModesTests {
    @Test func theModesAreAskedInOneOrder() {
        #expect(InterfaceController.keyModes.map(\.name) == ["time entry", "prompt"])
        #expect(
            InterfaceController.commandModes.map(\.name)
                == ["overlay", "run refusal", "history", "graph", "timeline", "table"])
    }

    @Test func aModeIsOnOnlyInItsOwnState() {
        let b = board()
        let plain = InterfaceState(board: b)
        let modes = InterfaceController.keyModes.map(\.isOn) + InterfaceController.commandModes.map(\.isOn)
        let names = InterfaceController.keyModes.map(\.name) + InterfaceController.commandModes.map(\.name)
        // On a plain board only the run refusal (which answers only for an
        // action the run cannot take) is asked.
        let on = zip(names, modes).filter { $0.1(plain, frame()) }.map(\.0)
        #expect(on == ["run refusal"])
        var typing = plain
        typing.search.entry = ""
        #expect(InterfaceController.keyModes[1].isOn(typing, frame()))
        var graph = plain
        graph.graphShown = true
        #expect(InterfaceController.commandModes[3].isOn(graph, frame()))
    }

    @Test func anOverlayTakesAKeyBeforeTheGraphDoes() {
        let b = board()
        var state = InterfaceState(board: b)
        state.graphShown = true
        state.overlay = .help
        // e folds the graph; under the help it is refused, and the fold is untouched.
        let folded = state.graphFolds
        let outcome = InterfaceController.handle(.character("e"), state: &state, board: b, frame: frame())
        #expect(outcome == .redraw || outcome == .none)
        #expect(state.visibleMessage(now: 0)?.text == "close the overlay first (Esc)")
        #expect(state.graphFolds == folded)
        // Closed, the same key reaches the graph.
        _ = InterfaceController.handle(.escape, state: &state, board: b, frame: frame())
        #expect(state.overlay == .none)
        _ = InterfaceController.handle(.character("e"), state: &state, board: b, frame: frame())
        #expect(state.visibleMessage(now: 0)?.text != "close the overlay first (Esc)")
    }

    @Test func aPromptTakesEveryKeyItIsTyped() {
        let b = board()
        var state = InterfaceState(board: b)
        state.search.entry = ""
        // q quits the board, but in a prompt it is a letter of the query.
        let outcome = InterfaceController.handle(.character("q"), state: &state, board: b, frame: frame())
        #expect(outcome != .quit)
        #expect(state.search.entry == "q")
    }
}
