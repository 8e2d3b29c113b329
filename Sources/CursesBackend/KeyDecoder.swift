import CNCurses
import Screen

/// What `getmouse` reported for one KEY_MOUSE, reduced to what opscope uses.
/// Columns and rows are 0-based cells.
public struct MouseReport: Hashable, Sendable {
    public var column: Int
    public var row: Int
    /// The primary button went down or was clicked (the app acts on press,
    /// since `mouseinterval(0)` turns off click resolution, which would delay
    /// every press by the click interval).
    public var isPrimaryPress: Bool

    public init(column: Int, row: Int, isPrimaryPress: Bool) {
        self.column = column
        self.row = row
        self.isPrimaryPress = isPrimaryPress
    }
}

/// Turns what `wget_wch` returned into a `Key`. A pure function of its
/// inputs, so that the whole mapping is tested without a terminal; the
/// session only gathers the inputs (and the mouse report for KEY_MOUSE).
public enum KeyDecoder {
    /// - Parameters:
    ///   - status: `wget_wch`'s result: `OK` (a character), `KEY_CODE_YES`
    ///     (a function key code) or `ERR` (no input).
    ///   - code: the `wint_t` it stored.
    ///   - mouse: for KEY_MOUSE, what `getmouse` reported (nil if it failed).
    /// - Returns: the key, or `nil` when there is nothing to act on (no input,
    ///   a mouse event other than a primary press).
    public static func decode(status: Int32, code: UInt32, mouse: MouseReport? = nil) -> Key? {
        switch status {
        case OK: return character(code)
        case KEY_CODE_YES: return functionKey(Int32(bitPattern: code), mouse: mouse)
        default: return nil
        }
    }

    static func character(_ code: UInt32) -> Key {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .ctrl("@")
        case 1...26: return .ctrl(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        case 28: return .ctrl("\\")
        case 29: return .ctrl("]")
        case 30: return .ctrl("^")
        case 31: return .ctrl("_")
        case 0x80..<0xA0: return .unknown(Int(code))
        default:
            guard let scalar = Unicode.Scalar(code) else { return .unknown(Int(code)) }
            return .character(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32, mouse: MouseReport?) -> Key? {
        let f0 = opscope_key_f0()
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .shiftTab
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            guard let mouse, mouse.isPrimaryPress else { return nil }
            return .mouse(column: mouse.column, row: mouse.row)
        case (f0 + 1)...(f0 + 63): return .function(Int(code - f0))
        default: return .unknown(Int(code))
        }
    }
}
