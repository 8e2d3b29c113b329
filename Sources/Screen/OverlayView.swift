import Board
import ScenarioKit

/// The help (`?`), notes (`n`) and Swift code (`w`) overlays: a box over the middle of the
/// screen, its text scrolled by `InterfaceState.overlayScroll`, and how to
/// close and scroll it on the bottom edge.
enum OverlayView {
    /// The help text: exactly `InterfaceKeys.table.helpLines`, so the help
    /// cannot disagree with the handler.
    static func helpLines(ascii: Bool) -> [String] { InterfaceKeys.table.helpLines(ascii: ascii) }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        guard rect.width > 4, rect.height > 2 else { return }
        grid.fill(rect, with: .blank)
        let title =
            switch state.overlay {
            case .help: "Keys"
            case .swift: "The Swift code of this scenario (opscope swift)"
            default: "Notes and expectations"
            }
        grid.drawBox(rect, glyphs: frame.glyphs, style: theme.heading, title: title, titleStyle: theme.heading)
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 1)
        let total: Int
        if state.overlay == .swift {
            let lines = swiftLines(board.scenario)
            for (i, line) in lines.dropFirst(state.overlayScroll).prefix(inner.height).enumerated() {
                let comment = line.trimmingPrefix(while: { $0 == " " }).hasPrefix("//")
                grid.write(
                    line, at: Position(column: inner.x, row: inner.y + i), style: comment ? theme.dim : theme.plain,
                    clippedTo: inner)
            }
            total = lines.count
        } else if state.overlay == .help {
            let lines = helpLines(ascii: frame.ascii)
            for (i, line) in lines.dropFirst(state.overlayScroll).prefix(inner.height).enumerated() {
                let heading = !line.hasPrefix(" ")
                grid.write(
                    line, at: Position(column: inner.x, row: inner.y + i), style: heading ? theme.heading : theme.plain,
                    clippedTo: inner)
            }
            total = lines.count
        } else {
            total = PaneView.paragraphs(
                NotesView.items(board: board, frame: frame, theme: theme), skip: state.overlayScroll, indent: 2,
                into: &grid, rect: inner)
        }
        let arrows = frame.ascii ? "Up/Down" : "↑↓"
        let footer = total > inner.height ? "Esc close, \(arrows) scroll" : "Esc close"
        let width = displayWidth(footer) + 2
        if rect.width > width + 2 {
            grid.write(
                " \(footer) ", at: Position(column: rect.maxX - width - 2, row: rect.maxY - 1), style: theme.heading,
                clippedTo: rect)
        }
    }

    /// The program `opscope swift` prints for the scenario, line by line.
    static func swiftLines(_ scenario: Scenario) -> [String] {
        SwiftProgramPrinter().program(for: scenario).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\t", with: "    ") }
    }

    /// How many lines the open overlay's text has at `rect`'s width (for
    /// clamping its scroll).
    static func lineCount(board: BoardState, state: InterfaceState, frame: FrameInput, rect: Rect) -> Int {
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 1)
        switch state.overlay {
        case .none: return 0
        case .help: return helpLines(ascii: frame.ascii).count
        case .swift: return swiftLines(board.scenario).count
        case .notes:
            var scratch = CellGrid(columns: 0, rows: 0)
            return PaneView.paragraphs(
                NotesView.items(board: board, frame: frame, theme: Theme(colors: false)), indent: 2, into: &scratch,
                rect: Rect(x: 0, y: 0, width: inner.width, height: 0))
        }
    }
}
