import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing
import TextKit

@testable import Screen

/// fetch executing, parse pending, thumbs finished, save not added; paint
/// ready on the main queue; net has cap 2, disk 1.
private let running = board { s in
    s.add("fetch")
    s.add("parse", ready: false)
    s.add("thumbs")
    s.add("paint")
    s.run("thumbs", from: 0, to: 0.5)
    s.start("fetch")
}

private let ids = Names(scenario: pipeline)

/// Presses `key` with `op` (and its queue, or `queue`) selected; returns
/// the outcome and the message left.
private func press(
    _ key: Key, op: String? = nil, queue: String? = nil, on b: BoardState = running, speed: Double = 1
) -> (InterfaceOutcome, String?) {
    var state = InterfaceState(board: b)
    if let op {
        InterfaceController.select(
            ids(op), column: BoardColumns(b).locate(ids(op))!.column, state: &state, board: b, frame: frame())
    }
    if let queue { state.selectedQueue = ids.q(queue) }
    var f = frame()
    f.speed = speed
    let outcome = InterfaceController.handle(key, state: &state, board: b, frame: f)
    return (outcome, state.visibleMessage(now: 0)?.text)
}

struct Refusal: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let key: Key
    let op: String?
    let queue: String?
    let message: String
}

private let refusals: [Refusal] = [
    Refusal(
        testDescription: "lower a cap of 1", key: .character("-"), op: nil, queue: "disk",
        message: "max disk 0: a cap must be at least 1 (0 would stall the queue)"),
    Refusal(
        testDescription: "priority of a started operation", key: .character("p"), op: "fetch", queue: nil,
        message: "priority fetch high: its priority no longer matters once it started"),
    Refusal(
        testDescription: "priority of a barrier", key: .character("p"), op: "flush", queue: nil,
        message: "priority flush high: a barrier has no queuePriority (it runs before every ready operation)"),
    Refusal(
        testDescription: "unknown key", key: .character("Y"), op: nil, queue: nil,
        message: "unknown key Y: press ? for help"),
    Refusal(
        testDescription: "unknown function key", key: .function(5), op: nil, queue: nil,
        message: "unknown key F5: press ? for help"),
]

/// Keys the engine judges: the interface sends them and says nothing until
/// the action's event tells what the engine did (`ActionNotice`).
private let judgedByTheEngine: [(String, Key, String?, String?, Action)] = [
    ("cancel a finished operation", .character("c"), "thumbs", nil, .cancel(OperationID(2))),
    ("cancel an operation not added yet", .character("c"), "save", nil, .cancel(OperationID(3))),
    ("cancel a barrier", .character("c"), "flush", nil, .cancel(OperationID(4))),
    ("suspend the main queue", .character("s"), nil, "ui", .suspend(QueueID(2))),
    ("cap the main queue", .character("+"), nil, "ui", .setCap(QueueID(2), .limit(2))),
    ("cancel all on the main queue", .character("C"), nil, "ui", .cancelAll(QueueID(2))),
    ("cancel all with nothing left", .character("C"), nil, "disk", .cancelAll(QueueID(1))),
]

@Suite struct InterfaceControllerTests {
    @Test(arguments: refusals)
    func refusalsSaySoAndAskNothingOfTheRun(_ r: Refusal) {
        let (outcome, message) = press(r.key, op: r.op, queue: r.queue)
        #expect(outcome == .redraw)
        #expect(message == r.message)
    }

    @Test(arguments: judgedByTheEngine.indices)
    func keysTheEngineJudgesAreSentAndSayNothingYet(_ i: Int) {
        let (_, key, op, queue, action) = judgedByTheEngine[i]
        let (outcome, message) = press(key, op: op, queue: queue)
        #expect(outcome == .perform(action))
        #expect(message == nil)
    }

    @Test func cancelOutcomes() {
        #expect(press(.character("c"), op: "parse").0 == .perform(.cancel(ids("parse"))))
        let (outcome, message) = press(.character("c"), op: "fetch")
        #expect(outcome == .perform(.cancel(ids("fetch"))))
        #expect(message == nil)
    }

    @Test("on an ended run, every key that acts on the engine says so and asks nothing")
    func keysOnAnEndedRun() {
        let ended = board { s in
            s.add("fetch")
            s.run("fetch", from: 0, to: 1)
            s.end()
        }
        for key in ["c", "p", "P", "C", "s", "+", "-", "0", " "] {
            let (outcome, message) = press(.character(Character(key)), op: "fetch", queue: "net", on: ended)
            #expect(outcome == .redraw, "\(key)")
            #expect(message == "the run has ended — r runs it again", "\(key)")
        }
        #expect(press(.character("r"), on: ended).0 == .restart)
    }

    @Test func priorityStepsAndLimits() {
        #expect(press(.character("p"), op: "parse").0 == .perform(.setPriority(ids("parse"), .high)))
        #expect(press(.character("P"), op: "parse").0 == .perform(.setPriority(ids("parse"), .low)))
        let top = makeScenario(queues: [QueueSpec(name: "q")], ops: [op("v", on: "q", priority: .veryHigh)])
        let b = board(top) { $0.add("v", ready: false) }
        var state = InterfaceState(board: b)
        #expect(InterfaceController.handle(.character("p"), state: &state, board: b, frame: frame()) == .redraw)
        #expect(state.message?.text == "v is already veryHigh, the highest queuePriority")
        #expect(state.message?.kind == .refusal)
        #expect(
            InterfaceController.handle(.character("P"), state: &state, board: b, frame: frame())
                == .perform(.setPriority(OperationID(0), .high)))
    }

    @Test func queueCommands() {
        #expect(press(.character("s"), queue: "net").0 == .perform(.suspend(ids.q("net"))))
        let suspended = board { $0.suspended("net", true) }
        #expect(press(.character("s"), queue: "net", on: suspended).0 == .perform(.resume(ids.q("net"))))
        #expect(press(.character("C"), queue: "net").0 == .perform(.cancelAll(ids.q("net"))))
        #expect(press(.character("+"), queue: "net").0 == .perform(.setCap(ids.q("net"), .limit(3))))
        #expect(press(.character("-"), queue: "net").0 == .perform(.setCap(ids.q("net"), .limit(1))))
        #expect(press(.character("0"), queue: "net").0 == .perform(.setCap(ids.q("net"), .systemDefault)))
    }

    @Test func capFromAndToDefault() {
        let wide = board { s in
            s.cap("net", -1, old: 2)
            s.add("fetch")
            s.add("thumbs")
            s.start("fetch")
            s.start("thumbs")
        }
        let (lowered, message) = press(.character("-"), queue: "net", on: wide)
        #expect(lowered == .perform(.setCap(ids.q("net"), .limit(2))))
        #expect(message == nil)
        let idle = board { $0.cap("net", -1, old: 2) }
        #expect(press(.character("-"), queue: "net", on: idle).0 == .perform(.setCap(ids.q("net"), .limit(1))))
        #expect(
            press(.character("+"), queue: "net", on: idle).1
                == "net has no cap (the system decides): - sets one")
        #expect(press(.character("0"), queue: "net", on: idle).1 == "net already has no cap (the system decides)")
    }

    @Test func runCommands() {
        #expect(press(.character(" ")).0 == .togglePause)
        #expect(press(.character(">"), speed: 2).0 == .setSpeed(4))
        #expect(press(.character("<"), speed: 2).0 == .setSpeed(1))
        #expect(press(.character(">"), speed: 64) == (.redraw, "already at the fastest speed, ×64"))
        #expect(press(.character("<"), speed: 0.125) == (.redraw, "already at the slowest speed, ×0.125"))
        #expect(press(.character("r")).0 == .restart)
        #expect(press(.character("q")).0 == .quit)
        #expect(press(.ctrl("c")).0 == .quit)
        #expect(press(.resize).0 == .redraw)
    }

    @Test func nothingSelected() {
        let empty = BoardState(scenario: Scenario(queues: [], operations: []))
        var state = InterfaceState(board: empty)
        for (key, message) in [
            (Key.character("c"), "no operation selected"), (.character("p"), "no operation selected"),
            (.character("s"), "no queue selected"), (.character("-"), "no queue selected"),
            (.enter, "no operation selected"), (.down, "no operation to select"), (.tab, "this scenario has no queue"),
        ] {
            #expect(InterfaceController.handle(key, state: &state, board: empty, frame: frame()) == .redraw)
            #expect(state.message?.text == message)
        }
        #expect(screen(empty, state, frame())[1].hasPrefix("Pending 0"))
    }

    @Test func viewToggles() {
        var state = InterfaceState(board: running)
        let f = frame()
        _ = InterfaceController.handle(.character("L"), state: &state, board: running, frame: f)
        #expect(!state.logVisible)
        _ = InterfaceController.handle(.pageUp, state: &state, board: running, frame: f)
        #expect(state.message?.text == "the log is hidden: L shows it")
        _ = InterfaceController.handle(.enter, state: &state, board: running, frame: f)
        #expect(state.inspectorExpanded)
        _ = InterfaceController.handle(.escape, state: &state, board: running, frame: f)
        #expect(!state.inspectorExpanded)
        _ = InterfaceController.handle(.character("?"), state: &state, board: running, frame: f)
        #expect(state.overlay == .help)
        _ = InterfaceController.handle(.character("c"), state: &state, board: running, frame: f)
        #expect(state.message?.text == "close the overlay first (Esc)")
        _ = InterfaceController.handle(.character("?"), state: &state, board: running, frame: f)
        #expect(state.overlay == .none)
    }

    @Test func fFiltersTheLogToTheSelectedOperationAndBack() {
        var state = InterfaceState(board: running)
        var f = frame()
        f.log = [
            LogEntry(text: "0.000  fetch  isReady true", operation: ids("fetch")),
            LogEntry(text: "0.000  net  operationCount 0 → 1"),
            LogEntry(text: "0.000  parse  isReady false", operation: ids("parse")),
            LogEntry(text: "0.001  fetch  isExecuting false → true", operation: ids("fetch")),
        ]
        InterfaceController.select(ids("fetch"), column: 2, state: &state, board: running, frame: f)
        #expect(InterfaceController.handle(.character("f"), state: &state, board: running, frame: f) == .redraw)
        #expect(state.logFilter == ids("fetch"))
        let lines = screen(running, state, f)
        #expect(lines[15].contains("─ Log of fetch (f: all) ─"))
        #expect(lines[16].hasSuffix("│0.000  fetch  isReady true"))
        #expect(lines[17].hasSuffix("│0.001  fetch  isExecuting false →"))
        #expect(lines[18].hasSuffix("│  true"))  // wrapped whole, not cut
        _ = InterfaceController.handle(.character("f"), state: &state, board: running, frame: f)
        #expect(state.logFilter == nil)
    }

    @Test func mTogglesLessonModeAndMovingTheSelectionClearsTheStatusLine() {
        var state = InterfaceState(board: running)
        #expect(
            InterfaceController.handle(.character("m"), state: &state, board: running, frame: frame()) == .toggleLesson)
        state.show("something about parse", now: 0)
        InterfaceController.select(ids("fetch"), column: 2, state: &state, board: running, frame: frame())
        #expect(state.message == nil)
    }

    @Test func nShowsOrHidesTheNotesWhereverTheyAre() {
        var state = InterfaceState(board: running)
        let narrow = frame(80, 24)
        #expect(InterfaceRenderer.layout(board: running, state: state, frame: narrow)?.notes == nil)
        _ = InterfaceController.handle(.character("n"), state: &state, board: running, frame: narrow)
        #expect(state.notes == .shown)
        #expect(InterfaceRenderer.layout(board: running, state: state, frame: narrow)?.notesDocked == false)
        let wide = frame(120, 40)
        #expect(InterfaceRenderer.layout(board: running, state: state, frame: wide)?.notesDocked == true)
        _ = InterfaceController.handle(.character("n"), state: &state, board: running, frame: wide)
        #expect(state.notes == .hidden)
        #expect(InterfaceRenderer.layout(board: running, state: state, frame: wide)?.notes == nil)
    }

    @Test func logScrollsByPages() {
        var state = InterfaceState(board: running)
        let log = (0..<40).map { "line \($0)" }
        let f = frame(log: log)
        #expect(InterfaceController.handle(.pageUp, state: &state, board: running, frame: f) == .redraw)
        #expect(state.logScroll == 5)  // 6 rows of log, a page keeps one line
        let lines = screen(running, state, f)
        #expect(lines[16].hasSuffix("│line 29"))
        #expect(lines[15].contains("Log (5 newer below, PgDn)"))
        _ = InterfaceController.handle(.pageDown, state: &state, board: running, frame: f)
        #expect(state.logScroll == 0)
        #expect(InterfaceController.handle(.pageDown, state: &state, board: running, frame: f) == InterfaceOutcome.none)
    }
}
