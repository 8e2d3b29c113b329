import Board
import EventFixtures
import Foundation
import Grading
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// normal-one cancelled while it waits in the suspended queue: Ready, ⊘.
let cancelledWhileWaiting = board(lesson) { s in
    s.cap("q", 1)
    s.suspended("q", true)
    for (i, name) in ["low-one", "normal-one", "high-one", "urgent"].enumerated() {
        s.add(name)
        s.count("q", i + 1, old: i)
    }
    s.at(0.05)
    s.emit(.action(.cancel(s.id("normal-one")), origin: .user, ignored: nil))
    s.cancel("normal-one")
}

/// fetch ran on thread #2 and finished, thumbs was skipped, parse runs on #3.
let ranOnThreads = board { s in
    s.add("fetch")
    s.add("parse", ready: false)
    s.add("thumbs")
    s.skip("thumbs")
    s.at(0.001)
    s.start("fetch", thread: 2)
    s.at(2.001)
    s.finish("fetch")
    s.ready("parse")
    s.start("parse", thread: 3)
}

/// Names, notes, a caption and log lines that are not ASCII.
let accents: Scenario = {
    var s = makeScenario(
        queues: [QueueSpec(name: "réseau", cap: .limit(2))],
        ops: [op("下载", on: "réseau", work: 1), op("ça-va", on: "réseau", after: ["下载"], qos: .utility)])
    s.title = "Télécharger — 下载 → ça"
    s.notes = ["“Quotes”, an ellipsis… and a dash — all of them."]
    s.captions = [Caption(trigger: .at(.milliseconds(500)), text: "下载 runs → ça-va waits")]
    return s
}()

let asciiBoard = board(accents) { s in
    s.add("下载")
    s.add("ça-va", ready: false)
    s.at(0.001)
    s.start("下载")
    s.at(0.5)
    s.cancel("ça-va")
    s.ready("ça-va")
    s.dispatch("ça-va")
}

let asciiFrame: FrameInput = {
    var f = frame(100, 30, now: 0.5, ascii: true)
    let formatter = EventFormatter(scenario: accents)
    var script = Script(accents)
    script.add("下载")
    script.start("下载", thread: 1)
    f.log = script.events.map { LogEntry($0, formatter: formatter) }
    f.caption = ShownCaption(text: accents.captions[0].text, time: 0.5)
    f.isPaused = true
    f.pausedAtCaption = true
    f.expectationResults = [
        ExpectationResult(
            expectation: Expectation(claim: .finished(OperationID(0)), text: "finished 下载"), held: false,
            explanation: "下载 never finished")
    ]
    return f
}()

@Suite struct CardDetailTests {
    @Test func aCancelledOperationWaitingInItsSuspendedQueueIsMarkedAndTheNoticeSaysWhy() {
        var state = InterfaceState(board: cancelledWhileWaiting)
        state.selectedOperation = cancelledWhileWaiting.scenario.operationID(named: "normal-one")
        state.show(.cancel(OperationID(1)), ignored: nil, seq: 9, now: 0)
        #expect(
            screen(cancelledWhileWaiting, state, frame(80, 24, now: 0.05)) == [
                " opscope · queuePriority on a serial queue                         t=0.050s  ×1",
                "▶ q  0 running · cap 1 (serial)   4 in queue   SUSPENDED",
                "Pending 0       │Ready 4 ↓1     │Executing 0    │Finished 0     │Cancelled 0",
                "                │low-one        │               │               │",
                "                │work low q     │               │               │",
                "                │queue suspended│               │               │",
                "                │normal-one    ⊘│               │               │",
                "                │work normal q  │               │               │",
                "                │queue suspended│               │               │",
                "                │high-one       │               │               │",
                "                │work high q    │               │               │",
                "                │queue suspended│               │               │",
                "                │               │               │               │",
                "                │               │               │               │",
                "─ Inspector: normal-one ────────────────────── Log ─────────────────────────────",
                "work 100ms on q; priority normal (default)  │no notifications yet",
                "not running:                                │",
                "  its queue q is suspended                  │",
                "  behind 2 higher-priority ready            │",
                "  operations                                │",
                "ready: isReady=true isExecuting=false       │",
                "  isFinished=false isCancelled=true         │",
                " normal-one is cancelled and Ready: it finishes when q is resumed and starts it",
                " ? help  q quit  Space pause  c cancel  s suspend  + cap+  - cap-  Tab queue",
            ])
        let text = InspectorText.lines(board: cancelledWhileWaiting, op: OperationID(1), now: 0.05).map(\.text)
        #expect(
            text.contains {
                $0.hasPrefix("note: cancelled before it started: it is ready at once, and when its queue starts it")
            })
    }

    @Test func at200x60ACardAlsoSaysWhenItRanAndOnWhichThread() {
        var state = InterfaceState(board: ranOnThreads)
        state.selectedOperation = OperationID(1)
        let grid = InterfaceRenderer.render(board: ranOnThreads, state: state, frame: frame(200, 60, now: 2.5)).grid
        let layout = InterfaceRenderer.layout(board: ranOnThreads, state: state, frame: frame(200, 60, now: 2.5))!
        #expect(layout.cardHeight == 4)
        func card(_ column: Int) -> [String] {
            let rect = layout.columns[column]
            return lines(of: grid, Rect(x: rect.x, y: layout.columnBody.y, width: rect.width, height: 4)).map(trimmed)
        }
        #expect(card(2) == ["parse", "work normal net", "███████████▍░░░░░░░░░░░  49%", "from 2.001s on #3"])
        #expect(card(3) == ["fetch", "work normal net", "✓ 2.001s", "0.001→2.001s 2s on #2"])
        #expect(card(4) == ["thumbs", "work low/utility net", "⊘ skipped", "never ran"])
        // Below 160 columns, three rows.
        #expect(InterfaceRenderer.layout(board: ranOnThreads, state: state, frame: frame(159, 60))!.cardHeight == 3)
    }

    @Test func asciiModeWritesNoOtherByteWhateverTheScenarioSays() {
        let grid = InterfaceRenderer.render(
            board: asciiBoard, state: InterfaceState(board: asciiBoard), frame: asciiFrame
        ).grid
        #expect(grid.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(grid.cells.allSatisfy { $0.width == 1 })
        #expect(
            grid.lines.map(trimmed) == [
                " opscope - Telecharger - ???? -> ca             t=0.500s  x1  PAUSED at a caption  held 0, failed 1",
                "> reseau  1 running, 1 waiting for a thread - cap 2   0 in queue",
                "> 0.500s - ???? runs -> ca-va waits  (Space continues)",
                "Pending 0    |Ready 1      |Executing 1  |Finished 0   |Cancelled 0  |- Notes (n hides) ------------",
                "             |ca-va       x|????         |             |             |Telecharger - ???? -> ca",
                "             |work low/UT  |work normal  |             |             |\"Quotes\", an ellipsis... and",
                "             |no thread yet|###.....  49%|             |             |  a dash - all of them.",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "             |             |             |             |             |",
                "- Inspector: ca-va --------------------- Log ------------------------|",
                "work 1s on reseau; priority low, QoS  |0.000  ????  isReady true     |",
                "  utility                             |  (initial: added to its      |",
                "not running: dispatched by reseau at  |  queue)                      |",
                "  0.500s, waiting for a worker thread |0.000  ????  dispatched       |",
                "ready: isReady=true                   |0.000  ????  isExecuting false|",
                "  isExecuting=false isFinished=false  |  -> true on thread #1        |",
                "  isCancelled=true                    |                              |",
                "depends on: ???? (executing)          |                              |",
                "note: its QoS utility filed it under  |                              |",
                " paused at a caption: Space continues",
                " ? help  q quit  Space resume  c cancel  s suspend  + cap+  - cap-  Tab queue  n notes  m lesson",
            ])
    }
}
