import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing
import TextKit

@testable import Screen

/// The queue inspector and the provenance the operation inspector tells,
/// from hand-made streams over a scenario read from text (so that its
/// lines are known).
@Suite struct QueueInspectorTests {
    /// Lines: 1 downloads, 2 net, 4 d1, 5 d2, 6 d3, 7 fetch, 8 parse, 9 store,
    /// 11 suspend, 12 max, 13 resume, 14 cancel-all.
    static let source = """
        queue downloads max 2
        queue net max 1

        op d1 on downloads work 1s
        op d2 on downloads work 1s
        op d3 on downloads work 1s
        op fetch on net work 1s completion resume downloads
        op parse on net work 1s after store
        op store on downloads work 1s after d3

        at 300ms suspend downloads
        at 500ms max downloads 1
        at 1.6s resume downloads
        at 2s cancel-all downloads
        """

    let scenario: Scenario

    init() {
        let result = ScenarioReader.read(Self.source)
        #expect(result.scenario != nil && !result.hasErrors)
        scenario = result.scenario ?? Scenario(queues: [], operations: [])
    }

    func timed(_ index: Int) -> LifecycleEvent.Kind {
        .action(scenario.actions[index].action, origin: .timed(index), ignored: nil)
    }

    /// d1 and d2 run, d3 waits; downloads suspended at 0.3s by line 11, its
    /// cap set to 1 at 0.5s by line 12, a resume key ignored at 0.7s.
    func suspendedBoard() -> BoardState {
        var s = Script(scenario)
        for name in ["d1", "d2", "d3", "fetch"] { s.add(name) }
        s.add("parse", ready: false)
        s.add("store", ready: false)
        s.start("d1")
        s.start("d2")
        s.start("fetch")
        s.at(0.3)
        s.emit(timed(0))
        s.suspended("downloads", true)
        s.at(0.5)
        s.emit(timed(1))
        s.cap("downloads", 1, old: 2)
        s.at(0.7)
        s.emit(.action(.resume(s.qid("net")), origin: .user, ignored: .notSuspended))
        s.emit(.action(.suspend(s.qid("downloads")), origin: .user, ignored: .alreadySuspended))
        return BoardState(scenario: scenario, replaying: s.events)
    }

    @Test func theQueueInspectorSaysWhoSuspendedItAndWhatCanResumeIt() {
        let board = suspendedBoard()
        let lines = QueueInspectorText.lines(board: board, queue: scenario.queueID(named: "downloads")!).map(\.text)
        #expect(
            lines == [
                "serial queue (cap 1; declared max 2)",
                "suspended since 0.300s by line 11",
                "what could resume it:",
                "  still to come at 1.600s (line 13)",
                "  when fetch's completion block runs (line 7); fetch is executing",
                "operations: 1 pending, 1 ready, 2 executing, 0 finished, 0 cancelled",
                "actions on it:",
                "  0.300s  suspended by line 11",
                "  0.500s  cap 1 by line 12",
                "  0.700s  suspend by a key: ignored, already suspended",
            ])
    }

    @Test func aResumeWhoseOperationWaitsBehindTheSuspensionSaysSo() {
        var s = Script(scenario)
        for name in ["d1", "d2", "d3"] { s.add(name) }
        s.add("fetch", ready: false)
        s.at(0.3)
        s.emit(timed(0))
        s.suspended("downloads", true)
        s.at(1.7)
        // Line 13 ran: nothing in the file is left but fetch's completion block.
        s.emit(.action(scenario.actions[2].action, origin: .timed(2), ignored: .notSuspended))
        let board = BoardState(scenario: scenario, replaying: s.events)
        let lines = QueueInspectorText.lines(board: board, queue: s.qid("downloads")).map(\.text)
        #expect(lines.contains("  1.700s  resume by line 13: ignored, not suspended"))
        #expect(lines.contains("  when fetch's completion block runs (line 7); fetch is pending"))
    }

    @Test func aStalledQueueTakesTheStallsOwnWords() {
        var s = Script(scenario)
        s.add("d3")
        s.add("store", ready: false)
        s.add("parse", ready: false)
        s.at(0.3)
        s.emit(timed(0))
        s.suspended("downloads", true)
        s.at(1.6)
        s.emit(timed(2))
        s.suspended("downloads", false)
        s.at(1.8)
        s.emit(.action(.suspend(s.qid("downloads")), origin: .completion(s.id("fetch")), ignored: nil))
        s.suspended("downloads", true)
        s.emit(.stall([s.id("d3"): .queueSuspended(s.qid("downloads"))]))
        let board = BoardState(scenario: scenario, replaying: s.events)
        let lines = QueueInspectorText.lines(board: board, queue: s.qid("downloads")).map(\.text)
        #expect(lines[1] == "suspended since 1.800s by fetch's completion block")
        #expect(lines.contains("  1.800s  suspended by fetch's completion block"))
        #expect(lines[2] == "stuck: downloads is suspended and nothing in the file resumes it")
    }

    @Test func aQueueWithNoActionsSaysSo() {
        let board = BoardState(scenario: scenario)
        let lines = QueueInspectorText.lines(board: board, queue: scenario.queueID(named: "net")!).map(\.text)
        #expect(
            lines == [
                "serial queue (cap 1)", "not suspended",
                "operations: 0 pending, 0 ready, 0 executing, 0 finished, 0 cancelled, 2 not added yet",
                "actions on it: none yet",
            ])
    }

    @Test func theHistoryFollowsTheCursor() {
        var history = BoardHistory(scenario: scenario, interval: 2)
        var live = BoardState(scenario: scenario)
        let events = suspendedBoardEvents()
        for event in events {
            live.apply(event)
            history.append(event, boardAfter: live)
        }
        let q = scenario.queueID(named: "downloads")!
        for n in 0...events.count {
            let fresh = BoardState(scenario: scenario, replaying: Array(events.prefix(n)))
            let seeked = history.board(after: n)
            #expect(seeked.actions == fresh.actions)
            #expect(
                QueueInspectorText.lines(board: seeked, queue: q) == QueueInspectorText.lines(board: fresh, queue: q))
        }
        #expect(QueueInspectorText.lines(board: history.board(after: 5), queue: q)[1].text == "not suspended")
    }

    func suspendedBoardEvents() -> [LifecycleEvent] {
        var s = Script(scenario)
        for name in ["d1", "d2", "d3"] { s.add(name) }
        s.start("d1")
        s.at(0.3)
        s.emit(timed(0))
        s.suspended("downloads", true)
        s.at(0.5)
        s.emit(timed(1))
        s.cap("downloads", 1, old: 2)
        s.at(1.6)
        s.emit(timed(2))
        s.suspended("downloads", false)
        return s.events
    }

    @Test func aCancelSaysWhichActionCancelledIt() {
        var s = Script(scenario)
        for name in ["d1", "d2", "d3", "fetch"] { s.add(name) }
        s.start("d1")
        s.at(0.2)
        s.emit(.action(.cancel(s.id("fetch")), origin: .user, ignored: nil))
        s.start("d2")  // another thread's event between the action and its effect
        s.cancel("fetch")
        s.at(2)
        s.emit(timed(3))
        s.cancel("d1")
        s.cancel("d3")
        let board = BoardState(scenario: scenario, replaying: s.events)
        let text = { (name: String) in Provenance.cancel(of: board[operation: s.id(name)], board: board) }
        #expect(text("fetch") == "cancelled at 0.200s by a key (cancel fetch)")
        #expect(text("d1") == "cancelled at 2.000s by line 14 (cancel-all downloads)")
        #expect(text("d3") == "cancelled at 2.000s by line 14 (cancel-all downloads)")
        let inspector = InspectorText.lines(board: board, op: s.id("d1"), now: 2).map(\.text)
        #expect(inspector.contains("cancelled at 2.000s by line 14 (cancel-all downloads)"))
    }

    @Test func aCancelTheStreamDoesNotExplainSaysNothing() {
        var s = Script(scenario)
        s.add("d1")
        s.cancel("d1")
        let board = BoardState(scenario: scenario, replaying: s.events)
        #expect(board[operation: s.id("d1")].cancelledBy == nil)
        #expect(Provenance.cancel(of: board[operation: s.id("d1")], board: board) == nil)
    }

    @Test func whyNotRunningFollowsTheChainToItsRoot() {
        let board = suspendedBoard()
        let parse = scenario.operationID(named: "parse")!
        let lines = InspectorText.lines(board: board, op: parse, now: 1).map(\.text)
        #expect(
            lines.contains(
                "not running: waiting for store \u{2192} store waits for d3 \u{2192} d3: its queue downloads is "
                    + "suspended (by line 11 at 0.300s); its queue downloads is at its cap (2 of 1 running)"))
    }

    @Test func aLongChainNamesFourLinksThenTheRoot() throws {
        let names = (1...7).map { "x\($0)" }
        let chained = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2))],
            ops: names.enumerated().map { i, name in op(name, on: "net", after: i < 6 ? [names[i + 1]] : []) })
        var s = Script(chained)
        for name in names { s.add(name, ready: name == "x7") }
        s.suspended("net", true)
        let board = BoardState(scenario: chained, replaying: s.events)
        let chain = board.notRunningChain(s.id("x1"))
        #expect(chain?.links.count == 7)
        #expect(
            Provenance.chain(try #require(chain), board: board)
                == "waiting for x2 \u{2192} x2 waits for x3 \u{2192} x3 waits for x4 \u{2192} x4 waits for x5 "
                + "\u{2192} \u{2026}and 2 more \u{2192} x7: its queue net is suspended")
    }

    @Test func aChainThatComesBackStops() throws {
        let looped = makeScenario(
            queues: [QueueSpec(name: "net")],
            ops: [op("a", on: "net", after: ["b"]), op("b", on: "net", after: ["c"]), op("c", on: "net", after: ["b"])])
        var s = Script(looped)
        for name in ["a", "b", "c"] { s.add(name, ready: false) }
        let board = BoardState(scenario: looped, replaying: s.events)
        let chain = board.notRunningChain(s.id("a"))
        #expect(chain?.cycle == true)
        #expect(chain?.links == [s.id("a"), s.id("b"), s.id("c")])
        #expect(
            Provenance.chain(try #require(chain), board: board)
                == "waiting for b \u{2192} b waits for c \u{2192} c waits for what waits for it: a loop")
    }

    @Test func tabAndAClickOnAQueueLineInspectTheQueueAndTheArrowsComeBack() {
        let board = suspendedBoard()
        var state = InterfaceState(board: board)
        let f = frame(80, 24)
        #expect(!state.inspectsQueue)
        _ = InterfaceController.handle(.tab, state: &state, board: board, frame: f)
        let tabbed = state.selectedQueue.map { scenario.queueName($0) } ?? "?"
        #expect(state.inspectsQueue)
        #expect(screen(board, state, f).contains { $0.contains("Inspector: queue \(tabbed)") })
        #expect(InterfaceController.handle(.down, state: &state, board: board, frame: f) == .redraw)
        #expect(!state.inspectsQueue)
        let hits = InterfaceRenderer.hitMap(board: board, state: state, frame: f)
        let line = hits.rect(of: .queue(scenario.queueID(named: "downloads")!))!
        _ = InterfaceController.handle(.mouse(column: line.x + 3, row: line.y), state: &state, board: board, frame: f)
        #expect(state.inspectsQueue && state.selectedQueue == scenario.queueID(named: "downloads"))
        let rows = screen(board, state, f)
        #expect(rows.count == 24 && rows.allSatisfy { displayWidth($0) <= 80 })
        #expect(rows.contains { $0.contains("Inspector: queue downloads") })
        #expect(rows.contains { $0.contains("suspended since 0.300s by line 11") })
    }
}
