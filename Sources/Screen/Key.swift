/// One decoded input event, as data. The backend turns raw curses input into
/// `Key`s; everything after that (the key table, the handler, tests) works on
/// these values and never on curses codes.
public enum Key: Hashable, Sendable {
    /// A printable character, as typed (`"q"` and `"Q"` differ).
    case character(Character)
    /// A control chord, always with a lower-case letter or the punctuation
    /// that follows Ctrl (`.ctrl("c")` is Ctrl-C, byte 3). Tab, Enter, Escape
    /// and Backspace have their own cases instead.
    case ctrl(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    case tab, shiftTab, enter, escape, backspace
    /// F1…F12 (`function(1)` is F1).
    case function(Int)
    /// The terminal changed size; redraw everything.
    case resize
    /// A click of the primary mouse button at a 0-based column and row.
    case mouse(column: Int, row: Int)
    /// One notch of the mouse wheel over a 0-based column and row: `down`
    /// scrolls toward the end (newer log lines, later cards).
    case wheel(column: Int, row: Int, down: Bool)
    /// Anything else, with its raw code for debugging.
    case unknown(Int)

    /// A short label for help screens and the key bar, e.g. `q`, `Ctrl-C`,
    /// `↑`, `Shift-Tab`, `Space`. `ascii` avoids the arrow symbols.
    public func label(ascii: Bool = false) -> String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .ctrl(let c): return "Ctrl-\(String(c).uppercased())"
        case .up: return ascii ? "Up" : "↑"
        case .down: return ascii ? "Down" : "↓"
        case .left: return ascii ? "Left" : "←"
        case .right: return ascii ? "Right" : "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .tab: return "Tab"
        case .shiftTab: return "Shift-Tab"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .function(let n): return "F\(n)"
        case .resize: return "Resize"
        case .mouse: return "Click"
        case .wheel: return "Wheel"
        case .unknown(let code): return "Key(\(code))"
        }
    }
}
