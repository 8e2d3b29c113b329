import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// `/`: the names holding the query, any case, those starting with it first.
@Suite struct NameSearchTests {
    let search = NameSearch(names: ["fetch", "prefetch", "Thumb1", "thumb10", "mythumb", "Übersicht", "save"])

    @Test(arguments: [
        ("thumb", [2, 3, 4]), ("THUMB1", [2, 3]), ("fetch", [0, 1]), ("etch", [0, 1]), ("ü", [5]),
        ("zzz", []), ("", []), ("thumb100", []), ("e", [0, 1, 5, 6]), ("t", [2, 3, 0, 1, 4, 5]),
    ])
    func findsTheNamesHoldingTheQueryPrefixesFirst(query: String, expected: [Int]) {
        #expect(search.matches(query).map(\.index) == expected, "\(query)")
    }

    @Test func onlyTheOperationsShownAreSearched() {
        var shown = OperationMask(capacity: 7)
        shown.insert(OperationID(3))
        shown.insert(OperationID(4))
        #expect(search.matches("thumb", shown: shown).map(\.index) == [3, 4])
    }

    @Test func theMaskCountsWhatItHolds() {
        var mask = OperationMask(capacity: 130, all: true)
        #expect(mask.count == 130 && mask.contains(OperationID(129)) && !mask.contains(OperationID(130)))
        mask.remove(OperationID(64))
        mask.remove(OperationID(64))
        #expect(mask.count == 129 && !mask.contains(OperationID(64)) && !mask.contains(OperationID(-1)))
    }
}

/// The keys of the search: typing selects the first match at once, in
/// every view; Enter keeps it, Esc gives the selection back; Ctrl-N and
/// Ctrl-P go round the matches.
@Suite struct SearchKeyTests {
    static func typing(_ text: String) -> [Key] { [.character("/")] + text.map { Key.character($0) } }

    @Test(arguments: [BoardArea.columns, .timeline, .threads])
    func eachTypedCharacterSelectsTheFirstMatchInEveryView(area: BoardArea) {
        var scene = TimelineScene(TimelineRuns.many(), area, size: Size(columns: 80, rows: 24))
        for key in Self.typing("op9") { scene.press(key) }
        #expect(scene.state.search.entry == "op9")
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "op9"))
        scene.press(.character("7"))
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "op97"))
        // Scrolled into view: the name shows on the screen.
        #expect(scene.wholeScreen.contains { $0.contains("op97") })
        #expect(scene.wholeScreen.contains { $0.contains("/op97_") })
    }

    @Test func enterKeepsTheMatchAndEscGivesTheSelectionBack() {
        var scene = TimelineScene(TimelineRuns.many(), .columns, size: Size(columns: 80, rows: 24))
        let before = scene.state.selectedOperation
        for key in Self.typing("op42") { scene.press(key) }
        scene.press(.escape)
        #expect(scene.state.selectedOperation == before && scene.state.search.entry == nil)
        #expect(scene.state.search.query == nil)
        for key in Self.typing("op42") + [.enter] { scene.press(key) }
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "op42"))
        #expect(scene.state.search.query == "op42" && scene.state.search.entry == nil)
        #expect(scene.message == "op42: match 1 of 1 for 'op42'")
    }

    @Test func ctrlNAndCtrlPGoRoundTheMatches() {
        var scene = TimelineScene(TimelineRuns.many(), .columns, size: Size(columns: 80, rows: 24))
        for key in Self.typing("op5") + [.enter] { scene.press(key) }
        // op5 first (it starts with it), then op50…op59.
        #expect(scene.state.selectedOperation?.index == 5)
        scene.press(.ctrl("n"))
        #expect(scene.state.selectedOperation?.index == 50)
        #expect(scene.message == "op50: match 2 of 11 for 'op5' \u{00B7} Ctrl-N next, Ctrl-P previous")
        scene.press(.ctrl("p"))
        scene.press(.ctrl("p"))
        #expect(scene.state.selectedOperation?.index == 59)
    }

    @Test func noMatchSaysSoAndTheNextKeyWithoutASearchToo() {
        var scene = TimelineScene(TimelineRuns.many(), .columns, size: Size(columns: 80, rows: 24))
        scene.press(.ctrl("n"))
        #expect(scene.message == "no search yet: / searches the operations' names")
        for key in Self.typing("zz") { scene.press(key) }
        #expect(scene.wholeScreen.contains { $0.contains("/zz_  no match") })
        scene.press(.enter)
        #expect(scene.message == "no operation's name holds 'zz'")
    }

    @Test func keysWhileTypingNeverActOnTheRun() {
        var scene = TimelineScene(TimelineRuns.many(), .columns, size: Size(columns: 80, rows: 24))
        scene.press(.character("/"))
        for key in "cCsq+-0 ".map({ Key.character($0) }) {
            #expect(scene.press(key) == .redraw)
        }
        #expect(scene.state.search.entry == "cCsq+-0 ")
        for key: Key in [.unknown(999), .ctrl("@"), .function(5), .backspace, .delete, .ctrl("u")] {
            _ = scene.press(key)
        }
    }
}
