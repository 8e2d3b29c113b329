import Board
import Grading
import RunEvents
import ScenarioKit
import TextKit

/// The scenario's notes and its expectations, in a pane: docked beside the
/// board on wide terminals, in place of the log below that (`n`). While
/// the run goes on each `expect` line is listed as not judged yet; once it
/// ended, or while it waits after a stall, each gets its verdict and its
/// explanation, and what is stuck is said with its reason.
enum NotesView {
    static func items(board: BoardState, frame: FrameInput, status: RunStatus, theme: Theme) -> [(String, Style)] {
        let scenario = board.scenario
        let glyphs = frame.glyphs
        if let predict = frame.predict {
            var items = PredictFrame.items(predict, board: board, theme: theme, glyphs: glyphs)
            if case .graded = predict.phase { items += expectationItems(board: board, frame: frame, theme: theme) }
            return items
        }
        var items: [(String, Style)] = []
        if let title = scenario.title { items.append((Wording.plain(title, glyphs: glyphs), theme.heading)) }
        // Before the notes, which may speak of dispatches: what this run can show of them.
        if !frame.dispatchesObserved { items.append((LifecycleEvent.unobservedDispatchesNote, theme.warning)) }
        for note in scenario.notes { items.append((Wording.plain(note, glyphs: glyphs), theme.plain)) }
        if scenario.notes.isEmpty { items.append(("this scenario has no notes", theme.dim)) }
        if status == .notStarted {
            items.append(("", theme.plain))
            items.append(("Space starts the run.", theme.heading))
        }
        items += expectationItems(board: board, frame: frame, theme: theme)
        if let heading = frame.mainThreadWaitLines.first {
            // The end's word on the main thread's long waits, as `trace` says it.
            items.append(("", theme.plain))
            items.append((Wording.plain(heading, glyphs: glyphs), theme.warning))
            for line in frame.mainThreadWaitLines.dropFirst() {
                items.append((Wording.plain(String(line.trimmingPrefix("  ")), glyphs: glyphs), theme.plain))
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

    /// The expectations, each with its verdict once the run is judged.
    private static func expectationItems(board: BoardState, frame: FrameInput, theme: Theme) -> [(String, Style)] {
        let scenario = board.scenario
        let glyphs = frame.glyphs
        var items: [(String, Style)] = []
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
        return items
    }

    /// The pane's text, wrapped to `width`: how many lines it takes.
    static func lineCount(board: BoardState, frame: FrameInput, status: RunStatus, width: Int) -> Int {
        var scratch = CellGrid(size: Size(columns: max(1, width), rows: 1))
        return PaneView.paragraphs(
            items(board: board, frame: frame, status: status, theme: Theme(colors: false)), indent: 2,
            into: &scratch, rect: Rect(x: 0, y: 0, width: max(1, width), height: 0))
    }

    /// The rows of text a pane of `height` rows shows when its text takes
    /// `lines`: all of them, or all but one, which then says what is cut.
    static func visibleRows(lines: Int, height: Int) -> Int { lines > height ? max(0, height - 1) : height }

    /// `scroll` clamped to what a pane of `height` rows can scroll.
    static func clampedScroll(_ scroll: Int, lines: Int, height: Int) -> Int {
        min(max(0, scroll), max(0, lines - visibleRows(lines: lines, height: height)))
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, status: RunStatus, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        let title = frame.predict == nil ? "Notes (n hides)" : "Question"
        let content = PaneView.frame(rect, title: title, glyphs: frame.glyphs, theme: theme, into: &grid)
        guard !content.isEmpty else { return }
        let items = items(board: board, frame: frame, status: status, theme: theme)
        let lines = lineCount(board: board, frame: frame, status: status, width: content.width)
        let rows = visibleRows(lines: lines, height: content.height)
        let skip = clampedScroll(state.notesScroll, lines: lines, height: content.height)
        let text = Rect(x: content.x, y: content.y, width: content.width, height: rows)
        PaneView.paragraphs(items, skip: skip, indent: 2, into: &grid, rect: text)
        guard rows < content.height else { return }
        // The last row says what is cut, and which keys scroll.
        let glyphs = frame.glyphs
        let below = lines - skip - rows
        var marks: [String] = []
        if below > 0 { marks.append("\(glyphs.down) \(below) more") }
        if skip > 0 { marks.append("\(glyphs.up) \(skip) above") }
        let line = marks.joined(separator: ", ") + "  ( ) scroll"
        grid.write(
            truncate(line, toWidth: content.width, ellipsis: glyphs.ellipsis),
            at: Position(column: content.x, row: content.maxY - 1), style: theme.dim, clippedTo: content)
    }
}
