import Board
import TextKit

extension InterfaceController {
    /// A key while a time is being typed (`g`): digits, `.`, `m` and `s`
    /// build it, Backspace takes one back, Enter goes there, Esc gives up.
    /// Any other key ends the typing and is handled as usual (nil).
    static func typeTime(_ key: Key, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome? {
        guard var text = state.timeEntry else { return nil }
        switch key {
        case .character(let c) where c.isASCII && (c.isNumber || c == "." || c == "m" || c == "s"):
            guard text.count < 16 else { return InterfaceOutcome.none }
            text.append(c)
            state.timeEntry = text
            return .redraw
        case .backspace, .delete:
            if !text.isEmpty { text.removeLast() }
            state.timeEntry = text
            return .redraw
        case .escape:
            state.timeEntry = nil
            return .redraw
        case .enter:
            state.timeEntry = nil
            guard let seconds = parseTime(text) else {
                return refuse(
                    "'\(text)' is not a time: type seconds (0.6, 1.25s) or milliseconds (600ms)", &state, frame)
            }
            return goTo(seconds: seconds, state: &state, frame: frame)
        case .resize:
            return nil
        default:
            state.timeEntry = nil
            return nil
        }
    }

    /// `0.6`, `0.6s`, `600ms`: scenario seconds; nil for anything else.
    static func parseTime(_ text: String) -> Double? {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }),
            let value = Double(number), value.isFinite
        else { return nil }
        return value * scale
    }

    /// The history cursor to the last notification at or before `seconds`;
    /// at or past the last one, live (a replay: its last event).
    static func goTo(seconds: Double, state: inout InterfaceState, frame: FrameInput) -> InterfaceOutcome {
        guard let history = frame.history, history.count > 0 else { return InterfaceOutcome.none }
        // The number of notifications announced by then (as the screen
        // shows times, to the millisecond): times never decrease.
        let limit = seconds + 0.0005
        var low = 0
        var high = history.count
        while low < high {
            let mid = (low + high + 1) / 2
            if history.time(after: mid) < limit { low = mid } else { high = mid - 1 }
        }
        let target = low >= history.count ? nil : low
        state.historyCursor = target
        state.logScroll = 0
        let last = frame.isReplay ? "the recording's last notification" : "the last notification so far"
        let place = target.map { "event \($0) of \(history.count)" } ?? "\(last), \(history.count)"
        let live = target == nil && !frame.isReplay ? " (live)" : ""
        state.show("at \(Spelling.seconds(seconds)): \(place)" + live, now: frame.wallClock)
        return .redraw
    }
}
