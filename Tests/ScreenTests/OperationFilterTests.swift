import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// `F`: the terms, the reasons a term is refused, and what shows.
@Suite struct OperationFilterTests {
    static let b = board { s in
        s.add("fetch")
        s.add("parse", ready: false)
        s.add("thumbs")
        s.start("fetch")
    }

    static func shown(_ text: String) throws -> [String] {
        let filter = try #require(try OperationFilter.parse(text, scenario: pipeline))
        return pipeline.operations.indices.filter { filter.admits(OperationID($0), board: b) }
            .map { pipeline.operations[$0].name }
    }

    @Test(arguments: [
        ("queue:net", ["fetch", "parse", "thumbs"]), ("queue:NET state:ready", ["thumbs"]),
        ("state:exec", ["fetch"]), ("state:pending", ["parse", "save", "flush", "paint"]),
        ("queue:disk queue:ui", ["save", "flush", "paint"]), ("text:a", ["parse", "save", "paint"]),
        ("AV", ["save"]), ("s:ready s:executing  q:net", ["fetch", "thumbs"]), ("t:fetch t:save", ["fetch", "save"]),
    ])
    func termsOfOneKindAreAlternativesOfDifferentKindsAllHold(text: String, expected: [String]) throws {
        #expect(try Self.shown(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("queue:nett", "no queue is named 'nett': the queues are net, disk, ui"),
        ("state:done", "'done' is not a column: pending, ready, executing, finished or cancelled"),
        ("state:", "'state:' needs a value after the colon"),
        ("colour:red", "'colour:red' is not a term: use queue:NAME, state:COLUMN, text:WORD or a bare word"),
        (":x", "':x' is not a term: use queue:NAME, state:COLUMN, text:WORD or a bare word"),
    ])
    func aBadTermIsRefusedWithItsReason(text: String, message: String) {
        #expect(throws: FilterError.self) { try OperationFilter.parse(text, scenario: pipeline) }
        do {
            _ = try OperationFilter.parse(text, scenario: pipeline)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func anEmptyTextIsNoFilter() throws {
        #expect(try OperationFilter.parse("   ", scenario: pipeline) == nil)
        let filter = try #require(try OperationFilter.parse("  queue:net   fe ", scenario: pipeline))
        #expect(filter.text == "queue:net fe" && filter.hiddenCount(on: Self.b) == 5)
    }

    static func pressing(_ keys: [Key], state: inout InterfaceState, board: BoardState = b) {
        var f = frame(80, 24)
        f.log = [
            LogEntry(text: "fetch isExecuting false → true", operation: pipeline.operationID(named: "fetch")),
            LogEntry(text: "save isReady false → true", operation: pipeline.operationID(named: "save")),
            LogEntry(text: "net maxConcurrentOperationCount → 2"),
        ]
        for key in keys { _ = InterfaceController.handle(key, state: &state, board: board, frame: f) }
    }

    static func typing(_ text: String) -> [Key] { [.character("F")] + text.map { Key.character($0) } + [.enter] }

    @Test func theFilterNarrowsTheColumnsTheLogAndSaysSoInTheTitle() {
        var state = InterfaceState(board: Self.b)
        state.selectedOperation = pipeline.operationID(named: "save")
        Self.pressing(Self.typing("queue:net"), state: &state)
        #expect(state.filter.active?.text == "queue:net" && state.filter.entry == nil)
        // The selection moves to a card that shows.
        #expect(state.selectedOperation.map { pipeline[operation: $0].queue } == pipeline.queueID(named: "net"))
        var f = frame(80, 24)
        f.log = [
            LogEntry(text: "fetch isExecuting false → true", operation: pipeline.operationID(named: "fetch")),
            LogEntry(text: "save isReady false → true", operation: pipeline.operationID(named: "save")),
            LogEntry(text: "net cap → 2"),
        ]
        let lines = screen(Self.b, state, f)
        #expect(lines[0].hasPrefix(" opscope · filter hides 3: queue:net · Pipeline"))
        #expect(lines.contains { $0.contains("Pending 1/4") && $0.contains("Ready 1 ") })
        #expect(!lines.contains { $0.contains("save isReady") || $0.contains("paint") })
        #expect(lines.contains { $0.contains("fetch isExecuting") } && lines.contains { $0.contains("net cap → 2") })
    }

    @Test func aBadTermKeepsThePromptOpenWithItsReasonAndEmptyTurnsItOff() {
        var state = InterfaceState(board: Self.b)
        Self.pressing(Self.typing("queue:nope"), state: &state)
        #expect(state.filter.entry == "queue:nope" && state.filter.active == nil)
        let lines = screen(Self.b, state, frame(80, 24))
        #expect(lines.contains { $0.contains("filter: queue:nope_  no queue is named 'nope'") })
        // The prompt keeps the board's keys away.
        Self.pressing(
            [.ctrl("u"), .character("c"), .backspace, .character("f"), .character("e"), .enter], state: &state)
        #expect(state.filter.active?.text == "fe")
        Self.pressing([.character("F"), .ctrl("u"), .enter], state: &state)
        #expect(state.filter.active == nil && state.visibleMessage(now: 0)?.text == "filter off: every operation shows")
    }

    @Test func fOpensEmptySoFEnterTakesTheFilterOffAndEscKeepsIt() {
        var state = InterfaceState(board: Self.b)
        Self.pressing(Self.typing("queue:net"), state: &state)
        Self.pressing([.character("F")], state: &state)
        #expect(state.filter.entry == "")
        let lines = screen(Self.b, state, frame(80, 24))
        #expect(lines.contains { $0.contains("filter: _  now queue:net; Enter takes it off, Esc keeps it") })
        Self.pressing([.escape], state: &state)
        #expect(state.filter.active?.text == "queue:net" && state.filter.entry == nil)
        Self.pressing([.character("F"), .enter], state: &state)
        #expect(state.filter.active == nil && state.visibleMessage(now: 0)?.text == "filter off: every operation shows")
    }

    @Test func theSelectionMovesOnlyAmongShownCards() {
        var state = InterfaceState(board: Self.b)
        Self.pressing(Self.typing("state:pending"), state: &state)
        let names = (0..<6).compactMap { _ -> String? in
            Self.pressing([.down], state: &state)
            return state.selectedOperation.map { pipeline[operation: $0].name }
        }
        #expect(Set(names).isSubset(of: ["parse", "save", "flush", "paint"]))
        Self.pressing([.right, .left], state: &state)
        #expect(state.selectedOperation.map { pipeline[operation: $0].name } != "fetch")
    }

    @Test func aFilterThatHidesEverythingDrawsWithoutASelection() {
        var state = InterfaceState(board: Self.b)
        Self.pressing(Self.typing("state:cancelled"), state: &state)
        #expect(state.selectedOperation == nil)
        let lines = screen(Self.b, state, frame(80, 24))
        #expect(lines[0].contains("filter hides 6:"))
        Self.pressing([.up, .down, .left, .right, .character("c"), .character("/"), .character("f")], state: &state)
    }

    @Test(arguments: [BoardArea.timeline, .threads])
    func theViewsOverTimeDrawOnlyTheShownLanes(area: BoardArea) {
        var scene = TimelineScene(TimelineRuns.many(), area, size: Size(columns: 80, rows: 24))
        for key in Self.typing("queue:b") { scene.press(key) }
        #expect(scene.state.filter.active != nil)
        let lines = scene.lines
        if area == .timeline {
            #expect(!lines.contains { $0.contains("op0 ") || $0.hasPrefix("  op1 ") })
            #expect(lines.contains { $0.contains("op60") })
        } else {
            // The four running operations are all on a: no span is drawn.
            #expect(!lines.contains { $0.contains("█") })
        }
    }
}

/// The filter outlives `r`, and a save of a watched file reads its terms again.
@Suite struct FilterCarriedTests {
    @Test func restartKeepsItAndAReloadReadsItAgainOrDropsIt() throws {
        var state = InterfaceState(board: OperationFilterTests.b)
        state.filter.active = try OperationFilter.parse("queue:disk", scenario: pipeline)
        #expect(state.restarted().filter.active?.text == "queue:disk")
        let carried = state.carried(from: pipeline, to: pipeline)
        #expect(carried.filter.active?.hiddenCount(on: OperationFilterTests.b) == 4)
        let noDisk = makeScenario(queues: [QueueSpec(name: "net")], ops: [op("fetch", on: "net")])
        #expect(state.carried(from: pipeline, to: noDisk).filter.active == nil)
    }
}

/// `a` / `A`: the history to the next or last action or caption.
@Suite struct HistoryMarkTests {
    @Test func theKeysJumpBetweenActions() {
        var script = Script(pipeline)
        script.add("fetch")
        script.emit(.action(.suspend(script.qid("net")), origin: .timed(0), ignored: nil))
        script.start("fetch")
        script.emit(.action(.resume(script.qid("net")), origin: .timed(1), ignored: nil))
        script.finish("fetch")
        var live = BoardState(scenario: pipeline)
        var history = BoardHistory(scenario: pipeline)
        for event in script.events {
            live.apply(event)
            history.append(event, boardAfter: live)
        }
        var state = InterfaceState(board: live)
        var f = frame(120, 40)
        f.history = history
        func press(_ key: Key) {
            f.historyShown = state.historyCursor
            _ = InterfaceController.handle(key, state: &state, board: live, frame: f)
        }
        let marks = history.events.indices.filter { InterfaceController.isMark(history.events[$0]) }
        #expect(marks.count == 2)
        press(.character("a"))
        #expect(state.visibleMessage(now: 0)?.text == "this is the live run: A goes back to the last action or caption")
        press(.character("A"))
        #expect(state.historyCursor == marks[1] + 1)
        press(.character("A"))
        #expect(state.historyCursor == marks[0] + 1)
        press(.character("A"))
        #expect(state.visibleMessage(now: 0)?.text == "no action or caption before this moment")
        press(.character("a"))
        #expect(state.historyCursor == marks[1] + 1)
    }

    /// A filtered column at 80 columns (16 cells): the total gives way
    /// first, then the title, and the scroll marks stay.
    @Test func aColumnHeaderGivesUpTheTotalBeforeItsScrollMarks() {
        let header = { (width: Int) in
            ColumnsView.header(.finished, count: 66, total: 262, above: 0, below: 60, width: width, glyphs: .unicode)
        }
        #expect(header(40) == "Finished 66/262 ↓60")
        #expect(header(16) == "Finished 66 ↓60")
        #expect(header(12) == "Fini 66 ↓60")
        #expect(header(6) == "Fini …")
        #expect(
            ColumnsView.header(.ready, count: 3, total: 3, above: 2, below: 1, width: 16, glyphs: .unicode)
                == "Ready 3 ↑2 ↓1")
    }
}
