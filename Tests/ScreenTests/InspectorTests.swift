import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// net (cap 2): a, b (after a), c, hi (high), lo (low), d; wide (default cap):
/// w1, w2, the barrier gate; disk (serial): s (qos userInitiated, no
/// priority); pool (default cap): u (qos utility), bl (three blocks), dl
/// (async); later: x (added by an action).
private let why = makeScenario(
    queues: [
        QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "wide"), QueueSpec(name: "disk", cap: .limit(1)),
        QueueSpec(name: "pool"),
    ],
    ops: [
        op("a", on: "net"), op("b", on: "net", after: ["a"]), op("c", on: "net"),
        op("hi", on: "net", priority: .high), op("lo", on: "net", priority: .low), op("d", on: "net"),
        op("w1", on: "wide"), op("w2", on: "wide"),
        op("s", on: "disk", qos: .userInitiated), op("u", on: "pool", qos: .utility),
        op("x", on: "pool"), op("bl", on: "pool", body: .blocks([.seconds(1), .seconds(1), .seconds(1)])),
        op("dl", on: "pool", body: .async(.seconds(1))), op("gate", on: "wide", body: .barrier(.seconds(1))),
    ],
    addedLater: ["x"])

struct WhyLine: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let build: @Sendable (inout Script) -> Void
    let op: String
    let line: String
}

private let whyLines: [WhyLine] = [
    WhyLine(testDescription: "not added yet", build: { _ in }, op: "a", line: "not running: not added yet"),
    WhyLine(
        testDescription: "added later by an action", build: { _ in }, op: "x",
        line: "not running: not added yet (an add action adds it later)"),
    WhyLine(
        testDescription: "waiting for a dependency",
        build: {
            $0.add("a")
            $0.add("b", ready: false)
        }, op: "b",
        line: "not running: waiting for a"),
    WhyLine(
        testDescription: "suspended queue",
        build: {
            $0.suspended("net", true)
            $0.add("a")
        }, op: "a",
        line: "not running: its queue net is suspended"),
    WhyLine(
        testDescription: "queue at its cap",
        build: { s in
            for n in ["a", "c", "lo"] { s.add(n) }
            s.start("a")
            s.start("c")
        }, op: "lo",
        line: "not running: its queue net is at its cap (2 of 2 running)"),
    WhyLine(
        testDescription: "behind a higher priority",
        build: { s in
            for n in ["a", "hi", "lo"] { s.add(n) }
            s.start("a")
        }, op: "lo",
        line: "not running: behind 1 higher-priority ready operation"),
    WhyLine(
        testDescription: "behind one added earlier",
        build: { s in
            for n in ["a", "c", "d"] { s.add(n) }
            s.start("a")
        }, op: "d",
        line: "not running: behind 1 ready operation that the queue takes first (higher priority or added earlier)"),
    WhyLine(
        testDescription: "waiting for a worker thread",
        build: { s in
            s.add("w1")
            s.add("w2")
            s.start("w1")
            s.dispatch("w2")
        }, op: "w2",
        line: "not running: dispatched by wide at 0.000s, waiting for a worker thread"),
    WhyLine(
        testDescription: "dispatched while a barrier of its queue runs",
        build: { s in
            s.add("gate")
            s.start("gate")
            s.add("w1")
            s.dispatch("w1")
        }, op: "w1",
        line: "not running: dispatched by wide at 0.000s while its barrier gate runs: it waits behind the barrier's "
            + "block on wide's dispatch queue"),
]

@Suite struct InspectorTests {
    @Test(arguments: whyLines)
    func whyNotRunningInPlainWords(_ c: WhyLine) {
        var script = Script(why)
        c.build(&script)
        let b = BoardState(scenario: why, replaying: script.events)
        let lines = InspectorText.lines(board: b, op: why.operationID(named: c.op)!, now: 0)
        #expect(lines.filter { $0.role == .reason }.map(\.text) == [c.line])
    }

    @Test func severalReasonsAreListedUnderOneHeading() {
        var script = Script(why)
        script.suspended("net", true)
        for n in ["a", "c", "lo"] { script.add(n) }
        script.start("a")
        script.start("c")
        let b = BoardState(scenario: why, replaying: script.events)
        let reasons = InspectorText.lines(board: b, op: why.operationID(named: "lo")!, now: 0).filter {
            $0.role == .reason
        }
        #expect(
            reasons.map(\.text) == [
                "not running:", "  its queue net is suspended", "  its queue net is at its cap (2 of 2 running)",
            ])
    }

    @Test func dependenciesAndDependentsWithTheirPhases() {
        let b = board { s in
            s.add("fetch")
            s.add("parse", ready: false)
            s.start("fetch")
        }
        let text = InspectorText.lines(board: b, op: OperationID(1), now: 0).map(\.text)
        #expect(text.contains("depends on: fetch (executing)"))
        #expect(text.contains("dependents: save (not added)"))
        #expect(text.contains("pending: isReady=false isExecuting=false isFinished=false isCancelled=false"))
    }

    @Test func engineFactsAreExplained() {
        var script = Script(why)
        for n in ["s", "u", "bl"] { script.add(n) }
        script.start("bl")
        script.block("bl", 0, .started, thread: 3)
        let b = BoardState(scenario: why, replaying: script.events)
        let notes = { (name: String) in
            InspectorText.lines(board: b, op: why.operationID(named: name)!, now: 0.5).filter { $0.role == .note }.map(
                \.text)
        }
        #expect(
            notes("u").prefix(1) == [
                "note: its QoS utility filed it under low priority: it has no explicit queuePriority (whose getter still answers normal)"
            ])
        #expect(
            notes("s").contains(
                "note: it is filed under normal (added to a serial queue without a priority), but Foundation looks for "
                    + "it under high when its priority changes: a change does not move it"))
        #expect(
            notes("bl") == [
                "note: BlockOperation on Linux runs its 3 blocks one after another on one thread (thread #3)"
            ])
        let paint = board {
            $0.add("paint")
            $0.dispatch("paint")
        }
        #expect(
            InspectorText.lines(board: paint, op: OperationID(5), now: 0).map(\.text).contains(
                "not running: dispatched to the main queue at 0.000s, waiting for the main thread"))
    }

    /// An asynchronous operation needs a worker thread for its start();
    /// once that returned it holds none.
    @Test func anAsynchronousOperationHoldsAThreadOnlyForItsStart() {
        var script = Script(why)
        script.add("dl")
        script.dispatch("dl")
        let notes = { (board: BoardState) in
            InspectorText.lines(board: board, op: why.operationID(named: "dl")!, now: 0.5)
                .filter { $0.role == .note }.map(\.text)
        }
        #expect(
            notes(BoardState(scenario: why, replaying: script.events)).contains(
                "note: asynchronous: its start() needs a worker thread; once started it holds none, and it posts "
                    + "isExecuting and isFinished itself"))
        script.start("dl", thread: 2)
        #expect(
            notes(BoardState(scenario: why, replaying: script.events)).contains(
                "note: asynchronous: it posts isExecuting and isFinished itself; since its start() returned it "
                    + "holds no worker thread"))
    }

    @Test func inspectorPaneWrapsToItsWidth() {
        let b = board { s in
            s.add("fetch")
            s.add("parse", ready: false)
        }
        var state = InterfaceState(board: b)
        state.selectedOperation = OperationID(1)
        state.logVisible = false
        var grid = CellGrid(columns: 30, rows: 6)
        InspectorView.draw(
            board: b, state: state, frame: frame(), theme: Theme(colors: true), into: &grid, rect: grid.bounds)
        #expect(
            grid.lines.map(trimmed) == [
                "─ Inspector: parse ───────────",
                "work 1s on net; priority",
                "  normal (default)",
                "not running: waiting for",
                "  fetch",
                "pending: isReady=false",
            ])
    }
}
