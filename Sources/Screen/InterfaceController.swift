import Board
import RunEvents
import ScenarioKit

/// Turns one key into a change of the interface state and an outcome the
/// loop acts on. Pure: it reads the board and the frame, writes only
/// `state`, and validates every command against the board before asking
/// the run for anything; a command that cannot apply leaves a message
/// saying why (never silence, never a crash).
public enum InterfaceController {
    /// The speeds `<` and `>` move between, scenario seconds per real second.
    public static var speedRange: ClosedRange<Double> { Scenario.speedRange }

    /// `board` is the board on the screen (the history cursor's, in
    /// history); `live`, when given, the live run's, which the keys that
    /// act on the engine check against.
    public static func handle(
        _ key: Key, state: inout InterfaceState, board: BoardState, live: BoardState? = nil, frame: FrameInput
    ) -> InterfaceOutcome {
        let runBoard = live ?? board
        state.reconcile(with: board)
        // A new key: what the status line said was about the key before.
        if case .resize = key {} else if case .wheel = key {} else { state.clearMessages() }
        switch key {
        case .resize:
            state.settleScroll(board: board, frame: frame)
            return .redraw
        case .mouse(let column, let row):
            return click(column: column, row: row, state: &state, board: board, frame: frame)
        case .wheel(let column, let row, let down):
            return wheel(column: column, row: row, down: down, state: &state, board: board, frame: frame)
        default:
            break
        }
        let context = ModeContext(board: board, runBoard: runBoard, frame: frame)
        for mode in keyModes where mode.isOn(state, frame) {
            if let outcome = mode.take(key, &state, context) { return outcome }
        }
        guard let command = InterfaceKeys.table.command(for: key) else {
            return refuse("unknown key \(key.label(ascii: frame.ascii)): press ? for help", &state, frame)
        }
        for mode in commandModes where mode.isOn(state, frame) {
            if let outcome = mode.take(command, &state, context) { return outcome }
        }
        return boardCommand(command, state: &state, board: board, runBoard: runBoard, frame: frame)
    }

    /// The board's own commands: what a key does when no mode took it.
    static func boardCommand(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, runBoard: BoardState,
        frame: FrameInput
    ) -> InterfaceOutcome {
        switch command {
        case .selectUp: return moveVertically(-1, state: &state, board: board, frame: frame)
        case .selectDown: return moveVertically(1, state: &state, board: board, frame: frame)
        case .selectLeft: return moveHorizontally(-1, state: &state, board: board, frame: frame)
        case .selectRight: return moveHorizontally(1, state: &state, board: board, frame: frame)
        case .nextQueue: return cycleQueue(1, state: &state, board: board, frame: frame)
        case .previousQueue: return cycleQueue(-1, state: &state, board: board, frame: frame)
        case .toggleInspector:
            guard state.selectedOperation != nil else { return refuse(ScreenWords.noOperationSelected, &state, frame) }
            state.inspectorExpanded.toggle()
            state.settleScroll(board: board, frame: frame)
            return .redraw
        case .cancelOperation: return cancel(state: &state, board: runBoard, frame: frame)
        case .raisePriority: return changePriority(1, state: &state, board: runBoard, frame: frame)
        case .lowerPriority: return changePriority(-1, state: &state, board: runBoard, frame: frame)
        case .cancelAllOnQueue: return cancelAll(state: &state, board: runBoard, frame: frame)
        case .toggleSuspend: return toggleSuspend(state: &state, board: runBoard, frame: frame)
        case .raiseCap: return raiseCap(state: &state, board: runBoard, frame: frame)
        case .lowerCap: return lowerCap(state: &state, board: runBoard, frame: frame)
        case .defaultCap: return defaultCap(state: &state, board: runBoard, frame: frame)
        case .historyBack, .historyForward, .historyPreviousChange, .historyNextChange:
            return history(command, state: &state, frame: frame)
        case .goToTime:
            guard let history = frame.history, history.count > 0 else {
                return refuse(ScreenWords.nothingYet, &state, frame)
            }
            state.timeEntry = ""
            return .redraw
        case .search, .nextMatch, .previousMatch, .filterOperations, .historyPreviousMark, .historyNextMark:
            return searchCommand(command, state: &state, board: board, frame: frame)
        case .cycleBoardArea, .zoomIn, .zoomOut, .scrollEarlier, .scrollLater, .fitTimeline:
            return timeline(command, state: &state, board: board, frame: frame)
        case .sortTable, .reverseTable:
            return refuse(
                "\(InterfaceKeys.firstKeyLabel(command, glyphs: frame.glyphs)) sorts the table: t shows it", &state,
                frame)
        case .togglePause:
            // An ended run may still hold a caption to read past.
            if runBoard.outcome != nil && !frame.pausedAtCaption { return refuse(endedRefusal(frame), &state, frame) }
            return .togglePause
        case .toggleLesson: return .toggleLesson
        case .saveRecording: return .saveRecording
        case .compareRuns:
            guard frame.hasPreviousRun || state.overlay == .diff else {
                return refuse(
                    "no run before this one to compare with: r runs it again, and so does a save with --watch",
                    &state, frame)
            }
            return openOverlay(.diff, state: &state)
        case .slower, .faster: return changeSpeed(faster: command == .faster, state: &state, frame: frame)
        case .restart:
            state = state.restarted()
            return .restart
        case .toggleLog:
            return toggleLog(state: &state, board: board, frame: frame)
        case .logOlder, .logNewer:
            return scrollLog(by: command == .logOlder ? 1 : -1, page: true, state: &state, board: board, frame: frame)
        case .scrollHome, .scrollEnd:
            return scrollLog(
                by: command == .scrollHome ? Int.max / 2 : -(Int.max / 2), page: false, state: &state, board: board,
                frame: frame)
        case .filterLog:
            return filterLog(state: &state, board: board, frame: frame)
        case .toggleNotes:
            let shown = ScreenLayout.notesShown(state: state, frame: frame)
            state.notes = shown ? .hidden : .shown
            if !shown { state.inspectorExpanded = false }
            state.settleScroll(board: board, frame: frame)
            return .redraw
        case .notesUp, .notesDown:
            return scrollNotes(command == .notesDown ? 1 : -1, state: &state, board: board, frame: frame)
        case .toggleSwift: return openOverlay(.swift, state: &state)
        case .explainStall:
            guard board.stuckNow != nil else {
                return refuse("nothing is stuck here: y says why once nothing can progress", &state, frame)
            }
            return openOverlay(.stall, state: &state)
        case .toggleGraph:
            state.graphShown.toggle()
            state.settleScroll(board: board, frame: frame)
            return .redraw
        case .foldGraph:
            return refuse("e folds the graph: G shows it", &state, frame)
        case .askWaitsFor:
            guard let op = state.selectedOperation else {
                return refuse(ScreenWords.noOperationSelected, &state, frame)
            }
            state.waitsFor.asking = op
            state.waitsFor.entry = ""
            return .redraw
        case .markCriticalPath:
            // The path is drawn on the graph: H shows both.
            guard state.selectedOperation != nil else { return refuse(ScreenWords.noOperationSelected, &state, frame) }
            state.graphShown = true
            state.criticalPathShown = true
            return .redraw
        case .toggleHelp: return openOverlay(.help, state: &state)
        case .closeOverlay:
            guard state.inspectorExpanded else { return .none }
            state.inspectorExpanded = false
            return .redraw
        case .quit: return .quit
        }
    }

    /// Whether `key` restarts the run in `state`: no prompt, time entry
    /// or overlay takes it first. Two in a row are one restart: each would
    /// build a run of the whole file, and the next one replaces it at once.
    public static func isPlainRestart(_ key: Key, state: InterfaceState) -> Bool {
        state.timeEntry == nil && state.search.entry == nil && state.filter.entry == nil
            && state.waitsFor.entry == nil && state.overlay == .none
            && InterfaceKeys.table.command(for: key) == .restart
    }

    public static func endedRefusal(_ frame: FrameInput) -> String {
        frame.isReplay
            ? "the recording has ended \u{2014} r plays it again" : "the run has ended \u{2014} r runs it again"
    }

    /// Why a key that acts on the engine does nothing in `opscope replay`.
    public static let replayRefusal =
        "a replay shows the recorded run and cannot change it \u{2014} open the scenario file to run it live"

    // MARK: - History

    /// `[` `]` `{` `}`: move the history cursor; past the last notification is live.
    static func history(_ command: InterfaceCommand, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome
    {
        guard let history = frame.history, history.count > 0 else {
            let empty = frame.isReplay ? ScreenWords.emptyRecording : nil
            return refuse(empty ?? ScreenWords.nothingYet, &state, frame)
        }
        let atEnd = frame.isReplay ? "this is the recording's last notification" : nil
        let here = state.historyCursor ?? history.count
        switch command {
        case .historyBack:
            guard here > 0 else { return refuse(ScreenWords.startOfRun, &state, frame) }
            return moveHistory(to: here - 1, state: &state, frame: frame)
        case .historyForward:
            guard state.historyCursor != nil else {
                return refuse(atEnd ?? "this is the live run: [ steps back", &state, frame)
            }
            return moveHistory(to: here + 1 >= history.count ? nil : here + 1, state: &state, frame: frame)
        case .historyPreviousChange:
            guard here > 0 else { return refuse(ScreenWords.startOfRun, &state, frame) }
            return moveHistory(to: history.previousChange(before: here), state: &state, frame: frame)
        default:
            guard state.historyCursor != nil else {
                return refuse(atEnd ?? "this is the live run: { goes back", &state, frame)
            }
            let next = history.nextChange(after: here)
            return moveHistory(to: next.flatMap { $0 >= history.count ? nil : $0 }, state: &state, frame: frame)
        }
    }

    static func moveHistory(to cursor: Int?, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome {
        guard cursor != state.historyCursor else { return .none }
        state.historyCursor = cursor
        state.logScroll = 0
        return .redraw
    }

    /// Why a key cannot act on the run now: it ended, or has not started.
    static func runRefusal(board: BoardState, frame: FrameInput) -> String? {
        if frame.isReplay { return replayRefusal }
        if board.outcome != nil { return endedRefusal(frame) }
        if frame.notStarted { return "the run has not started \u{2014} Space starts it" }
        return nil
    }

    /// Keys while an overlay is open: arrows scroll it, Esc / its own key
    /// close it, the other overlay key switches, run keys and quit still
    /// work; commands aimed at the hidden board are refused. nil: handle as usual.
    static func overlayCommand(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        switch command {
        case .selectUp, .selectDown, .logOlder, .logNewer, .scrollHome, .scrollEnd:
            let down = [.selectDown, .logNewer, .scrollEnd].contains(command)
            let page = command == .logOlder || command == .logNewer
            let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame)
            let rect = layout?.overlay ?? Rect(size: frame.size)
            let visible = max(1, rect.height - 2)
            let total = OverlayView.lineCount(board: board, state: state, frame: frame, rect: rect)
            let step = command == .scrollHome || command == .scrollEnd ? total : page ? max(1, visible - 1) : 1
            let scrolled = min(max(0, state.overlayScroll + (down ? step : -step)), max(0, total - visible))
            guard scrolled != state.overlayScroll else { return InterfaceOutcome.none }
            state.overlayScroll = scrolled
            return .redraw
        case .closeOverlay:
            state.overlay = .none
            state.overlayScroll = 0
            return .redraw
        case .toggleHelp, .toggleSwift, .explainStall, .quit, .togglePause, .slower, .faster, .restart,
            .toggleLesson, .saveRecording, .compareRuns:
            return nil
        default:
            return refuse("close the overlay first (Esc)", &state, frame)
        }
    }

    static func openOverlay(_ overlay: InterfaceState.Overlay, state: inout InterfaceState) -> InterfaceOutcome {
        state.overlay = state.overlay == overlay ? .none : overlay
        state.overlayScroll = 0
        return .redraw
    }

    static func changeSpeed(faster: Bool, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome {
        let next = faster ? frame.speed * 2 : frame.speed / 2
        guard speedRange.contains(next) else {
            let limit = faster ? speedRange.upperBound : speedRange.lowerBound
            let word = faster ? "fastest" : "slowest"
            return refuse("already at the \(word) speed, \(Wording.speed(limit, glyphs: frame.glyphs))", &state, frame)
        }
        return .setSpeed(next)
    }

    /// PgUp / PgDn (a page), Home / End (all the way): the log, or, when
    /// the notes take its place, nothing to scroll there.
    static func scrollLog(
        by direction: Int, page: Bool, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        guard let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame), let log = layout.log
        else { return refuse("the log is hidden: L shows it", &state, frame) }
        let rows = max(1, log.height - 1)
        let step = page ? max(1, rows - 1) * direction : direction
        let most = max(0, LogView.entries(state: state, frame: frame, board: board).count - 1)
        let next = min(max(0, state.logScroll + step), most)
        guard next != state.logScroll else { return .none }
        state.logScroll = next
        return .redraw
    }

    /// `(` `)`: a page of the notes and expectations pane, where it shows.
    static func scrollNotes(
        _ direction: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        guard InterfaceRenderer.layout(board: board, state: state, frame: frame)?.notes != nil else {
            return refuse("the notes are hidden: n shows them", &state, frame)
        }
        guard let next = notesScrolled(direction, page: true, state: state, board: board, frame: frame) else {
            return refuse(direction > 0 ? "the notes end here" : "the notes start here", &state, frame)
        }
        state.notesScroll = next
        return .redraw
    }

    /// Where the notes pane's scroll goes `direction` by a page (or, for the
    /// wheel, a few lines); nil when it cannot move that way.
    static func notesScrolled(
        _ direction: Int, page: Bool, state: InterfaceState, board: BoardState, frame: FrameInput
    ) -> Int? {
        guard let notes = InterfaceRenderer.layout(board: board, state: state, frame: frame)?.notes else { return nil }
        let content = notes.inset(top: 1)
        let status = RunStatus(board: board, frame: frame, selectedQueue: state.selectedQueue)
        let lines = NotesView.lineCount(board: board, frame: frame, status: status, width: content.width)
        let rows = NotesView.visibleRows(lines: lines, height: content.height)
        let current = NotesView.clampedScroll(state.notesScroll, lines: lines, height: content.height)
        let step = page ? max(1, rows - 1) : wheelLines
        let next = NotesView.clampedScroll(current + direction * step, lines: lines, height: content.height)
        return next == current ? nil : next
    }

    /// `L`: the log on or off. Where the notes take the log's place (narrow
    /// terminals), `L` brings the log back instead.
    static func toggleLog(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame)
        if let layout, layout.notes != nil, !layout.notesDocked {
            state.notes = .hidden
            state.logVisible = true
        } else {
            state.logVisible.toggle()
        }
        if !state.logVisible { state.logScroll = 0 }
        if state.logVisible && state.inspectorExpanded { state.inspectorExpanded = false }
        state.settleScroll(board: board, frame: frame)
        return .redraw
    }

    /// `f`: only the selected operation's lines in the log, or all again.
    static func filterLog(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        if state.logFilter != nil {
            state.logFilter = nil
        } else {
            guard let op = state.selectedOperation else {
                return refuse(ScreenWords.noOperationSelected, &state, frame)
            }
            state.logFilter = op
            if !state.logVisible || state.notes == .shown && frame.size.columns < ScreenLayout.dockColumns {
                state.logVisible = true
                if frame.size.columns < ScreenLayout.dockColumns { state.notes = .hidden }
            }
        }
        state.logScroll = 0
        return .redraw
    }

    /// Refuses `action` for a reason the engine would give too, in its words.
    static func refuse(
        _ reason: ActionRefusal, _ action: Action, _ state: inout InterfaceState, _ board: BoardState,
        _ frame: FrameInput
    ) -> InterfaceOutcome {
        refuse(reason.refusal(of: action, in: board.scenario), &state, frame)
    }

    /// Leaves a refusal message and asks for a redraw to show it.
    static func refuse(_ text: String, _ state: inout InterfaceState, _ frame: FrameInput) -> InterfaceOutcome {
        state.show(text, kind: .refusal, now: frame.wallClock)
        return .redraw
    }

    /// Leaves an informational message (what a performed key did).
    static func tell(_ text: String, _ state: inout InterfaceState, _ frame: FrameInput) {
        state.show(text, kind: .info, now: frame.wallClock)
    }
}
