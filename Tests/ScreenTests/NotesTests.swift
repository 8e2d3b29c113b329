import Board
import EventFixtures
import Grading
import RunEvents
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

    /// A run that observed no moment of dispatch says so under the title,
    /// before the notes (which may speak of dispatches); one that did, not.
    @Test func aRunWithoutObservedDispatchesSaysSoBeforeTheNotes() {
        let b = BoardState(scenario: pipeline)
        var f = frame()
        f.dispatchesObserved = false
        let items = NotesView.items(board: b, frame: f, status: .running, theme: Theme(colors: false)).map(\.0)
        #expect(
            Array(items.prefix(3)) == [
                "Pipeline", LifecycleEvent.unobservedDispatchesNote, "fetch runs first; parse waits for it.",
            ])
        let observed = NotesView.items(board: b, frame: frame(), status: .running, theme: Theme(colors: false))
        #expect(!observed.map(\.0).contains(LifecycleEvent.unobservedDispatchesNote))
        // The title bar says it in every frame, at any width.
        for short in [false, true] {
            #expect(
                TitleBarView.rightText(board: b, frame: f, status: .running, short: short).contains(
                    "dispatches unobserved"))
            #expect(
                !TitleBarView.rightText(board: b, frame: frame(), status: .running, short: short).contains("unobserved")
            )
        }
    }

    @Test func expectationsWaitForTheEndThenShowTheirVerdicts() {
        let b = BoardState(scenario: withExpectations)
        let state = InterfaceState(board: b)
        let running = NotesView.items(board: b, frame: frame(), status: .running, theme: Theme(colors: false)).map(\.0)
        #expect(
            running == [
                "Pipeline", "fetch runs first; parse waits for it.", "", "Expectations",
                "● fetch before parse (judged when the run ends)", "● finished save (judged when the run ends)",
            ])
        var f = frame(120, 40)
        f.expectationResults = [
            ExpectationResult(
                expectation: withExpectations.expectations[0], held: true,
                explanation: "fetch finished at 2.000s, parse started at 2.001s"),
            ExpectationResult(
                expectation: withExpectations.expectations[1], held: false,
                explanation: "save never finished"),
        ]
        let text = InterfaceRenderer.render(board: b, state: state, frame: f).grid.lines.map(trimmed)
        #expect(text[4].hasSuffix("│─ Notes (n hides) ──────────────────"))
        #expect(text[4].hasPrefix("Pending 6 ↓1    │Ready 0         │"))
        #expect(text.contains { $0.hasSuffix("│✓ fetch before parse: fetch") })
        #expect(text.contains { $0.hasSuffix("│✗ finished save: save never") })
    }

    /// With the verdicts, the main thread's long waits, as `trace` ends
    /// with them: a heading and a line each.
    @Test func theEndSaysHowLongTheMainThreadWasBlocked() {
        let b = BoardState(scenario: withExpectations)
        var f = frame()
        f.expectationResults = []
        f.mainThreadWaitLines = [
            "main thread blocked longer than 100ms (1 time):",
            "  blocked 1.7s from 0.101s waiting for export (export.waitUntilFinished(), 'at 100ms wait export', line 11)",
        ]
        let items = NotesView.items(board: b, frame: f, status: .ended, theme: Theme(colors: false)).map(\.0)
        #expect(
            Array(items.suffix(3)) == [
                "", "main thread blocked longer than 100ms (1 time):",
                "blocked 1.7s from 0.101s waiting for export (export.waitUntilFinished(), 'at 100ms wait export', "
                    + "line 11)",
            ])
    }

    @Test func aWaitingRunSaysWhatIsStuckGroupedByReason() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "downloads", cap: .limit(4))],
            ops: (1...6).map { op("dl\($0)", on: "downloads") })
        let b = board(scenario) { s in
            for i in 1...6 { s.add("dl\(i)") }
            s.suspended("downloads", true)
            s.emit(
                .stall(
                    Dictionary(
                        uniqueKeysWithValues: (0..<6).map { (OperationID($0), StuckReason.queueSuspended(QueueID(0))) })
                ))
        }
        let status = RunStatus(board: b, frame: frame(), selectedQueue: QueueID(0))
        #expect(
            status == .waiting("waiting: downloads is suspended — s resumes it", short: "waiting: downloads suspended"))
        // At 80 columns the title keeps the short words, the status line the sentence.
        let lines = screen(b, InterfaceState(board: b), frame(80, 24))
        #expect(lines[0].hasSuffix("t=0.000s  ×1  waiting: downloads suspended"))
        #expect(lines[22] == " waiting: downloads is suspended — s resumes it")
        #expect(
            screen(b, InterfaceState(board: b), frame(120, 40))[0].hasSuffix(
                "×1  waiting: downloads is suspended — s resumes it"))
        let items = NotesView.items(board: b, frame: frame(), status: status, theme: Theme(colors: false)).map(\.0)
        #expect(
            Array(items.suffix(2)) == [
                "Waiting for you: nothing can progress until you act",
                "dl1, dl2 and 4 more: its queue downloads is suspended",
            ])
    }
}
