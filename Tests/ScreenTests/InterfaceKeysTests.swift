import Board
import Testing
import TextKit

@testable import Screen

@Suite struct InterfaceKeysTests {
    @Test(arguments: [
        (Key.up, InterfaceCommand.selectUp), (.character("k"), .selectUp), (.down, .selectDown),
        (.character("j"), .selectDown), (.left, .selectLeft), (.character("h"), .selectLeft),
        (.right, .selectRight), (.character("l"), .selectRight), (.tab, .nextQueue), (.shiftTab, .previousQueue),
        (.enter, .toggleInspector), (.character("c"), .cancelOperation), (.character("p"), .raisePriority),
        (.character("P"), .lowerPriority), (.character("C"), .cancelAllOnQueue), (.character("s"), .toggleSuspend),
        (.character("+"), .raiseCap), (.character("="), .raiseCap), (.character("-"), .lowerCap),
        (.character("0"), .defaultCap), (.character(" "), .togglePause), (.character("<"), .slower),
        (.character(">"), .faster), (.character("r"), .restart), (.character("L"), .toggleLog),
        (.pageUp, .logOlder), (.pageDown, .logNewer), (.character("n"), .toggleNotes), (.character("w"), .toggleSwift),
        (.character("?"), .toggleHelp),
        (.function(1), .toggleHelp), (.escape, .closeOverlay), (.character("q"), .quit), (.ctrl("c"), .quit),
    ])
    func everyKeyFindsItsCommand(key: Key, command: InterfaceCommand) {
        #expect(InterfaceKeys.table.command(for: key) == command)
    }

    @Test func everyCommandHasAKeyAndNoKeyIsBoundTwice() {
        let bound = Set(InterfaceKeys.table.bindings.map(\.command))
        #expect(bound == Set(InterfaceCommand.allCases))
        #expect(InterfaceKeys.table.conflicts.isEmpty)
    }

    @Test func helpOverlayListsExactlyTheTableLines() {
        let b = board()
        var state = InterfaceState(board: b)
        state.overlay = .help
        let f = frame(100, 50)
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        let layout = InterfaceRenderer.layout(board: b, state: state, frame: f)!
        let inner = layout.overlay.inset(top: 1, left: 2, bottom: 1, right: 1)
        let shown = lines(of: grid, inner).map(trimmed)
        let help = OverlayView.helpLines(glyphs: .unicode)
        #expect(Array(help.prefix(InterfaceKeys.table.helpLines().count)) == InterfaceKeys.table.helpLines())
        #expect(Array(shown.prefix(help.count)) == Array(help.prefix(shown.count)))
        #expect(help.contains("  c          cancel the selected operation"))
        #expect(lines(of: grid, layout.overlay)[0].hasPrefix("┌ Keys ─"))
    }

    @Test func helpOverlayScrollsWhenItDoesNotFit() throws {
        let b = board()
        var state = InterfaceState(board: b)
        let f = frame()
        _ = InterfaceController.handle(.character("?"), state: &state, board: b, frame: f)
        #expect(state.overlay == .help)
        #expect(InterfaceController.handle(.down, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlayScroll == 1)
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        let layout = InterfaceRenderer.layout(board: b, state: state, frame: f)!
        let inner = layout.overlay.inset(top: 1, left: 2, bottom: 1, right: 1)
        #expect(trimmed(lines(of: grid, inner)[0]) == InterfaceKeys.table.helpLines()[1])
        #expect(
            trimmed(try #require(lines(of: grid, layout.overlay).last)).hasSuffix(
                " Esc close, ↑↓ PgUp PgDn Home End scroll ─┘"))
        #expect(InterfaceController.handle(.escape, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .none)
    }

    @Test func swiftOverlayShowsTheScenarioAsFoundationCode() {
        let b = board()
        var state = InterfaceState(board: b)
        let f = frame(100, 50)
        #expect(InterfaceController.handle(.character("w"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .swift)
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        let layout = InterfaceRenderer.layout(board: b, state: state, frame: f)!
        let text = lines(of: grid, layout.overlay).joined(separator: "\n")
        #expect(lines(of: grid, layout.overlay)[0].hasPrefix("┌ The Swift code of this scenario"))
        // The scenario's own code comes first, before the harness it uses.
        #expect(text.contains("// (Shown here first: the scenario's own code."))
        #expect(text.contains("func runScenario() -> Never {"))
        #expect(!text.contains("import Foundation"))
        let program = OverlayView.swiftLines(b.scenario)
        #expect(program.contains { $0.contains("OperationQueue()") })
        let scenarioPart = program.firstIndex(of: "// MARK: - The scenario")!
        let harness = program.firstIndex(of: "import Foundation")!
        #expect(scenarioPart < harness)
        // No line is wider than the box: long ones wrap.
        let inner = layout.overlay.inset(top: 1, left: 2, bottom: 1, right: 1)
        let wrapped = OverlayView.wrappedLines(board: b, state: state, frame: f, width: inner.width)
        #expect(wrapped.allSatisfy { displayWidth($0) <= inner.width })
        // End jumps to the end of the program, Home back, PgDn pages.
        #expect(InterfaceController.handle(.end, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlayScroll == wrapped.count - (inner.height))
        #expect(InterfaceController.handle(.home, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlayScroll == 0)
        #expect(InterfaceController.handle(.pageDown, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlayScroll == inner.height - 1)
        #expect(InterfaceController.handle(.character("w"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .none)
    }

    @Test func keyBarLabelsComeFromTheTableAndSayWhatSpaceDoesNow() {
        #expect(
            KeyBarView.text(width: 80, status: .running, glyphs: .unicode)
                == " ? help  q quit  Space pause  c cancel  s suspend  + cap+  - cap-  Tab queue")
        #expect(
            KeyBarView.text(width: 30, status: .paused(atCaption: false), glyphs: .unicode)
                == " ? help  q quit  Space resume")
        #expect(
            KeyBarView.text(width: 30, status: .notStarted, glyphs: .unicode)
                == " ? help  q quit  Space start")
        #expect(
            KeyBarView.text(width: 60, status: .ended, glyphs: .unicode)
                == " ? help  q quit  r run again  [ step back  W save  n notes")
        #expect(KeyBarView.text(width: 20, status: .running, glyphs: .ascii) == " ? help  q quit")
    }

    @Test func inTheGraphTheKeyBarOffersTheGraphsKeysAndTBackToTheViewTChose() {
        #expect(
            KeyBarView.text(width: 80, status: .running, area: .table, graph: true, glyphs: .unicode)
                == " ? help  q quit  t table  e fold  H critical path  D waits for?  Space pause")
        let board = KeyBarView.text(width: 200, status: .ended, area: .columns, graph: true, glyphs: .unicode)
        #expect(board.hasPrefix(" ? help  q quit  t board  e fold  H critical path  D waits for?  r run again"))
        // Not the keys of the view under it (the table's sort keys).
        #expect(!board.contains("o sort") && !board.contains("z zoom"))
    }

    @Test func inTheHistoryOfAnEndedRunTheKeyBarOffersNoLiveRunKey() {
        var frame = FrameInput(size: Size(columns: 200, rows: 24))
        frame.historyShown = 3
        // The run goes on: its keys act on the live run, history or not.
        #expect(KeyBarView.barStatus(.running, frame: frame) == .running)
        frame.liveEnded = true
        #expect(KeyBarView.barStatus(.running, frame: frame) == .ended)
        #expect(KeyBarView.barStatus(.paused(atCaption: false), frame: frame) == .ended)
        var grid = CellGrid(size: frame.size)
        KeyBarView.draw(
            frame: frame, status: .running, theme: Theme(colors: false), into: &grid,
            rect: Rect(x: 0, y: 0, width: 200, height: 1))
        let bar = lines(of: grid, Rect(x: 0, y: 0, width: 200, height: 1))[0]
        #expect(bar.contains("r run again"))
        #expect(!bar.contains("Space") && !bar.contains("c cancel") && !bar.contains("cap+"))
        // At the live moment the board itself has ended: the same bar.
        frame.historyShown = nil
        #expect(KeyBarView.barStatus(.running, frame: frame) == .running)
    }
}
