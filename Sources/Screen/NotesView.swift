import Board
import LifecycleEngine
import ScenarioKit

/// The scenario's notes and its expectations: a pane on wide terminals and
/// the `n` overlay everywhere. While the run goes on each `expect` line is
/// listed as not judged yet; once it ended each gets ✓ or ✗ and its
/// explanation, and a stalled run says what is stuck and why.
enum NotesView {
    static func items(board: BoardState, frame: FrameInput, theme: Theme) -> [(String, Style)] {
        let scenario = board.scenario
        var items: [(String, Style)] = []
        if let title = scenario.title { items.append((title, theme.heading)) }
        for note in scenario.notes { items.append((note, theme.plain)) }
        if scenario.notes.isEmpty { items.append(("this scenario has no notes", theme.dim)) }
        if !scenario.expectations.isEmpty {
            items.append(("", theme.plain))
            items.append(("Expectations", theme.heading))
            if let results = frame.expectationResults {
                for r in results {
                    let mark = r.held ? frame.glyphs.check : frame.glyphs.cross
                    items.append(("\(mark) \(r.expectation.text): \(r.explanation)", r.held ? theme.held : theme.failed))
                }
            } else {
                for e in scenario.expectations {
                    items.append(("\(frame.glyphs.bullet) \(e.text) (judged when the run ends)", theme.dim))
                }
            }
        }
        if case .stalled(let stuck)? = board.outcome {
            let formatter = EventFormatter(scenario: scenario)
            items.append(("", theme.plain))
            items.append(("The run stalled", theme.failed))
            for op in stuck.keys.sorted() {
                items.append(("\(scenario[operation: op].name) \(formatter.stuckText(stuck[op]!))", theme.plain))
            }
        }
        return items
    }

    /// The pane form (wide terminals).
    static func draw(board: BoardState, frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect) {
        let content = PaneView.frame(rect, title: "Notes (n)", glyphs: frame.glyphs, theme: theme, into: &grid)
        PaneView.paragraphs(items(board: board, frame: frame, theme: theme), indent: 2, into: &grid, rect: content)
    }
}
