import Board
import TextKit

/// The bottom row: the keys that matter now, `? help  q quit  Space pause …`,
/// labels taken from `InterfaceKeys.table` (so they cannot go stale), the
/// words from where the run is (Space says start, pause or resume; an
/// ended run offers r first), entries dropped from the end when the width
/// runs out. Over the timeline or the threads the bar leads with `t` and
/// the view it goes to, and the keys of the time window; over the table,
/// with `t` and the sort keys; in the graph (`G`, whatever `t` chose),
/// with `t` back to that view and the graph's own keys. In history after
/// the run ended, the bar is the ended run's: no pause, cancel or cap key
/// is offered for a run that can no longer change.
enum KeyBarView {
    static func entries(
        status: RunStatus, area: BoardArea = .columns, graph: Bool = false, band: Bool = false, replay: Bool = false,
        diff: Bool = false
    ) -> [(InterfaceCommand, String)] {
        let board = boardEntries(status: status, replay: replay, diff: diff)
        if graph {
            let back =
                area == .columns ? "board" : area == .timeline ? "timeline" : area == .threads ? "threads" : "table"
            // With `H`'s band shown, its keys lead: it scrolls, H hides it.
            let keys: [(InterfaceCommand, String)] =
                band
                ? [
                    (.markCriticalPath, "hide path"), (.logNewer, "links"), (.logOlder, "back"),
                    (.scrollEnd, "last link"), (.cycleBoardArea, back), (.foldGraph, "fold"),
                    (.askWaitsFor, "waits for?"),
                ]
                : [
                    (.cycleBoardArea, back), (.foldGraph, "fold"), (.markCriticalPath, "critical path"),
                    (.askWaitsFor, "waits for?"),
                ]
            return Array(board.prefix(2)) + keys + board.dropFirst(2)
        }
        switch area {
        case .columns:
            return board + [(.cycleBoardArea, "timeline")]
        case .timeline, .threads:
            let time: [(InterfaceCommand, String)] = [
                (.cycleBoardArea, area == .timeline ? "threads" : "table"), (.zoomIn, "zoom in"),
                (.zoomOut, "zoom out"), (.scrollEarlier, "earlier"), (.scrollLater, "later"), (.fitTimeline, "fit"),
            ]
            return Array(board.prefix(2)) + time + board.dropFirst(2)
        case .table:
            let table: [(InterfaceCommand, String)] = [
                (.cycleBoardArea, "board"), (.sortTable, "sort"), (.reverseTable, "reverse"),
            ]
            return Array(board.prefix(2)) + table + board.dropFirst(2)
        }
    }

    /// The status whose keys the bar offers: the board's, except in the
    /// history of a run that has ended, where the board shown is an
    /// earlier moment's but the keys act on the ended run (Space would
    /// pause nothing, `c` would cancel nothing).
    static func barStatus(_ status: RunStatus, frame: FrameInput) -> RunStatus {
        guard frame.historyShown != nil, frame.liveEnded, !frame.isReplay, status.isLive else { return status }
        return .ended
    }

    /// `diff`: a run before this one is kept, and an ended run offers `d`.
    private static func boardEntries(status: RunStatus, replay: Bool, diff: Bool) -> [(InterfaceCommand, String)] {
        switch status {
        case .ended, .stuck:
            let why: [(InterfaceCommand, String)]
            if case .stuck = status { why = [(.explainStall, "why")] } else { why = [] }
            return [(.toggleHelp, "help"), (.quit, "quit")] + why + [
                (.restart, replay ? "play again" : "run again")
            ] + (diff ? [(.compareRuns, "diff")] : []) + [
                (.historyBack, "step back"), (.saveRecording, "save"), (.toggleNotes, "notes"),
                (.toggleLog, "log"), (.filterLog, "log of card"), (.toggleSwift, "Swift"),
            ]
        case .notStarted, .paused, .running, .waiting:
            let space: String
            switch status {
            case .notStarted: space = replay ? "play" : "start"
            case .paused: space = replay ? "play" : "resume"
            default: space = "pause"
            }
            if replay {
                return [
                    (.toggleHelp, "help"), (.quit, "quit"), (.togglePause, space), (.historyBack, "back"),
                    (.historyForward, "step"), (.goToTime, "go to"), (.toggleNotes, "notes"),
                    (.toggleLesson, "lesson"), (.restart, "from the start"), (.toggleLog, "log"),
                    (.faster, "faster"), (.slower, "slower"),
                ]
            }
            let why: [(InterfaceCommand, String)]
            if case .waiting = status { why = [(.explainStall, "why")] } else { why = [] }
            return [(.toggleHelp, "help"), (.quit, "quit")] + why + [
                (.togglePause, space), (.cancelOperation, "cancel"),
                (.toggleSuspend, "suspend"), (.raiseCap, "cap+"), (.lowerCap, "cap-"), (.nextQueue, "queue"),
                (.toggleNotes, "notes"), (.toggleLesson, "lesson"), (.restart, "restart"), (.toggleLog, "log"),
                (.faster, "faster"), (.slower, "slower"),
            ]
        }
    }

    /// The bar: `lead` entries first (a question's own keys), then the
    /// table's for where the run is, less `without`, up to `width`.
    static func text(
        width: Int, status: RunStatus, area: BoardArea = .columns, graph: Bool = false, band: Bool = false,
        glyphs: GlyphSet, replay: Bool = false, diff: Bool = false, lead: [String] = [],
        without: Set<InterfaceCommand> = []
    ) -> String {
        let table = entries(status: status, area: area, graph: graph, band: band, replay: replay, diff: diff)
            .filter { !without.contains($0.0) }
        var line = ""
        for entry in lead + table.map({ "\(InterfaceKeys.firstKeyLabel($0.0, glyphs: glyphs)) \($0.1)" }) {
            let next = line.isEmpty ? " " + entry : line + "  " + entry
            if displayWidth(next) > width { break }
            line = next
        }
        return line
    }

    /// A question's keys: while it is answered, only its own (every other
    /// key is typed into the answer); once graded, its own before the
    /// usual ones, `r` being its "try again", not the usual "run again".
    static func predictEntries(_ predict: PredictFrame) -> (lead: [String], usual: Bool) {
        switch predict.phase {
        case .answering:
            return (["Enter submit", "Tab add selected card", "arrows cards", "Ctrl-E Swift", "Esc leave"], false)
        case .running:
            return ([], true)
        case .graded(let grade):
            let jump = grade.rows.contains { !$0.right && $0.moment != nil }
            return ((jump ? ["Enter deciding moment"] : []) + ["r try again"], true)
        }
    }

    static func draw(
        frame: FrameInput, status: RunStatus, area: BoardArea = .columns, graph: Bool = false, band: Bool = false,
        theme: Theme, into grid: inout CellGrid, rect: Rect
    ) {
        grid.fill(rect, with: .blank(theme.dim))
        // A question's own keys lead; while it is answered they are the only ones.
        let (lead, usual) = frame.predict.map(predictEntries) ?? ([], true)
        let line = text(
            width: rect.width, status: barStatus(status, frame: frame), area: area, graph: graph, band: band,
            glyphs: frame.glyphs, replay: frame.isReplay,
            diff: frame.hasPreviousRun, lead: lead,
            without: frame.predict == nil ? [] : usual ? [.restart] : Set(InterfaceCommand.allCases))
        grid.write(line, at: Position(column: rect.x, row: rect.y), style: theme.dim, clippedTo: rect)
    }
}

/// The row above the key bar: the message or notice of the last key while
/// it lasts; else that a main-queue operation holds the main thread (the
/// last frame before it blocks) or how long one held it; else a hint on
/// where the run is.
enum StatusLineView {
    static func text(
        board: BoardState, state: InterfaceState, frame: FrameInput, status: RunStatus, theme: Theme
    ) -> (String, Style)? {
        let glyphs = frame.glyphs
        if let predict = frame.predict, predict.hidesAnswers {
            // The answer as it is typed, where it shows at every size.
            if let error = predict.errors.first { return (error, theme.refusal) }
            return ("your answer: \(predict.draft)_   (Enter submits; the Question pane says how)", theme.info)
        }
        if let typed = state.timeEntry {
            let span = frame.history.map { " (the run so far: 0s to \(Spelling.seconds($0.time(after: $0.count))))" }
            return ("go to time: \(typed)_  Enter goes there, Esc gives up" + (span ?? ""), theme.info)
        }
        if let prompt = PromptLine.text(board: board, state: state, frame: frame, theme: theme) { return prompt }
        if let notice = state.visibleNotice(now: frame.wallClock) {
            let (text, refused) = notice.text(board: board, glyphs: glyphs)
            // In history the board is another moment's; the key acted now.
            let prefix = frame.historyShown == nil ? "" : "on the live run: "
            return (prefix + text, refused ? theme.refusal : theme.info)
        }
        if let message = state.visibleMessage(now: frame.wallClock) {
            return (message.text, message.kind == .refusal ? theme.refusal : theme.info)
        }
        if let wait = board.mainThreadWait {
            let since = "since \(Spelling.seconds(wait.since))"
            let held = frame.historyShown == nil ? ": keys typed meanwhile are dropped; q or Ctrl-C leaves" : ""
            let never = status.isLive ? "" : " (it never returns)"
            return (
                "the main thread is blocked in \(wait.call(in: board.scenario)) \(since)\(never)\(held)", theme.warning
            )
        }
        if let busy = frame.mainThreadBusy {
            return (
                "main thread blocked by \(board[operation: busy].name): keys wait until it returns; "
                    + "Ctrl-C quits now", theme.warning
            )
        }
        if let blocked = frame.mainThreadBlocked {
            return (
                "\(board[operation: blocked.operation].name) blocked the main thread for "
                    + "\(Wording.realSeconds(blocked.seconds)) of real time: the interface could not redraw meanwhile",
                theme.warning
            )
        }
        // The key that really shows the expectations: none when they show.
        let notesShown = ScreenLayout.notesShown(state: state, frame: frame)
        let expectations = notesShown ? "the expectations are in the notes" : "n shows the expectations"
        switch status {
        case .notStarted:
            if frame.isReplay { return ("a recording: Space plays it, ] steps through it", theme.dim) }
            return ("read the notes, then Space starts the run", theme.dim)
        case .paused(let atCaption):
            if frame.isReplay {
                return (
                    atCaption
                        ? "at a caption: Space plays on"
                        : "a recording, whole: Space plays from here; [ ] step, g goes to a time, End to its end",
                    theme.dim
                )
            }
            return (atCaption ? "paused at a caption: Space continues" : "paused: Space resumes", theme.dim)
        case .waiting(let text, _):
            return (text, theme.dim)
        case .stuck(_, let expected):
            let why = notesShown ? "the notes say why" : "n shows why"
            return (
                expected
                    ? "the run is stuck as the scenario expects: \(expectations), r runs it again"
                    : "the run is stuck: \(why), r runs it again", theme.dim
            )
        case .ended:
            if frame.isReplay { return ("the recording's end: \(expectations), r plays it again", theme.dim) }
            return ("the run ended: \(expectations), r runs it again", theme.dim)
        case .running:
            return nil
        }
    }

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, status: RunStatus, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        guard let (text, style) = text(board: board, state: state, frame: frame, status: status, theme: theme)
        else { return }
        let room = rect.inset(left: 1)
        grid.write(
            truncate(Wording.plain(text, glyphs: frame.glyphs), toWidth: room.width, ellipsis: frame.glyphs.ellipsis),
            at: Position(column: rect.x + 1, row: rect.y), style: style, clippedTo: room)
    }
}

/// What the screen shows below `ScreenLayout.minimum`: how large it must
/// be, centred, wrapped to whatever width there is.
enum TooSmallView {
    static func draw(size: Size, glyphs: GlyphSet, into grid: inout CellGrid) {
        let times = glyphs.times
        let min = ScreenLayout.minimum
        let text = [
            "opscope needs at least \(min.columns)\(times)\(min.rows) cells;",
            "this terminal is \(size.columns)\(times)\(size.rows).",
            "Enlarge it, or press q to quit.",
        ]
        let lines = text.flatMap { wrap($0, width: size.columns) }
        let top = max(0, (size.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let left = max(0, (size.columns - displayWidth(line)) / 2)
            grid.write(line, at: Position(column: left, row: top + i), style: i == 0 ? Style.plain.bolded : .plain)
        }
    }
}
