import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing
import TextKit

@testable import Screen

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
