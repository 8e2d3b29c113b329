import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// The table in the board area, drawn and driven through the controller.
@Suite struct TableViewTests {
    static let size = Size(columns: 80, rows: 24)

    func scene(_ script: Script = TableRun.script, cursor: Int? = nil) -> TimelineScene {
        TimelineScene(script, .table, size: Self.size, history: cursor)
    }

    func boardArea(_ scene: TimelineScene) -> [String] {
        let grid = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame).grid
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        return lines(of: grid, layout.boardArea).map(trimmed)
    }

    func name(_ scene: TimelineScene) -> String? {
        scene.state.selectedOperation.map { scene.board[operation: $0].name }
    }

    @Test func theTableFrameAt80x24() {
        var scene = scene()
        for _ in 0..<5 { scene.press(.character("o")) }
        #expect(scene.state.tableView.sort == OperationTable.Sort(column: .waited, descending: true))
        let area = boardArea(scene)
        #expect(
            Array(area.prefix(8)) == [
                "Table · by waited ▼",
                "name   queue kind    started  waited ▼ ran      thread state     why not running",
                "idle   net   work             3s+                      ready     queue at cap",
                "parse  net   work    2.000s   1s       1s+      #1     executing",
                "thumbs net   work    1.000s   1s       1s       #1     finished",
                "fetch  net   work    0.000s   0ms      1s       #1     finished",
                "save   disk  work    0.000s   0ms      500ms    #2     finished",
                "",
            ])
        let grid = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame).grid
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        // The selection (idle, the first card) is in reverse video.
        #expect(grid[0, layout.boardArea.y + 2].style.reverse)
        #expect(!grid[0, layout.boardArea.y + 3].style.reverse)
    }

    @Test func oGoesRoundTheColumnsShownThenFileOrderAndOReverses() {
        var scene = scene()
        var seen: [OperationTable.Column?] = []
        for _ in 0..<10 {
            scene.press(.character("o"))
            seen.append(scene.state.tableView.sort.column)
        }
        #expect(seen == [.name, .queue, .kind, .started, .waited, .ran, .thread, .state, .why, nil])
        scene.press(.left)
        #expect(scene.state.tableView.sort.column == .why)
        scene.press(.right)
        scene.press(.right)
        #expect(scene.state.tableView.sort == OperationTable.Sort(column: .name, descending: false))
        scene.press(.character("O"))
        #expect(scene.state.tableView.sort.descending)
        #expect(boardArea(scene)[0] == "Table · by name ▼")
    }

    @Test func arrowsMoveTheSharedSelectionRowByRowInTheTablesOrder() {
        var scene = scene()
        for _ in 0..<5 { scene.press(.character("o")) }  // waited, longest first
        #expect(name(scene) == "idle")
        #expect(scene.press(.up) == InterfaceOutcome.none)
        scene.press(.down)
        #expect(name(scene) == "parse")
        scene.press(.character("j"))
        #expect(name(scene) == "thumbs")
        scene.press(.character("k"))
        #expect(name(scene) == "parse")
        // The inspector follows.
        #expect(scene.wholeScreen.contains { $0.hasPrefix("─ Inspector: parse ") })
        scene.press(.pageDown)
        #expect(name(scene) == "save")
        // The board has it where its card is when t comes back round.
        scene.press(.character("t"))
        #expect(scene.state.boardArea == .columns)
        #expect(scene.state.selectedColumn == 3)
    }

    @Test func aPageMovesTheSelectionAndKeepsItInSight() {
        let names = (1...40).map { "op\($0)" }
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))], ops: names.map { op($0, on: "q") })
        var s = Script(scenario)
        s.cap("q", 1)
        for (i, n) in names.enumerated() {
            s.at(Double(i))
            s.add(n)
        }
        var scene = scene(s)
        scene.press(.pageDown)
        scene.press(.pageDown)
        let selected = name(scene)!
        #expect(selected != "op1")
        let area = boardArea(scene)
        #expect(area.contains { $0.hasPrefix(selected + " ") })
        #expect(area[0].hasSuffix("of 40"))
        scene.press(.end)
        scene.press(.pageUp)
        #expect(boardArea(scene).contains { $0.hasPrefix(name(scene)! + " ") })
    }

    @Test func theTableFollowsTheHistoryCursor() throws {
        var scene = scene(cursor: 9)
        for _ in 0..<5 { scene.press(.character("o")) }
        let board = try #require(scene.frame.history).board(after: 9)
        let shown = InterfaceRenderer.render(board: board, state: scene.state, frame: scene.frame).grid
        let layout = InterfaceRenderer.layout(board: board, state: scene.state, frame: scene.frame)!
        let area = lines(of: shown, layout.boardArea).map(trimmed)
        // By the 9th notification only fetch and save run; the others wait.
        #expect(area[2].hasPrefix("parse") == false)
        #expect(area.contains { $0.hasPrefix("thumbs") && $0.contains("0ms+") })
    }

    @Test func theSortKeysSayWhereTheTableIsWhenItIsNotShown() {
        var scene = TimelineScene(TableRun.script, .columns, size: Self.size)
        scene.press(.character("o"))
        #expect(scene.message == "o sorts the table: t shows it")
        #expect(scene.state.tableView.sort == .fileOrder)
    }

    @Test func aClickOnARowSelectsItsOperation() {
        var scene = scene()
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        scene.press(.mouse(column: 3, row: layout.boardArea.y + 4))
        #expect(name(scene) == "thumbs")
    }

    @Test func aClickOnAColumnTitleSortsByItAndASecondReverses() {
        var scene = scene()
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        func title(_ column: OperationTable.Column) -> Int {
            let placed = OperationTable.placed(
                width: layout.boardArea.width, scenario: scene.board.scenario, sort: scene.state.tableView.sort.column)
            return layout.boardArea.x + placed.first { $0.column == column }!.x + 1
        }
        scene.press(.mouse(column: title(.waited), row: layout.boardArea.y + 1))
        #expect(scene.state.tableView.sort == OperationTable.Sort(column: .waited, descending: true))
        #expect(name(scene) == "idle")  // the longest wait, selected at the top
        scene.press(.mouse(column: title(.waited), row: layout.boardArea.y + 1))
        #expect(scene.state.tableView.sort == OperationTable.Sort(column: .waited, descending: false))
        scene.press(.mouse(column: title(.name), row: layout.boardArea.y + 1))
        #expect(scene.state.tableView.sort == OperationTable.Sort(column: .name, descending: false))
        #expect(boardArea(scene)[0] == "Table · by name ▲")
        #expect(name(scene) == "fetch")
    }

    @Test func theWheelOverTheTableMovesTheSelection() {
        var scene = scene()
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        // In file order idle is the last row.
        scene.press(.wheel(column: 3, row: layout.boardArea.y + 3, down: false))
        #expect(name(scene) == "save")
        scene.press(.wheel(column: 3, row: layout.boardArea.y + 3, down: true))
        #expect(name(scene) == "idle")
    }
}
