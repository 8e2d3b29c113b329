import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

@Suite struct ScreenRenderTests {
    @Test func emptyBoardAt80x24ShowsEveryCardNotAddedYetInPending() {
        let b = board()
        #expect(
            screen(b, InterfaceState(board: b), frame(80, 24)) == [
                " opscope · Pipeline                                                t=0.000s  ×1",
                "▶ net   0 running · cap 2   0 in queue",
                "  disk  0 running · cap 1 (serial)   0 in queue",
                "  ui    0 running · serial (main queue)   0 in queue",
                "Pending 6 ↓3    │Ready 0        │Executing 0    │Finished 0     │Cancelled 0",
                "fetch           │               │               │               │",
                "work normal net │               │               │               │",
                "not added yet   │               │               │               │",
                "parse           │               │               │               │",
                "work normal net │               │               │               │",
                "not added yet   │               │               │               │",
                "thumbs          │               │               │               │",
                "work normal/UT  │               │               │               │",
                "not added yet   │               │               │               │",
                "                │               │               │               │",
                "─ Inspector: fetch ─────────────────────────── Log ─────────────────────────────",
                "work 2s on net; priority normal             │no notifications yet",
                "not running: not added yet                  │",
                "not added: isReady=false isExecuting=false  │",
                "  isFinished=false isCancelled=false        │",
                "dependents: parse (not added)               │",
                "                                            │",
                "",
                " ? help  q quit  Space pause  c cancel  s suspend  + cap+  - cap-  Tab queue",
            ])
    }

    @Test func asciiModeAtTheMinimumSizeUsesOnlyAscii() {
        let small = makeScenario(
            queues: [QueueSpec(name: "q")], ops: [op("a", on: "q"), op("b", on: "q", after: ["a"])])
        let b = board(small) { s in
            s.add("a")
            s.add("b", ready: false)
            s.at(0.5)
            s.start("a")
        }
        var state = InterfaceState(board: b)
        state.selectedOperation = OperationID(1)
        let lines = screen(
            b, state, frame(60, 16, now: 1, ascii: true, log: ["0.500  q  a  isExecuting  false → true"]))
        #expect(
            lines == [
                " opscope - untitled scenario                   t=1.000s  x1",
                "> q  1 running - cap: system decides   0 in queue",
                "Pending 1   |Ready 0    |Executing 1|Finished 0 |Cancelled 0",
                "b           |           |a          |           |",
                "work normal |           |work normal|           |",
                "after a     |           |###...  50%|           |",
                "            |           |           |           |",
                "            |           |           |           |",
                "            |           |           |           |",
                "- Inspector: b -------------------- Log --------------------",
                "work 1s on q; priority normal    |0.500  q  a  isExecuting",
                "  (default)                      |  false -> true",
                "not running: waiting for a       |",
                "pending: isReady=false           |",
                "",
                " ? help  q quit  Space pause  c cancel  s suspend  + cap+",
            ])
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test(arguments: [Size(columns: 59, rows: 24), Size(columns: 80, rows: 15), Size(columns: 40, rows: 8)])
    func belowTheMinimumSaysHowLargeTheTerminalMustBe(size: Size) {
        let text = screen(board(), InterfaceState(), FrameInput(size: size)).joined(separator: " ")
        #expect(text.contains("opscope needs at least 60×16 cells;"))
        #expect(text.contains("this terminal is \(size.columns)×\(size.rows)."))
    }

    @Test func tinyTerminalMessageIsCentred() {
        #expect(
            screen(board(), InterfaceState(), FrameInput(size: Size(columns: 44, rows: 5))) == [
                "",
                "    opscope needs at least 60×16 cells;",
                "           this terminal is 44×5.",
                "      Enlarge it, or press q to quit.",
                "",
            ])
        #expect(screen(board(), InterfaceState(), FrameInput(size: .zero)) == [])
    }

    @Test func titleBarShowsSpeedPausedAndTheEnd() {
        var b = board()
        b.apply(LifecycleEvent(seq: 1, time: 3, kind: .end(.completed)))
        var f = frame(80, 24, now: 3.25)
        f.speed = 0.5
        f.isPaused = true
        f.expectationResults = [
            ExpectationResult(
                expectation: Expectation(claim: .finished(OperationID(0)), text: "finished fetch"), held: true,
                explanation: "ok"),
            ExpectationResult(
                expectation: Expectation(claim: .finished(OperationID(1)), text: "finished parse"), held: false,
                explanation: "no"),
        ]
        #expect(
            screen(b, InterfaceState(board: b), f)[0]
                == " opscope · Pipeline                                t=3.250s  ×0.5  ended  ✓1 ✗1")
        var paused = frame(80, 24, now: 1.5)
        paused.isPaused = true
        paused.lesson = true
        #expect(
            screen(board(), InterfaceState(board: b), paused)[0]
                == " opscope · Pipeline                                t=1.500s  ×1  lesson  PAUSED")
    }

    @Test func selectedQueueIsMarkedAndSuspensionShown() {
        let b = board { s in s.suspended("disk", true) }
        var state = InterfaceState(board: b)
        state.selectedQueue = QueueID(1)
        let lines = screen(b, state, frame())
        #expect(lines[1] == "  net   0 running · cap 2   0 in queue")
        #expect(lines[2] == "▶ disk  0 running · cap 1 (serial)   0 in queue   SUSPENDED")
    }

    @Test func wideTerminalDocksTheNotesBesideTheBoard() {
        let b = board()
        let lines = screen(b, InterfaceState(board: b), frame(200, 50, log: ["0.000  fetch  isReady true"]))
        #expect(lines[4].hasSuffix("│─ Notes (n hides) ──────────────────────────────────────"))
        #expect(lines[5].hasSuffix("│Pipeline"))
        #expect(lines[6].hasSuffix("│fetch runs first; parse waits for it."))
        let rule = lines.firstIndex { $0.hasPrefix("─ Inspector: fetch") }!
        #expect(lines[rule].contains("─ Log ─"))
        #expect(lines[rule + 1].contains("│0.000  fetch  isReady true"))
        #expect(rule == 32)  // the columns get the extra height
    }

    @Test func hiddenLogGivesTheInspectorTheWidth() {
        let b = board()
        var state = InterfaceState(board: b)
        state.logVisible = false
        let lines = screen(b, state, frame())
        #expect(lines[15] == "─ Inspector: fetch ─────────────────────────────────────────────────────────────")
        #expect(lines[18] == "not added: isReady=false isExecuting=false isFinished=false isCancelled=false")
    }

    @Test func transientMessageShowsUntilItExpires() {
        let b = board()
        var state = InterfaceState(board: b)
        state.show("OperationQueue.main ignores isSuspended", kind: .refusal, now: 10)
        var f = frame()
        f.wallClock = 13.9
        #expect(screen(b, state, f)[22] == " OperationQueue.main ignores isSuspended")
        f.wallClock = 14
        #expect(screen(b, state, f)[22] == "")
    }

    @Test func mainThreadBlockedLineAfterTheRun() {
        let b = board()
        var f = frame()
        f.mainThreadBlocked = MainThreadBlock(operation: OperationID(5), seconds: 2.5)
        let lines = screen(b, InterfaceState(board: b), f)
        #expect(lines[22].hasPrefix(" paint blocked the main thread for 2.5s of real time: the interface could not"))
        #expect(lines[0].contains("main thread blocked 2.5s"))
    }

    @Test func noColourModeKeepsSelectionReadable() {
        let b = board()
        var f = frame()
        f.colors = false
        let grid = InterfaceRenderer.render(board: b, state: InterfaceState(board: b), frame: f).grid
        let used = Set(grid.cells.map(\.style))
        #expect(used.allSatisfy { $0.foreground == .default && $0.background == .default })
        #expect(grid[0, 5].style.reverse)  // the selected card
        #expect(!grid[0, 8].style.reverse)
    }
}
