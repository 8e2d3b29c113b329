import CNCurses
import Screen

/// The size of the terminal a descriptor is on, asked of the kernel
/// (`TIOCGWINSZ`), not of ncurses: it works before a session opens and
/// for a command that never opens one (the width `check` fits a source
/// line to).
public enum TerminalSize {
    /// The size in cells of the terminal on `descriptor`; nil when it is
    /// not a terminal (or says it has no size).
    public static func of(descriptor: Int32) -> Size? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard opscope_terminal_size(descriptor, &rows, &columns) == 0 else { return nil }
        return Size(columns: Int(columns), rows: Int(rows))
    }
}
