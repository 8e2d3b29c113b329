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
        testDescription: "unknown key", key: .character("y"), op: nil, queue: nil,
        message: "unknown key y: press ? for help"),
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

/// The history keys move the cursor over the run's notifications; Home and
/// End go to the start and back to live only in history.
@Suite struct HistoryKeyTests {
    static func recorded() -> (BoardState, BoardHistory) {
        var script = Script(pipeline)
        script.add("fetch")
        script.add("parse", ready: false)
        script.start("fetch")
        script.at(0.5)
        script.finish("fetch")
        script.ready("parse")
        var live = BoardState(scenario: pipeline)
        var history = BoardHistory(scenario: pipeline)
        for event in script.events {
            live.apply(event)
            history.append(event, boardAfter: live)
        }
        return (live, history)
    }

    static func press(_ keys: [Key], from cursor: Int? = nil, replay: Bool = false) -> (InterfaceState, String?) {
        pressing(keys, from: cursor, replay: replay).state
    }

    /// The state after `keys`, its message, and the last key's outcome.
    static func pressing(_ keys: [Key], from cursor: Int? = nil, replay: Bool = false) -> (
        state: (InterfaceState, String?), last: InterfaceOutcome
    ) {
        let (live, history) = recorded()
        var state = InterfaceState(board: live)
        state.historyCursor = cursor
        var f = frame(120, 40)
        f.history = history
        f.isReplay = replay
        var last = InterfaceOutcome.none
        for key in keys {
            f.historyShown = state.historyCursor
            last = InterfaceController.handle(key, state: &state, board: live, live: live, frame: f)
        }
        return ((state, state.visibleMessage(now: 0)?.text), last)
    }

    static func typing(_ text: String) -> [Key] { [.character("g")] + text.map { Key.character($0) } + [.enter] }

    @Test func aTypedTimeMovesTheCursorToTheLastNotificationByThen() {
        let history = Self.recorded().1
        let beforeHalf = (0...history.count).last { history.time(after: $0) <= 0.4 } ?? 0
        #expect(beforeHalf > 0 && beforeHalf < history.count)
        for typed in ["0.4", "0.4s", "400ms"] {
            let (state, message) = Self.press(Self.typing(typed))
            #expect(state.historyCursor == beforeHalf, "\(typed)")
            #expect(
                message
                    == "g \(typed): event \(beforeHalf) of \(history.count), the last notification by then, at "
                    + Spelling.seconds(history.time(after: beforeHalf)))
            #expect(state.timeEntry == nil)
        }
        // Past the last notification: live again, and the message says
        // it went to the last one (not the moment typed, which the run
        // never reached); in a replay, the recording's last.
        let last = Spelling.seconds(history.time(after: history.count))
        let (past, pastMessage) = Self.press(Self.typing("99999999999999"), from: 2)
        #expect(past.historyCursor == nil)
        #expect(
            pastMessage
                == "g 99999999999999: past the last notification (\(last)): event \(history.count) of "
                + "\(history.count), live")
        #expect(
            Self.press(Self.typing("9"), from: 2, replay: true).1
                == "g 9: past the last notification in the recording (\(last)): event \(history.count) of "
                + "\(history.count)")
        // 0: every notification announced at t=0 (Home goes before them).
        let atZero = (0...history.count).last { history.time(after: $0) <= 0 } ?? 0
        #expect(Self.press(Self.typing("0"), from: 2).0.historyCursor == atZero)
    }

    @Test func typingATimeTakesBackspaceEscapeAndRefusesWhatIsNotATime() {
        let (typing, _) = Self.press([.character("g"), .character("1"), .character("2"), .backspace])
        #expect(typing.timeEntry == "1")
        #expect(typing.historyCursor == nil)
        let (gaveUp, _) = Self.press([.character("g"), .character("1"), .escape], from: 3)
        #expect(gaveUp.timeEntry == nil && gaveUp.historyCursor == 3)
        let (refused, message) = Self.press(Self.typing("1.2.3"), from: 3)
        #expect(refused.historyCursor == 3)
        #expect(message?.hasPrefix("'1.2.3' is not a time") == true)
        // Another key ends the typing and does what it does.
        let (moved, _) = Self.press([.character("g"), .character("1"), .character("[")], from: 3)
        #expect(moved.timeEntry == nil && moved.historyCursor == 2)
    }

    @Test func inAReplayEngineKeysSayTheyCannotChangeTheRun() {
        for key in ["c", "s", "+", "-", "0", "p", "C"] {
            let (_, message) = Self.press([.character(Character(key))], replay: true)
            #expect(message == InterfaceController.replayRefusal, "\(key)")
        }
    }

    /// A replay has its whole recording in the history: past its last
    /// notification there is nothing to take, and End goes to that one.
    @Test func inAReplayTheEndIsTheRecordingsLastNotification() {
        let count = Self.recorded().1.count
        #expect(Self.press([.character("]")], replay: true).1 == "this is the recording's last notification")
        #expect(Self.press([.character("}")], replay: true).1 == "this is the recording's last notification")
        #expect(Self.press([.home], from: 3, replay: true).0.historyCursor == 0)
        #expect(Self.pressing([.end], from: 0, replay: true).last == .redraw)
        #expect(Self.press([.end], from: 0, replay: true).0.historyCursor == nil)
        #expect(Self.press([.character("]")], from: count - 1, replay: true).0.historyCursor == nil)
    }

    @Test func bracketsStepOneNotificationAndPastTheLastIsLive() {
        let count = Self.recorded().1.count
        #expect(Self.press([.character("[")]).0.historyCursor == count - 1)
        #expect(Self.press([.character("["), .character("[")]).0.historyCursor == count - 2)
        #expect(Self.press([.character("["), .character("]")]).0.historyCursor == nil)
        #expect(Self.press([.character("]")]).1 == "this is the live run: [ steps back")
        #expect(Self.press([.character("[")], from: 0).1 == "this is the start of the run")
    }

    @Test func bracesJumpToTheMomentsACardChangedColumn() {
        let history = Self.recorded().1
        // Live shows the last moment already: { goes to the one before it.
        let first = history.previousChange(before: history.count)
        #expect(first > 0 && history.columnChanges.contains(first))
        #expect(Self.press([.character("{")]).0.historyCursor == first)
        let second = history.previousChange(before: first)
        #expect(Self.press([.character("{"), .character("{")]).0.historyCursor == second)
        #expect(Self.press([.character("{"), .character("{"), .character("}")]).0.historyCursor == first)
    }

    @Test func homeAndEndGoToTheStartAndBackToLiveInHistory() {
        #expect(Self.press([.character("["), .home]).0.historyCursor == 0)
        #expect(Self.press([.character("["), .home, .end]).0.historyCursor == nil)
        // Live, they scroll the log as before.
        #expect(Self.press([.home]).0.historyCursor == nil)
    }

    /// The screen at 120×40 with the cursor after the third notification.
    static func atThirdNotification(log: [LogEntry] = []) -> (CellGrid, BoardHistory) {
        let (live, history) = recorded()
        var state = InterfaceState(board: live)
        state.historyCursor = 3
        var f = frame(120, 40)
        f.history = history
        f.historyShown = 3
        f.log = log
        return (InterfaceRenderer.render(board: history.board(after: 3), state: state, frame: f).grid, history)
    }

    @Test func theLogEndsAtTheCursorsLineAndMarksIt() throws {
        let history = Self.recorded().1
        let log = history.events.prefix(3).map { LogEntry(text: "line of event \($0.seq)", seq: $0.seq) }
        let grid = Self.atThirdNotification(log: log).0
        let lines = grid.lines
        let row = try #require(lines.firstIndex { $0.contains("line of event \(history.events[2].seq)") })
        let column = try #require(lines[row].range(of: "line of event")).lowerBound
        let x = lines[row].distance(from: lines[row].startIndex, to: column)
        #expect(grid[x, row].style.reverse)
        let earlier = try #require(lines.firstIndex { $0.contains("line of event \(history.events[1].seq)") })
        #expect(!grid[x, earlier].style.reverse)
        #expect(lines.contains { $0.contains("Log · at the cursor") })
    }

    @Test func theTitleSaysWhereTheCursorIs() {
        let (grid, history) = Self.atThirdNotification()
        let text = grid.lines[0]
        #expect(text.contains("event 3 of \(history.count) · 0.000s · history — End returns to live"))
    }
}
