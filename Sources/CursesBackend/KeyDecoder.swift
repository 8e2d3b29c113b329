import CNCurses
import Screen

/// One mouse report, whether ncurses decoded it (`getmouse`) or
/// `MouseReportScanner` found it in the characters: where, and what
/// happened. Columns and rows are 0-based cells.
public struct MouseReport: Hashable, Sendable {
    public enum Event: Hashable, Sendable {
        /// Button 1 (primary), 2 (middle) or 3 (secondary) went down. The
        /// app acts on the press of button 1: with `mouseinterval(0)`
        /// ncurses resolves no clicks, which would delay every press.
        case press(button: Int)
        /// A button went up (X10 reports do not say which).
        case release
        /// One notch of the wheel (buttons 4 and 5).
        case wheelUp, wheelDown
        /// The pointer moved. Only motion modes (1002, 1003) send these,
        /// and opscope never asks for them; a terminal left in one by
        /// another program may still send them.
        case motion
        /// Anything else: horizontal wheel, buttons 6 to 11.
        case other
    }

    public var column: Int
    public var row: Int
    public var event: Event

    public init(column: Int, row: Int, event: Event) {
        self.column = column
        self.row = row
        self.event = event
    }

    /// What `getmouse` reported, from its button state (`MEVENT.bstate`).
    public init(column: Int, row: Int, buttonState state: mmask_t) {
        let event: Event
        if state & (opscope_button1_pressed() | opscope_button1_clicked()) != 0 {
            event = .press(button: 1)
        } else if state & opscope_button4_pressed() != 0 {
            event = .wheelUp
        } else if state & opscope_button5_pressed() != 0 {
            event = .wheelDown
        } else if state & opscope_all_released() != 0 {
            event = .release
        } else if state & opscope_report_mouse_position() != 0 {
            event = .motion
        } else {
            event = .other
        }
        self.init(column: column, row: row, event: event)
    }

    /// The button byte of an xterm report, as SGR (1006) sends it and as
    /// X10 sends it less 32: the low two bits are the button (3: released,
    /// X10 only), 4/8/16 are Shift/Meta/Ctrl (ignored), 32 is motion, 64
    /// the wheel, 128 buttons 8 to 11. `released` is SGR's final `m`.
    public init(column: Int, row: Int, xtermButton code: Int, released: Bool) {
        let low = code & 3
        let event: Event
        if code & 128 != 0 {
            event = .other
        } else if code & 64 != 0 {
            event = code & 32 != 0 ? .motion : low == 0 ? .wheelUp : low == 1 ? .wheelDown : .other
        } else if code & 32 != 0 {
            event = .motion
        } else if released || low == 3 {
            event = .release
        } else {
            event = .press(button: low + 1)
        }
        self.init(column: column, row: row, event: event)
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
    ///   a mouse event other than a primary press or the wheel).
    public static func decode(status: Int32, code: UInt32, mouse: MouseReport? = nil) -> Key? {
        switch status {
        case OK: return character(code)
        case KEY_CODE_YES: return functionKey(Int32(bitPattern: code), mouse: mouse)
        default: return nil
        }
    }

    /// What a mouse report means to the app: a press of the primary button
    /// is a click, a wheel notch scrolls; everything else (releases, other
    /// buttons, motion) is nothing, so no report ever reads as a key.
    public static func key(for report: MouseReport) -> Key? {
        switch report.event {
        case .press(button: 1): return .mouse(column: report.column, row: report.row)
        case .wheelUp: return .wheel(column: report.column, row: report.row, down: false)
        case .wheelDown: return .wheel(column: report.column, row: report.row, down: true)
        case .press, .release, .motion, .other: return nil
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
            return mouse.flatMap(key(for:))
        case (f0 + 1)...(f0 + 63): return .function(Int(code - f0))
        default: return .unknown(Int(code))
        }
    }
}
