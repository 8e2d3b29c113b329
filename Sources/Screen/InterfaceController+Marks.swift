import Board
import RunEvents

/// `a` / `A`: the history cursor to the next or last action (a timed one,
/// or a key's) or caption, the moments a lesson is told by; the timeline
/// marks them ▲ on its axis. The status line says which it is.
extension InterfaceController {
    static func mark(_ direction: Int, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome {
        guard let history = frame.history, history.count > 0 else {
            let empty = frame.isReplay ? ScreenWords.emptyRecording : nil
            return refuse(empty ?? ScreenWords.nothingYet, &state, frame)
        }
        let here = state.historyCursor ?? history.count
        // The cursor n shows events 0..<n: the event at index i shows from cursor i + 1.
        let found: Int?
        if direction > 0 {
            guard state.historyCursor != nil else {
                return refuse("this is the live run: A goes back to the last action or caption", &state, frame)
            }
            found = (here..<history.count).first { isMark(history.events[$0]) }
        } else {
            found = (0..<max(0, here - 1)).reversed().first { isMark(history.events[$0]) }
        }
        guard let index = found else {
            return refuse(
                direction > 0 ? "no action or caption after this moment" : "no action or caption before this moment",
                &state, frame)
        }
        let cursor = index + 1 >= history.count && !frame.isReplay ? nil : index + 1
        _ = moveHistory(to: cursor, state: &state, frame: frame)
        let line = frame.log.indices.contains(index) ? ": " + frame.log[index].text : ""
        tell("event \(index + 1) of \(history.count)\(line)", &state, frame)
        return .redraw
    }

    static func isMark(_ event: LifecycleEvent) -> Bool {
        switch event.kind {
        case .action, .caption: true
        default: false
        }
    }
}

/// The row above the key bar while `/` or `F` is typed.
enum PromptLine {
    static func text(board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme) -> (String, Style)? {
        if let typed = state.search.entry {
            var tail = "Enter keeps it, Esc gives up"
            if !typed.isEmpty {
                let found = InterfaceController.matches(typed, state: state, board: board, frame: frame)
                tail =
                    found.isEmpty
                    ? "no match"
                    : "\(found.count) match\(found.count == 1 ? "" : "es") \u{00B7} Ctrl-N next \u{00B7} " + tail
            }
            return ("/\(typed)_  \(tail)", found(typed, state, board, frame) ? theme.info : theme.refusal)
        }
        if let typed = state.waitsFor.entry, let x = state.waitsFor.asking, board.scenario.contains(x) {
            let target = InterfaceController.waitsForTarget(typed, board: board, frame: frame)
            let tail =
                typed.isEmpty
                ? "type a name; Enter asks, Esc gives up"
                : target.map { "Enter asks about \(board.scenario.opName($0)), Esc gives up" } ?? "no match"
            return (
                "does \(board.scenario.opName(x)) wait for: \(typed)_  \(tail)",
                target != nil || typed.isEmpty ? theme.info : theme.refusal
            )
        }
        if let typed = state.filter.entry {
            if let error = state.filter.error { return ("filter: \(typed)_  \(error.message)", theme.refusal) }
            if typed.isEmpty, let active = state.filter.active {
                return ("filter: _  now \(active.text); Enter takes it off, Esc keeps it, or type another", theme.info)
            }
            return (
                "filter: \(typed)_  queue:NAME state:COLUMN text:WORD; Enter filters (empty: off), Esc gives up",
                theme.info
            )
        }
        return nil
    }

    private static func found(_ typed: String, _ state: InterfaceState, _ board: BoardState, _ frame: FrameInput)
        -> Bool
    {
        typed.isEmpty || !InterfaceController.matches(typed, state: state, board: board, frame: frame).isEmpty
    }
}
