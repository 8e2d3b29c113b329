import Board
import RunEvents
import ScenarioKit
import TextKit

/// The help (`?`), Swift code (`w`), diff (`d`) and diagnostics (a watched
/// file saved with errors) overlays: a box over the middle of
/// the screen, its text scrolled by `InterfaceState.overlayScroll` (arrows,
/// PgUp / PgDn, Home / End), and how to close and scroll it on the bottom
/// edge. Long lines wrap, so nothing is cut off at the box's edge.
enum OverlayView {
    /// The help text: exactly `InterfaceKeys.table.helpLines` (so the help
    /// cannot disagree with the handler), then what the cards' short words
    /// and marks mean.
    static func helpLines(glyphs: GlyphSet) -> [String] {
        let g = glyphs
        let t = glyphs.timeline
        return InterfaceKeys.table.helpLines(ascii: g.isASCII) + [
            "",
            "On the cards",
            "  row 1  the name; \(g.cancelled) once cancel() set isCancelled and it has not finished",
            "  row 2  the kind (work, blocks, async, barrier), the queuePriority it is filed",
            "         under, its QoS when it has one, and its queue",
            "         priorities: vhigh veryHigh, high, normal, low, vlow veryLow",
            "         QoS: UI userInteractive, IN userInitiated, DF default, UT utility, BG background",
            "  row 3  progress while executing; \(g.check) finished at; \(g.cancelled) cancelled at, or skipped",
            "         (cancelled before it started); else why it is not running",
            "  row 4  (wide terminals) when it ran and on which thread",
            "",
            "On the timeline (t)",
            "  \(t.pending) pending  \(t.ready) ready  \(t.dispatched) dispatched, no worker thread yet  "
                + "\(t.executing) executing",
            "  \(g.check) finished  \(g.cancelled) finished cancelled",
            "  a queue's row: how many of its operations execute in each column, reversed where",
            "         that is its cap",
            "  \(t.mark) an action or a caption; \(t.cursorHead) and its line: the moment the other panes",
            "         show (the history cursor, or now)",
            "  threads: a row per thread, main first; \(t.executingAlternate) the next operation on the same",
            "         thread, \(t.block) the blocks of a BlockOperation, \(t.completion) a completion block,",
            "         \(t.start) an asynchronous operation's start() (it returns at once); below, \"in",
            "         flight, no thread\": each asynchronous operation from start() to isFinished, in rows",
            "         per queue",
            "",
            "In the title bar",
            "  \(g.check)N \(g.cross)M  expectations that held and failed; PAUSED, waiting (for you),",
            "         stuck, ended: where the run is",
        ]
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        guard rect.width > 4, rect.height > 2 else { return }
        grid.fill(rect, with: .blank)
        let title =
            switch state.overlay {
            case .help: "Keys"
            case .stall: "Why the run is stuck"
            case .diff: "This run against the run before it (d)"
            case .problems: "Errors in the saved file"
            case .swift, .none: "The Swift code of this scenario (opscope swift)"
            }
        grid.drawBox(rect, glyphs: frame.glyphs, style: theme.heading, title: title, titleStyle: theme.heading)
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 1)
        let lines = wrappedLines(board: board, state: state, frame: frame, width: inner.width)
        for (i, line) in lines.dropFirst(state.overlayScroll).prefix(inner.height).enumerated() {
            let style: Style
            if state.overlay == .help || state.overlay == .stall {
                style = line.hasPrefix(" ") || line.isEmpty ? theme.plain : theme.heading
            } else if state.overlay == .diff || state.overlay == .problems {
                style = i + state.overlayScroll == 0 ? theme.heading : theme.plain
            } else {
                style = line.trimmingPrefix(while: { $0 == " " }).hasPrefix("//") ? theme.dim : theme.plain
            }
            grid.write(line, at: Position(column: inner.x, row: inner.y + i), style: style, clippedTo: inner)
        }
        let arrows = frame.ascii ? "Up/Down" : "↑↓"
        let footer = lines.count > inner.height ? "Esc close, \(arrows) PgUp PgDn Home End scroll" : "Esc close"
        let width = displayWidth(footer) + 2
        if rect.width > width + 2 {
            grid.write(
                " \(footer) ", at: Position(column: rect.maxX - width - 2, row: rect.maxY - 1), style: theme.heading,
                clippedTo: rect)
        }
    }

    /// The open overlay's lines wrapped to `width` cells; a wrapped line
    /// keeps its indentation and its continuation is indented further.
    static func wrappedLines(board: BoardState, state: InterfaceState, frame: FrameInput, width: Int) -> [String] {
        let lines: [String]
        switch state.overlay {
        case .none: return []
        case .help: lines = helpLines(glyphs: frame.glyphs)
        case .stall: lines = stallLines(board: board, glyphs: frame.glyphs)
        case .swift:
            // Before the answer the code comes bare: the program's comments
            // (and the scenario's notes at its top) state the rules asked about.
            lines =
                frame.predict?.hidesAnswers == true
                ? SwiftProgramPrinter.withoutComments(swiftLines(board.scenario.asQuestion))
                : swiftLines(board.scenario)
        case .diff, .problems:
            lines = frame.overlayText ?? []
        }
        return lines.flatMap { line -> [String] in
            guard displayWidth(line) > width else { return [line] }
            let indent = line.prefix { $0 == " " }.count
            let pad = String(repeating: " ", count: min(indent, max(0, width / 2)))
            return wrap(String(line.dropFirst(indent)), width: max(1, width - pad.count), indent: 4).map { pad + $0 }
        }
    }

    /// Why the run is stuck (`y`): the stall by root cause, as `trace`
    /// reports it, then each stuck operation with its own reason (in the
    /// history, the stall of the moment shown).
    static func stallLines(board: BoardState, glyphs: GlyphSet) -> [String] {
        guard let stuck = board.stuckNow, let causes = board.stallCauses else {
            return ["Nothing is stuck at this moment of the run."]
        }
        let scenario = board.scenario
        let waiting = board.stall != nil
        let when = Spelling.seconds(board.lastEventTime)
        var lines = [
            waiting
                ? "Nothing can progress until you act (since \(when)). By root cause:"
                : "Nothing can progress any more (since \(when)). By root cause:"
        ]
        lines += StallCause.reportLines(causes, in: scenario, waiting: waiting, dash: glyphs.dash).map { "  " + $0 }
        if let wait = board.mainThreadWait {
            lines += MainThreadWait.neverReturns(wait.action, since: wait.since, stuck: stuck, in: scenario)
                .map { "  " + $0 }
        }
        lines += ["", "Each stuck operation (\(stuck.count))"]
        let formatter = EventFormatter(scenario: scenario)
        for op in stuck.keys.sorted() {
            lines.append("  \(scenario.opName(op)): \(formatter.stuckText(stuck[op]!, of: op, waiting: waiting))")
        }
        return lines
    }

    /// The program `opscope swift` prints for the scenario, line by line,
    /// with the scenario's own part (its queues, operations, dependencies
    /// and actions) moved up before the harness it uses (printing,
    /// simulated work, the operation classes, waiting for the end), which
    /// a reader needs least.
    static func swiftLines(_ scenario: Scenario) -> [String] {
        let program = SwiftProgramPrinter().program(for: scenario).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { String($0).replacingOccurrences(of: "\t", with: "    ") }
        guard let harness = program.firstIndex(of: "import Foundation"),
            let own = program.firstIndex(of: "// MARK: - The scenario"), harness < own
        else { return program }
        return Array(program[..<harness])
            + [
                "// (Shown here first: the scenario's own code. The harness it uses follows it;",
                "// `opscope swift` prints the program in the order it compiles.)", "",
            ]
            + Array(program[own...])
            + ["", "// MARK: - The harness", ""]
            + Array(program[harness..<own])
    }

    /// The width of an overlay's text on a terminal of `size`: what the
    /// session writes its lines for (the diagnostics' source lines are
    /// cut around their caret to it, not wrapped).
    static func textWidth(for size: Size) -> Int {
        max(1, ScreenLayout.overlayRect(size).width - 3)
    }

    /// How many lines the open overlay has at `rect`'s width (for clamping
    /// its scroll).
    static func lineCount(board: BoardState, state: InterfaceState, frame: FrameInput, rect: Rect) -> Int {
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 1)
        return wrappedLines(board: board, state: state, frame: frame, width: inner.width).count
    }
}
