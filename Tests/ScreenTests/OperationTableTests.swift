import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// A run for the table: net (cap 1) runs fetch, then thumbs, then parse
/// (after fetch); idle waits on net to the end; disk runs save at once.
/// At 3s parse still runs and idle still waits.
enum TableRun {
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "net", cap: .limit(1)), QueueSpec(name: "disk", cap: .limit(1))],
        ops: [
            op("fetch", on: "net"), op("parse", on: "net", after: ["fetch"]), op("thumbs", on: "net", qos: .utility),
            op("save", on: "disk", priority: .high), op("idle", on: "net"),
        ])

    static var script: Script {
        var s = Script(scenario)
        s.cap("net", 1)
        s.cap("disk", 1)
        s.add("fetch")
        s.add("parse", ready: false)
        s.add("thumbs")
        s.add("save")
        s.add("idle")
        s.start("fetch", thread: 1)
        s.start("save", thread: 2)
        s.at(0.5)
        s.finish("save")
        s.at(1)
        s.finish("fetch")
        s.ready("parse")
        s.start("thumbs", thread: 1)
        s.at(2)
        s.finish("thumbs")
        s.start("parse", thread: 1)
        s.at(3)
        s.cap("disk", 2, old: 1)
        return s
    }

    /// The table after the first `count` events (all: nil).
    static func table(_ sort: OperationTable.Sort = .fileOrder, first count: Int? = nil) -> OperationTable {
        let events = script.events
        let board = BoardState(scenario: scenario, replaying: Array(events.prefix(count ?? events.count)))
        return OperationTable(board: board, lanes: TimelineLanes(scenario: scenario, events: events), sort: sort)
    }

    static func names(_ table: OperationTable) -> [String] { table.rows.map { scenario[operation: $0].name } }
}

@Suite struct OperationTableTests {
    typealias Column = OperationTable.Column

    func cells(_ table: OperationTable, _ name: String) -> [Column: String] {
        let op = TableRun.scenario.operationID(named: name)!
        return Dictionary(uniqueKeysWithValues: Column.allCases.map { ($0, table.cell($0, of: op)) })
    }

    @Test func aRowHasEveryColumnOfWhatWasSeen() {
        let thumbs = cells(TableRun.table(), "thumbs")
        #expect(thumbs[.name] == "thumbs" && thumbs[.queue] == "net" && thumbs[.kind] == "work")
        #expect(thumbs[.qos] == "UT" && thumbs[.state] == "finished" && thumbs[.why] == "")
        #expect(thumbs[.added] == "0.000s" && thumbs[.ready] == "0.000s")
        #expect(thumbs[.started] == "1.000s" && thumbs[.finished] == "2.000s")
        #expect(thumbs[.waited] == "1s" && thumbs[.ran] == "1s" && thumbs[.thread] == "#1")
        let save = cells(TableRun.table(), "save")
        #expect(save[.priority] == "high" && save[.qos] == "" && save[.waited] == "0ms" && save[.ran] == "500ms")
    }

    @Test func whatStillLastsIsMeasuredToTheBoardsMomentAndMarked() {
        let table = TableRun.table()
        let idle = cells(table, "idle")
        #expect(idle[.waited] == "3s+" && idle[.ran] == "" && idle[.started] == "" && idle[.state] == "ready")
        #expect(idle[.why] == "queue at cap")
        let parse = cells(table, "parse")
        #expect(parse[.ready] == "1.000s" && parse[.waited] == "1s" && parse[.ran] == "1s+")
        #expect(parse[.state] == "executing" && parse[.finished] == "")
    }

    @Test func aPastMomentShowsOnlyWhatWasSeenByThen() {
        // Up to parse's ready at 1s: thumbs not started yet, parse ready.
        let events = TableRun.script.events
        let upTo =
            events.firstIndex { event in
                if case .operation(let op, .isReady, .bool(false), .bool(true)) = event.kind {
                    return TableRun.scenario[operation: op].name == "parse"
                }
                return false
            }! + 1
        let table = TableRun.table(first: upTo)
        let thumbs = cells(table, "thumbs")
        #expect(thumbs[.started] == "" && thumbs[.waited] == "1s+" && thumbs[.thread] == "")
        let fetch = cells(table, "fetch")
        #expect(fetch[.finished] == "1.000s" && fetch[.ran] == "1s")
        #expect(cells(table, "parse")[.waited] == "0ms+")
    }

    @Test func sortingByWaitedDescendingShowsTheLongestWaitFirst() {
        let table = TableRun.table(OperationTable.Sort(column: .waited, descending: true))
        // idle waits 3s so far; parse and thumbs tie at 1s (file order); fetch and save 0ms.
        #expect(TableRun.names(table) == ["idle", "parse", "thumbs", "fetch", "save"])
        #expect(Column.waited.startsDescending)
    }

    @Test func reversingKeepsTiesInFileOrder() {
        let table = TableRun.table(OperationTable.Sort(column: .waited, descending: false))
        #expect(TableRun.names(table) == ["fetch", "save", "parse", "thumbs", "idle"])
    }

    @Test(arguments: [false, true])
    func rowsWithoutAValueComeLastEitherWay(descending: Bool) {
        let table = TableRun.table(OperationTable.Sort(column: .finished, descending: descending))
        let finished = descending ? ["thumbs", "fetch", "save"] : ["save", "fetch", "thumbs"]
        #expect(TableRun.names(table) == finished + ["parse", "idle"])
    }

    @Test func textColumnsSortAlphabeticallyAndFileOrderIsTheDefault() {
        #expect(TableRun.names(TableRun.table()) == ["fetch", "parse", "thumbs", "save", "idle"])
        let byName = TableRun.table(OperationTable.Sort(column: .name))
        #expect(TableRun.names(byName) == ["fetch", "idle", "parse", "save", "thumbs"])
        let byQueue = TableRun.table(OperationTable.Sort(column: .queue, descending: true))
        #expect(TableRun.names(byQueue) == ["fetch", "parse", "thumbs", "idle", "save"])
    }

    @Test func namesWithNumbersSortAsAPersonCountsThem() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q10"), QueueSpec(name: "q2")],
            ops: [
                op("decode10", on: "q10"), op("decode2", on: "q2"), op("decode1", on: "q10"), op("decode", on: "q2"),
            ])
        let board = BoardState(scenario: scenario, replaying: [])
        func names(_ sort: OperationTable.Sort) -> [String] {
            OperationTable(board: board, lanes: nil, sort: sort).rows.map { scenario[operation: $0].name }
        }
        #expect(names(OperationTable.Sort(column: .name)) == ["decode", "decode1", "decode2", "decode10"])
        #expect(
            names(OperationTable.Sort(column: .name, descending: true)) == ["decode10", "decode2", "decode1", "decode"])
        // Queue names too: q2 before q10, ties in file order.
        #expect(names(OperationTable.Sort(column: .queue)) == ["decode2", "decode", "decode10", "decode1"])
    }

    @Test func aFilterKeepsOnlyTheOperationsItLetsThrough() {
        let events = TableRun.script.events
        let board = BoardState(scenario: TableRun.scenario, replaying: events)
        let visible: Set = [OperationID(4), OperationID(0)]
        let table = OperationTable(
            board: board, lanes: TimelineLanes(scenario: TableRun.scenario, events: events),
            sort: OperationTable.Sort(column: .waited, descending: true), visible: visible)
        #expect(TableRun.names(table) == ["idle", "fetch"])
    }

    @Test(arguments: [
        (
            200,
            [
                Column.name, .queue, .kind, .priority, .qos, .added, .ready, .started, .finished, .waited, .ran,
                .thread,
                .state, .why,
            ]
        ),
        (80, [.name, .queue, .kind, .started, .waited, .ran, .thread, .state, .why]),
        (60, [.name, .started, .waited, .ran, .state, .why]),
        (50, [.name, .started, .waited, .ran, .state]),
    ])
    func narrowWidthsDropColumnsInTheStatedOrder(width: Int, expected: [Column]) {
        let placed = OperationTable.placed(width: width, scenario: TableRun.scenario, sort: nil)
        #expect(placed.map(\.column) == expected)
        #expect(placed.last.map { $0.x + $0.width } ?? 0 <= width)
    }

    @Test func theSortColumnIsNeverDropped() {
        let placed = OperationTable.placed(width: 60, scenario: TableRun.scenario, sort: .added)
        #expect(placed.map(\.column) == [.name, .added, .started, .waited, .ran, .state])
    }

    @Test func eightyColumnsFitTheCoreWithLongNames() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "a-long-queue-name")],
            ops: [op("a-very-long-operation-name", on: "a-long-queue-name")])
        for width in [60, 80] {
            let shown = Set(OperationTable.placed(width: width, scenario: scenario, sort: nil).map(\.column))
            #expect(shown.isSuperset(of: [.name, .state, .started, .waited, .ran]))
        }
    }

    @Test func theHeaderMarksTheSortColumnAndItsDirection() {
        let table = TableRun.table(OperationTable.Sort(column: .waited, descending: true))
        #expect(table.title(.waited, width: 8, glyphs: .unicode) == "waited ▼")
        #expect(table.title(.waited, width: 8, glyphs: .ascii) == "waited v")
        let started = TableRun.table(OperationTable.Sort(column: .started))
        #expect(started.title(.started, width: 8, glyphs: .unicode) == "started▲")
        #expect(started.title(.name, width: 8, glyphs: .unicode) == "name")
    }

    @Test func theMemoKeepsTheOrderUntilTheSortChanges() {
        let memo = ScreenMemo()
        let board = BoardState(scenario: TableRun.scenario, replaying: TableRun.script.events)
        let lanes = TimelineLanes(scenario: TableRun.scenario, events: TableRun.script.events)
        let waited = OperationTable.Sort(column: .waited, descending: true)
        let first = memo.table(board: board, lanes: lanes, sort: waited, visible: nil)
        #expect(memo.table(board: board, lanes: lanes, sort: waited, visible: nil).rows == first.rows)
        var reversed = waited
        reversed.descending = false
        #expect(memo.table(board: board, lanes: lanes, sort: reversed, visible: nil).rows != first.rows)
    }
}
