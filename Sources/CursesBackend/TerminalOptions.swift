/// How the terminal session is set up.
public struct TerminalOptions: Sendable, Hashable {
    /// How keys reach the program.
    public enum InputMode: Sendable, Hashable {
        /// Ctrl-C and Ctrl-Z keep their meaning (SIGINT via `SignalWatch`;
        /// ncurses' own SIGTSTP handler restores the terminal while stopped).
        case cbreak
        /// Every key, including Ctrl-C and Ctrl-Z, arrives as a `Key`.
        case raw
    }

    /// Use colours when the terminal has them. Set it from
    /// `colorsAllowed(noColorFlag:environment:)`; attributes (bold, reverse, …)
    /// are used either way.
    public var colors: Bool
    /// Report primary-button presses as `Key.mouse` and the wheel as
    /// `Key.wheel`. Click tracking only: ncurses asks the terminal for
    /// button reports (DECSET 1000), never for motion (1002, 1003), so
    /// Shift+drag still selects text in xterm-like terminals.
    public var mouse: Bool
    public var inputMode: InputMode
    /// How long (ms) a lone Escape byte waits for the rest of an escape
    /// sequence. Small, so Esc feels immediate; ncurses' default is 1000.
    public var escapeDelayMilliseconds: Int

    public init(
        colors: Bool = true, mouse: Bool = true, inputMode: InputMode = .cbreak,
        escapeDelayMilliseconds: Int = 25
    ) {
        self.colors = colors
        self.mouse = mouse
        self.inputMode = inputMode
        self.escapeDelayMilliseconds = escapeDelayMilliseconds
    }

    /// False when the user asked for no colour: `--no-color`, or a non-empty
    /// `NO_COLOR` environment variable (https://no-color.org).
    public static func colorsAllowed(noColorFlag: Bool, environment: [String: String]) -> Bool {
        if noColorFlag { return false }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return true
    }
}

/// Why a terminal session could not start.
public enum TerminalError: Error, Equatable, Sendable {
    /// Standard input or output is not a terminal (use `check`/`trace` instead).
    case notATerminal
    /// Another session is open; there is one screen per process.
    case alreadyOpen
    /// ncurses could not start with this terminal type (no terminfo entry).
    case unknownTerminal(String)
    /// The headless output file could not be created.
    case cannotCreateOutput
}
