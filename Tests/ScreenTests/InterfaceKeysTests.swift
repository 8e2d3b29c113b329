import Board
import Testing

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
        let layout = ScreenLayout(size: f.size, board: b, state: state)!
        let inner = layout.overlay.inset(top: 1, left: 2, bottom: 1, right: 1)
        let shown = lines(of: grid, inner).map(trimmed)
        let help = InterfaceKeys.table.helpLines()
        #expect(Array(shown.prefix(help.count)) == help)
        #expect(shown.dropFirst(help.count).allSatisfy { $0.isEmpty })
        #expect(help.contains("  c          cancel the selected operation"))
        #expect(lines(of: grid, layout.overlay)[0].hasPrefix("┌ Keys ─"))
    }

    @Test func helpOverlayScrollsWhenItDoesNotFit() {
        let b = board()
        var state = InterfaceState(board: b)
        let f = frame()
        _ = InterfaceController.handle(.character("?"), state: &state, board: b, frame: f)
        #expect(state.overlay == .help)
        #expect(InterfaceController.handle(.down, state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlayScroll == 1)
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        let layout = ScreenLayout(size: f.size, board: b, state: state)!
        let inner = layout.overlay.inset(top: 1, left: 2, bottom: 1, right: 1)
        #expect(trimmed(lines(of: grid, inner)[0]) == InterfaceKeys.table.helpLines()[1])
        #expect(trimmed(lines(of: grid, layout.overlay).last!).hasSuffix(" Esc close, ↑↓ scroll ─┘"))
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
        let layout = ScreenLayout(size: f.size, board: b, state: state)!
        let text = lines(of: grid, layout.overlay).joined(separator: "\n")
        #expect(lines(of: grid, layout.overlay)[0].hasPrefix("┌ The Swift code of this scenario"))
        #expect(text.contains("import Foundation"))
        let program = OverlayView.swiftLines(b.scenario)
        #expect(program.contains { $0.contains("OperationQueue()") })
        // Scrolling reaches the end of the program.
        for _ in 0..<program.count {
            _ = InterfaceController.handle(.down, state: &state, board: b, frame: f)
        }
        #expect(state.overlayScroll > 0)
        #expect(InterfaceController.handle(.character("w"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .none)
    }

    @Test func keyBarLabelsComeFromTheTable() {
        #expect(KeyBarView.text(width: 80, ascii: false)
            == " ? help  q quit  Space pause  c cancel  s suspend  + cap+  - cap-  Tab queue")
        #expect(KeyBarView.text(width: 20, ascii: true) == " ? help  q quit")
    }
}
