import Board
import Grading
import RunEvents
import ScenarioKit

/// The scenario's notes and its expectations, in a pane: docked beside the
/// board on wide terminals, in place of the log below that (`n`). While
/// the run goes on each `expect` line is listed as not judged yet; once it
/// ended, or while it waits after a stall, each gets its verdict and its
/// explanation, and what is stuck is said with its reason.
enum NotesView {
    static func items(board: BoardState, frame: FrameInput, status: RunStatus, theme: Theme) -> [(String, Style)] {
        let scenario = board.scenario
        let glyphs = frame.glyphs
        var items: [(String, Style)] = []
        if let title = scenario.title { items.append((Wording.plain(title, glyphs: glyphs), theme.heading)) }
        for note in scenario.notes { items.append((Wording.plain(note, glyphs: glyphs), theme.plain)) }
        if scenario.notes.isEmpty { items.append(("this scenario has no notes", theme.dim)) }
        if status == .notStarted {
            items.append(("", theme.plain))
            items.append(("Space starts the run.", theme.heading))
        }
        if !scenario.expectations.isEmpty {
            items.append(("", theme.plain))
            items.append(("Expectations", theme.heading))
            if let results = frame.expectationResults {
                for r in results {
                    let mark = r.held ? glyphs.check : glyphs.cross
                    items.append(
                        (
                            "\(mark) \(r.expectation.text): \(Wording.plain(r.explanation, glyphs: glyphs))",
                            r.held ? theme.held : theme.failed
                        ))
                }
            } else {
                for e in scenario.expectations {
                    items.append(("\(glyphs.bullet) \(e.text) (judged when the run ends)", theme.dim))
                }
            }
        }
        let stuck = board.stall ?? board.outcome?.stuck ?? [:]
        if !stuck.isEmpty {
            let formatter = EventFormatter(scenario: scenario)
            items.append(("", theme.plain))
            switch status {
            case .waiting:
                items.append(("Waiting for you: nothing can progress until you act", theme.warning))
            case .stuck(_, let expected):
                items.append(
                    (
                        expected ? "Stuck, as the scenario expects" : "The run is stuck",
                        expected ? theme.held : theme.failed
                    ))
            default:
                items.append(("The run stalled", theme.failed))
            }
            for group in formatter.stuckGroups(stuck, waiting: board.stall != nil) {
                items.append(("\(group.names): \(Wording.plain(group.reason, glyphs: glyphs))", theme.plain))
            }
        }
        return items
    }

    static func draw(
        board: BoardState, frame: FrameInput, status: RunStatus, theme: Theme, into grid: inout CellGrid, rect: Rect
    ) {
        let content = PaneView.frame(rect, title: "Notes (n hides)", glyphs: frame.glyphs, theme: theme, into: &grid)
        PaneView.paragraphs(
            items(board: board, frame: frame, status: status, theme: theme), indent: 2, into: &grid, rect: content)
    }
}
