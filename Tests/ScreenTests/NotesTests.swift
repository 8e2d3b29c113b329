import Board
import LifecycleEngine
import ScenarioKit
import Testing

@testable import Screen

@Suite struct NotesTests {
    private var withExpectations: Scenario {
        var s = pipeline
        s.expectations = [
            Expectation(claim: .before(OperationID(0), OperationID(1)), text: "fetch before parse"),
            Expectation(claim: .finished(OperationID(3)), text: "finished save"),
        ]
        return s
    }

    @Test func expectationsWaitForTheEndThenShowTheirVerdicts() {
        let b = BoardState(scenario: withExpectations)
        var state = InterfaceState(board: b)
        state.overlay = .notes
        let running = NotesView.items(board: b, frame: frame(), theme: Theme(colors: false)).map(\.0)
        #expect(running == [
            "Pipeline", "fetch runs first; parse waits for it.", "", "Expectations",
            "● fetch before parse (judged when the run ends)", "● finished save (judged when the run ends)",
        ])
        var f = frame()
        f.expectationResults = [
            ExpectationResult(expectation: withExpectations.expectations[0], held: true,
                              explanation: "fetch finished at 2.000s, parse started at 2.001s"),
            ExpectationResult(expectation: withExpectations.expectations[1], held: false,
                              explanation: "save never finished"),
        ]
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        let text = grid.lines.map(trimmed)
        #expect(text.contains { $0.contains("✓ fetch before parse: fetch finished at 2.000s, parse") })
        #expect(text.contains { $0.contains("✗ finished save: save never finished") })
        #expect(text[2].contains("┌ Notes and expectations ─"))
    }
}
