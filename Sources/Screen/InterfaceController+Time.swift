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
            return goTo(seconds: seconds, typed: text, state: &state, frame: frame)
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

    /// The history cursor to the last notification at or before `seconds`
    /// (`typed` as the user typed it); at or past the last one, live (a
    /// replay: its last event). The message says where it went and, when
    /// that is not the moment typed, why: before the first notification,
    /// past the last.
    static func goTo(seconds: Double, typed: String, state: inout InterfaceState, frame: FrameInput)
        -> InterfaceOutcome
    {
        guard let history = frame.history, history.count > 0 else {
            return refuse("nothing has happened yet: there is no moment to go to", &state, frame)
        }
        // The number of notifications announced by then (as the screen
        // shows times, to the millisecond): times never decrease.
        let limit = seconds + 0.0005
        var low = 0
        var high = history.count
        while low < high {
            let mid = (low + high + 1) / 2
            if history.time(after: mid) < limit { low = mid } else { high = mid - 1 }
        }
        let count = history.count
        let lastTime = Spelling.seconds(history.time(after: count))
        let place = frame.isReplay ? " in the recording" : ""
        let text: String
        if low >= count {
            // At or past the last notification.
            state.historyCursor = nil
            text =
                history.time(after: count) + 0.0005 >= limit
                ? "g \(typed): the last notification\(place), event \(count) of \(count) at \(lastTime)"
                    + (frame.isReplay ? "" : " (live)")
                : "g \(typed): past the last notification\(place) (\(lastTime)): event \(count) of \(count)"
                    + (frame.isReplay ? "" : ", live")
        } else if low == 0 {
            state.historyCursor = 0
            text =
                "g \(typed): before the first notification\(place) (\(Spelling.seconds(history.time(after: 1)))): "
                + "the start, event 0 of \(count)"
        } else {
            state.historyCursor = low
            text =
                "g \(typed): event \(low) of \(count)\(place), the last notification by then, at "
                + Spelling.seconds(history.time(after: low))
        }
        state.logScroll = 0
        state.show(text, now: frame.wallClock)
        return .redraw
    }
}
