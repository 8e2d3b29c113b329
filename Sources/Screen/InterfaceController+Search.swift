import Board
import ScenarioKit

/// `/` searches the names as they are typed: the first match (names that
/// start with the query first, then scenario order: `NameSearch`) is
/// selected and scrolled into view in whichever view shows; Enter keeps
/// it, Esc gives the selection back. Ctrl-N and Ctrl-P then go round the
/// matches of the query kept (while typing too). `F` types a filter
/// (`OperationFilter`) in a prompt that opens empty: Enter puts it on, an
/// empty one takes it off (`F Enter`), Esc keeps the one in force, a bad
/// term keeps the prompt open with the reason. Only the operations that
/// show are searched and selected.
extension InterfaceController {
    static func searchCommand(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        switch command {
        case .search:
            guard !board.scenario.operations.isEmpty else {
                return refuse(ScreenWords.noOperations, &state, frame)
            }
            state.search.entry = ""
            state.search.origin = state.selectedOperation
            // The names are made ready here, once a run, not on the first letter.
            _ = frame.memo?.search(of: board.scenario)
            return .redraw
        case .nextMatch, .previousMatch:
            guard let query = state.search.query else {
                return refuse("no search yet: / searches the operations' names", &state, frame)
            }
            return step(command == .nextMatch ? 1 : -1, query: query, state: &state, board: board, frame: frame)
        case .filterOperations:
            // The prompt opens empty, so `F Enter` takes a filter off; the
            // one in force shows in the prompt's hint, and Esc keeps it.
            state.filter.entry = ""
            state.filter.error = nil
            return .redraw
        default:
            return mark(command == .historyNextMark ? 1 : -1, state: &state, frame: frame)
        }
    }

    /// A key while `/` or `F` types; nil when neither prompt is open or the
    /// key ends the typing and is handled as usual.
    static func typePrompt(_ key: Key, state: inout InterfaceState, board: BoardState, frame: FrameInput)
        -> InterfaceOutcome?
    {
        if let text = state.search.entry { return typeSearch(key, text, state: &state, board: board, frame: frame) }
        if let text = state.filter.entry { return typeFilter(key, text, state: &state, board: board, frame: frame) }
        if let text = state.waitsFor.entry { return typeWaitsFor(key, text, state: &state, board: board, frame: frame) }
        return nil
    }

    /// The longest query or filter typed: more is dropped.
    static let promptLimit = 200

    private static func edited(_ key: Key, _ text: String) -> String? {
        switch key {
        case .character(let c)
        where !c.isNewline && text.count < promptLimit
            && c.unicodeScalars.allSatisfy({
                $0.properties.generalCategory != .control
            }):
            return text + String(c)
        case .character: return text
        case .backspace, .delete: return String(text.dropLast())
        case .ctrl("u"): return ""
        default: return nil
        }
    }

    private static func typeSearch(
        _ key: Key, _ text: String, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        if let typed = edited(key, text) {
            state.search.entry = typed
            if let first = matches(typed, state: state, board: board, frame: frame).first {
                selectMatch(first, state: &state, board: board, frame: frame)
            } else if typed.isEmpty, let origin = state.search.origin {
                selectMatch(origin, state: &state, board: board, frame: frame)
            }
            return .redraw
        }
        switch key {
        case .escape:
            state.search.entry = nil
            if let origin = state.search.origin { selectMatch(origin, state: &state, board: board, frame: frame) }
            return .redraw
        case .enter:
            state.search.entry = nil
            guard !text.isEmpty else { return .redraw }
            state.search.query = text
            let found = matches(text, state: state, board: board, frame: frame)
            guard !found.isEmpty else {
                if let origin = state.search.origin { selectMatch(origin, state: &state, board: board, frame: frame) }
                return refuse(noMatch(text, state: state), &state, frame)
            }
            tell(matchText(text, found: found, state: state, board: board), &state, frame)
            return .redraw
        case .ctrl("n"), .ctrl("p"):
            guard !text.isEmpty else { return InterfaceOutcome.none }
            return step(key == .ctrl("n") ? 1 : -1, query: text, state: &state, board: board, frame: frame)
        default:
            // Any other key keeps what was found and does what it does.
            state.search.entry = nil
            if !text.isEmpty { state.search.query = text }
            return nil
        }
    }

    private static func typeFilter(
        _ key: Key, _ text: String, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        if let typed = edited(key, text) {
            state.filter.entry = typed
            state.filter.error = nil
            return .redraw
        }
        switch key {
        case .escape:
            state.filter.entry = nil
            state.filter.error = nil
            return .redraw
        case .enter:
            let filter: OperationFilter?
            do {
                filter = try OperationFilter.parse(text, scenario: board.scenario)
            } catch {
                state.filter.error = error
                return .redraw
            }
            state.filter = FilterState()
            state.filter.active = filter
            state.logScroll = 0
            state.reconcile(with: board)
            state.settleScroll(board: board, frame: frame)
            if let filter {
                let hidden = filter.hiddenCount(on: board)
                tell("filter \(filter.text): \(hidden) of \(board.scenario.operations.count) hidden", &state, frame)
            } else {
                tell("filter off: every operation shows", &state, frame)
            }
            return .redraw
        default:
            // The filter prompt keeps every other key from the board: a
            // typed term must not cancel an operation.
            return InterfaceOutcome.none
        }
    }

    /// `D`'s prompt: Enter asks about the operation named (exactly, else
    /// the first whose name holds the text, filtered out or not).
    private static func typeWaitsFor(
        _ key: Key, _ text: String, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        if let typed = edited(key, text) {
            state.waitsFor.entry = typed
            return .redraw
        }
        switch key {
        case .escape:
            state.waitsFor.entry = nil
            return .redraw
        case .enter:
            guard let x = state.waitsFor.asking, board.scenario.contains(x) else {
                state.waitsFor.entry = nil
                return refuse(ScreenWords.noOperationSelected, &state, frame)
            }
            guard let y = waitsForTarget(text, board: board, frame: frame) else {
                return refuse(
                    text.isEmpty ? "type the name of the other operation" : "no operation's name holds '\(text)'",
                    &state, frame)
            }
            state.waitsFor.entry = nil
            state.waitsFor.answered = WaitsForState.Question(x: x, y: y)
            state.waitsFor.asking = nil
            tell(WhyAnswer.waitsFor(x, y, in: board.scenario).0, &state, frame)
            return .redraw
        default:
            // Like the filter's prompt: a typed name must not act on the run.
            return InterfaceOutcome.none
        }
    }

    /// The operation `D`'s text names: the one with that name, else the
    /// first whose name holds it.
    static func waitsForTarget(_ text: String, board: BoardState, frame: FrameInput) -> OperationID? {
        guard !text.isEmpty else { return nil }
        if let exact = board.scenario.operationID(named: text) { return exact }
        let search = frame.memo?.search(of: board.scenario) ?? NameSearch(board.scenario)
        return search.matches(text).first
    }

    /// The operations shown whose name holds `query`, in the search's order.
    static func matches(_ query: String, state: InterfaceState, board: BoardState, frame: FrameInput)
        -> [OperationID]
    {
        let search = frame.memo?.search(of: board.scenario) ?? NameSearch(board.scenario)
        return search.matches(query, shown: state.filter.shown(on: board))
    }

    /// Selects `op` where it shows: its card, its lane or its span.
    static func selectMatch(_ op: OperationID, state: inout InterfaceState, board: BoardState, frame: FrameInput) {
        guard board.scenario.contains(op), let place = state.columns(board).locate(op) else { return }
        let messages = (state.message, state.notice)
        select(op, column: place.column, state: &state, board: board, frame: frame)
        (state.message, state.notice) = messages
    }

    /// Ctrl-N / Ctrl-P: the match after or before the selected one, round.
    private static func step(
        _ direction: Int, query: String, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let found = matches(query, state: state, board: board, frame: frame)
        guard !found.isEmpty else { return refuse(noMatch(query, state: state), &state, frame) }
        let next: Int
        if let here = state.selectedOperation.flatMap({ found.firstIndex(of: $0) }) {
            next = ((here + direction) % found.count + found.count) % found.count
        } else {
            next = direction > 0 ? 0 : found.count - 1
        }
        selectMatch(found[next], state: &state, board: board, frame: frame)
        tell(matchText(query, found: found, state: state, board: board), &state, frame)
        return .redraw
    }

    private static func noMatch(_ query: String, state: InterfaceState) -> String {
        let shown = state.filter.active == nil ? "" : " among those the filter shows"
        return "no operation's name holds '\(query)'\(shown)"
    }

    /// `thumb40: match 3 of 12 for 'thumb' · Ctrl-N next, Ctrl-P previous`.
    static func matchText(_ query: String, found: [OperationID], state: InterfaceState, board: BoardState) -> String {
        guard let op = state.selectedOperation, let i = found.firstIndex(of: op) else {
            return "\(found.count) match\(found.count == 1 ? "" : "es") for '\(query)'"
        }
        let keys = found.count > 1 ? " \u{00B7} Ctrl-N next, Ctrl-P previous" : ""
        return "\(board[operation: op].name): match \(i + 1) of \(found.count) for '\(query)'\(keys)"
    }
}
