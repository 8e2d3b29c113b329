import Board
import ScenarioKit
import Testing

@testable import Screen

/// A watched file saved again: what a person was looking at is carried to
/// the new run by name (`InterfaceState.carried(from:to:)`).
@Suite struct ReloadStateTests {
    static func scenario(_ text: String) -> Scenario { ScenarioReader.read(text).scenario! }

    static let old = scenario(
        """
        queue net max 2
        queue disk serial
        op fetch on net work 1s
        op parse on net work 1s after fetch
        op thumbs on net work 1s after fetch
        op save on disk work 1s after parse
        """)

    static func selecting(_ op: String, queue: String? = nil, in scenario: Scenario = old) -> InterfaceState {
        var state = InterfaceState()
        state.selectedOperation = scenario.operationID(named: op)
        state.selectedQueue = queue.flatMap(scenario.queueID(named:))
        return state
    }

    static func name(_ state: InterfaceState, in scenario: Scenario) -> String? {
        state.selectedOperation.map { scenario[operation: $0].name }
    }

    @Test func theSelectionFollowsItsNameWhereverTheEditMovedIt() {
        // A line added before it renumbers it.
        let new = Self.scenario(
            """
            queue net max 2
            queue disk serial
            op warmup on net work 1s
            op fetch on net work 1s
            op parse on net work 1s after fetch
            op thumbs on net work 1s after fetch
            op save on disk work 1s after parse
            """)
        let carried = Self.selecting("parse", queue: "disk").carried(from: Self.old, to: new)
        #expect(Self.name(carried, in: new) == "parse")
        #expect(carried.selectedOperation == new.operationID(named: "parse"))
        #expect(carried.selectedQueue == new.queueID(named: "disk"))
    }

    /// Gone: the next operation of the old file still there (the one that
    /// took its place), else the one before; none left: nothing, and the
    /// board's first card takes it (`reconcile`).
    @Test(arguments: [
        ("parse", "op fetch on net work 1s\nop thumbs on net work 1s\nop save on net work 1s", "thumbs"),
        ("parse", "op fetch on net work 1s\nop save on net work 1s", "save"),
        ("save", "op fetch on net work 1s\nop thumbs on net work 1s", "thumbs"),
        ("thumbs", "op other on net work 1s\nop fetch on net work 1s", "fetch"),
        ("fetch", "op other on net work 1s", nil),
    ])
    func aGoneSelectionGoesToItsNearestNeighbourStillThere(selected: String, file: String, expected: String?) {
        let new = Self.scenario("queue net\n" + file)
        let carried = Self.selecting(selected).carried(from: Self.old, to: new)
        #expect(Self.name(carried, in: new) == expected)
        var reconciled = carried
        reconciled.reconcile(with: BoardState(scenario: new))
        #expect(reconciled.selectedOperation != nil, "the board always has a card selected")
    }

    @Test func aGoneQueueGivesWayToTheSelectedOperationsQueue() {
        let new = Self.scenario(
            """
            queue net max 2
            queue store serial
            op fetch on net work 1s
            op save on store work 1s after fetch
            """)
        let carried = Self.selecting("save", queue: "disk").carried(from: Self.old, to: new)
        #expect(carried.selectedQueue == new.queueID(named: "store"))
    }

    @Test func theViewIsKeptAndTheRunShownGoesBackToLive() {
        var state = Self.selecting("thumbs", queue: "net")
        state.boardArea = .threads
        state.logVisible = false
        state.notes = .hidden
        state.inspectorExpanded = true
        state.logFilter = Self.old.operationID(named: "thumbs")
        state.timelineView.window = TimeWindow(start: 0.5, span: 1)
        state.timelineView.laneScroll = 3
        state.historyCursor = 12
        state.overlay = .diff
        state.columnScroll = [1, 2, 0, 0, 0]
        let new = Self.scenario("queue net max 2\nop thumbs on net work 1s\nop fetch on net work 1s")
        let carried = state.carried(from: Self.old, to: new)
        #expect(carried.boardArea == .threads && !carried.logVisible && carried.notes == .hidden)
        #expect(carried.inspectorExpanded)
        #expect(carried.logFilter == new.operationID(named: "thumbs"))
        #expect(carried.timelineView.window == TimeWindow(start: 0.5, span: 1))
        #expect(carried.timelineView.laneScroll == 0 && carried.columnScroll == [0, 0, 0, 0, 0])
        #expect(carried.historyCursor == nil, "a new run is shown live")
        #expect(carried.overlay == .diff, "the diff now compares the new run with the one before")
        // A filter on an operation gone is dropped; other overlays close.
        state.logFilter = Self.old.operationID(named: "save")
        state.overlay = .problems
        let again = state.carried(from: Self.old, to: new)
        #expect(again.logFilter == nil && again.overlay == .none)
    }
}
