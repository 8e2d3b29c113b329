import CNCurses
import Screen
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one owner of the curses screen: it starts ncurses, sets the terminal
/// up for the interface, draws frames, reads keys, and restores the terminal
/// on every way out — `close()`, deinit, and (for a real terminal) a crash
/// signal (see `CrashGuard`) or a quit while the main thread is blocked
/// (see `SignalWatch`, `TerminalRescue`). At most one session is open per process.
/// Main actor only: ncurses must never be called concurrently. The app
/// serves the main queue from the main thread's run loop
/// (`MainThread.serve(until:)`), so main-actor code runs on the main thread.
///
/// Input is non-blocking: the app watches standard input with a dispatch
/// read source and calls `readKeys()` whenever it is readable.
@MainActor
public final class TerminalSession {
    /// Whether any session is open (ncurses has one current screen).
    private static let anyOpen = Atomic<Bool>(false)

    private var screen: OpaquePointer?
    private let window: UnsafeMutablePointer<WINDOW>
    private let renderer: CursesRenderer
    private let isHeadless: Bool
    /// Finds mouse reports that ncurses did not decode (see the scanner).
    private var mouseScanner = MouseReportScanner()
    /// Headless only: the output and input files ncurses was given.
    private let outputFile: UnsafeMutablePointer<FILE>?
    private let inputFile: UnsafeMutablePointer<FILE>?

    /// The screen size in cells, as curses knows it (updated by
    /// `handleResize()` and by a `.resize` key).
    public private(set) var size: Size
    /// Colours are in use: asked for, and the terminal has them.
    public let colorsEnabled: Bool
    /// The locale encodes text as UTF-8, so wide characters and the unicode
    /// glyph set can be shown; when false, use `GlyphSet.ascii`.
    public let isUTF8: Bool
    public private(set) var isClosed = false

    // MARK: - Opening

    /// Starts curses on the real terminal (standard input and output).
    /// Sets the locale from the environment first (`setlocale(LC_ALL, "")`),
    /// which wide characters need.
    public static func open(options: TerminalOptions = TerminalOptions()) throws -> TerminalSession {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        return try TerminalSession(
            term: nil, output: opscope_stdout(), input: opscope_stdin(), size: nil, options: options)
    }

    /// Starts curses on no terminal at all: output goes to a temporary file
    /// and is counted (`bytesWritten`), input is `/dev/null`, the size is
    /// fixed. For tests and the output-size benchmark; needs only a terminfo
    /// entry for `term` (e.g. "tmux-256color", "xterm-256color").
    public static func headless(
        term: String, size: Size, options: TerminalOptions = TerminalOptions()
    ) throws -> TerminalSession {
        guard let output = tmpfile() else { throw TerminalError.cannotCreateOutput }
        guard let input = fopen("/dev/null", "r") else {
            fclose(output)
            throw TerminalError.cannotCreateOutput
        }
        do {
            return try TerminalSession(term: term, output: output, input: input, size: size, options: options)
        } catch {
            fclose(output)
            fclose(input)
            throw error
        }
    }

    private init(
        term: String?, output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>,
        size fixedSize: Size?, options: TerminalOptions
    ) throws {
        guard
            Self.anyOpen.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { throw TerminalError.alreadyOpen }
        setlocale(LC_ALL, "")
        isUTF8 = opscope_codeset_is_utf8() != 0
        isHeadless = fixedSize != nil
        outputFile = isHeadless ? output : nil
        inputFile = isHeadless ? input : nil
        if !isHeadless {
            CrashGuard.install()
            TerminalRescue.saveShellModes()
        }

        let screen: OpaquePointer? = term.map { newterm($0, output, input) } ?? newterm(nil, output, input)
        guard let screen else {
            Self.anyOpen.store(false, ordering: .releasing)
            throw TerminalError.unknownTerminal(term ?? getenv("TERM").map { String(cString: $0) } ?? "")
        }
        self.screen = screen
        set_term(screen)
        if let fixedSize { resize_term(Int32(fixedSize.rows), Int32(fixedSize.columns)) }
        window = opscope_stdscr()

        switch options.inputMode {
        case .cbreak: cbreak()
        case .raw: raw()
        }
        noecho()
        nonl()  // Enter arrives as 13; curses may also use cheaper cursor moves.
        keypad(window, true)
        nodelay(window, true)
        intrflush(window, false)
        set_escdelay(Int32(options.escapeDelayMilliseconds))
        curs_set(0)
        if options.mouse {
            // Presses of the primary button and the wheel; no motion, so
            // ncurses asks for click tracking only (DECSET 1000, with 1006
            // where terminfo's XM says so) and Shift+drag still selects text.
            mousemask(Self.mouseMask, nil)
            mouseinterval(0)
        }
        var colors = false
        if options.colors && has_colors() {
            start_color()
            colors = use_default_colors() == OK
        }
        colorsEnabled = colors
        renderer = CursesRenderer(window: window, colors: colors)
        size = Size(columns: Int(opscope_maxx(window)), rows: Int(opscope_maxy(window)))
        hasMouse = options.mouse
        // cbreak() and noecho() set the terminal at once: its modes now are the interface's.
        if !isHeadless {
            TerminalRescue.capture(mouse: options.mouse)
            // The capture turned flow control off: ncurses' own copy of the
            // program's modes (used after a stop or a resize) takes that in.
            def_prog_mode()
            // Keys typed before the screen existed (during `swift run`'s
            // build, say) were typed blind, and in the terminal's normal
            // cursor mode: an arrow then arrives as ESC [ B, which the
            // keypad mode does not decode, and its ESC alone quits the picker.
            flushinp()
        }
    }

    private let hasMouse: Bool

    /// After a stop (Ctrl-Z) and `fg`: `TerminalRescue` has put the
    /// terminal's modes back; this sends the keypad and mouse modes again
    /// through ncurses (so its idea of them stays true) and repaints
    /// everything on the next flush.
    public func resumeAfterStop() {
        guard !isClosed else { return }
        keypad(window, false)
        keypad(window, true)
        if hasMouse {
            mousemask(0, nil)
            mousemask(Self.mouseMask, nil)
        }
        _ = handleResize()
    }

    /// The mouse events asked of ncurses: button 1 pressed (or clicked),
    /// and buttons 4 and 5 (the wheel). Never `REPORT_MOUSE_POSITION` or a
    /// drag: those make ncurses ask for motion tracking, and then the
    /// terminal no longer selects text.
    nonisolated public static var mouseMask: mmask_t {
        opscope_button1_pressed() | opscope_button1_clicked() | opscope_button4_pressed() | opscope_button5_pressed()
    }

    // MARK: - Drawing

    /// Shows `grid`: writes the cells that changed since the previous flush
    /// and updates the terminal. A grid of a different size than the last,
    /// or the first flush after `redrawAll()`/a resize, repaints everything.
    /// Cells beyond the screen are ignored. Returns the cells written.
    @discardableResult
    public func flush(_ grid: CellGrid) -> Int {
        guard !isClosed else { return 0 }
        return renderer.flush(grid)
    }

    /// Makes the next flush clear the terminal and repaint every cell (Ctrl-L,
    /// or when something else may have written to the terminal).
    public func redrawAll() {
        renderer.invalidate()
    }

    /// Asks the terminal for its size (on SIGWINCH), tells curses, and makes
    /// the next flush a full redraw. Uses `resize_term`, not `resizeterm`,
    /// because the latter also queues a KEY_RESIZE that would arrive later as
    /// a second, redundant `.resize`. Returns the new size in cells.
    @discardableResult
    public func handleResize() -> Size {
        guard !isClosed else { return size }
        if !isHeadless {
            if let terminal = TerminalSize.of(descriptor: STDOUT_FILENO) {
                resize_term(Int32(terminal.rows), Int32(terminal.columns))
            }
        }
        size = Size(columns: Int(opscope_maxx(window)), rows: Int(opscope_maxy(window)))
        renderer.invalidate()
        return size
    }

    /// Headless only: sets the fixed size (as if the terminal were resized).
    public func resize(to newSize: Size) {
        guard isHeadless, !isClosed else { return }
        resize_term(Int32(newSize.rows), Int32(newSize.columns))
        size = Size(columns: Int(opscope_maxx(window)), rows: Int(opscope_maxy(window)))
        renderer.invalidate()
    }

    /// What curses believes is on the screen, one string per row (wide
    /// characters once each, like `CellGrid.lines`). For tests.
    public func screenLines() -> [String] {
        isClosed ? [] : renderer.windowLines()
    }

    // MARK: - Input

    /// Every key waiting to be read, decoded, without blocking. Call when
    /// standard input is readable. A `.resize` (curses noticed a new size)
    /// has already updated `size` and scheduled a full redraw. Mouse
    /// reports become `.mouse` (a primary press) or `.wheel`, or nothing;
    /// never keys, in whichever format the terminal sent them.
    public func readKeys() -> [Key] {
        guard !isClosed else { return [] }
        var items: [MouseReportScanner.Item] = []
        var reports: [MouseReport?] = []  // what getmouse said, per KEY_MOUSE, in order
        var code: wint_t = 0
        while true {
            let status = wget_wch(window, &code)
            if status == ERR { break }
            if status == KEY_CODE_YES && Int32(bitPattern: code) == KEY_MOUSE {
                var event = MEVENT()
                reports.append(
                    getmouse(&event) == OK
                        ? MouseReport(column: Int(event.x), row: Int(event.y), buttonState: event.bstate) : nil)
            }
            items += mouseScanner.feed(RawInput(status: status, code: code))
        }
        items += mouseScanner.endOfInput()
        var keys: [Key] = []
        for item in items {
            let key: Key?
            switch item {
            case .mouse(let report):
                key = KeyDecoder.key(for: report)
            case .input(let input) where input.status == KEY_CODE_YES && Int32(bitPattern: input.code) == KEY_MOUSE:
                key = reports.isEmpty ? nil : reports.removeFirst().flatMap(KeyDecoder.key(for:))
            case .input(let input):
                key = KeyDecoder.decode(status: input.status, code: input.code)
            }
            guard let key else { continue }
            if key == .resize {
                size = Size(columns: Int(opscope_maxx(window)), rows: Int(opscope_maxy(window)))
                renderer.invalidate()
            }
            keys.append(key)
        }
        return keys
    }

    // MARK: - Output accounting

    /// Headless only: bytes ncurses has written to the output so far
    /// (terminal set-up included); 0 for a real terminal. Measure a frame as
    /// the difference before and after `flush`.
    public var bytesWritten: Int {
        guard let outputFile else { return 0 }
        fflush(outputFile)
        var info = stat()
        guard fstat(fileno(outputFile), &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// Headless only: everything written so far, for inspecting escape sequences.
    public var outputBytes: [UInt8] {
        guard let outputFile else { return [] }
        let count = bytesWritten
        var bytes = [UInt8](repeating: 0, count: count)
        let n = pread(fileno(outputFile), &bytes, count, 0)
        return Array(bytes.prefix(max(0, n)))
    }

    // MARK: - Closing

    /// Restores the terminal (cursor, modes, main screen) and ends curses.
    /// Safe to call more than once; deinit calls it too.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if !isHeadless { TerminalRescue.disarm() }
        endwin()
        if let screen {
            delscreen(screen)
            self.screen = nil
        }
        if let outputFile { fclose(outputFile) }
        if let inputFile { fclose(inputFile) }
        Self.anyOpen.store(false, ordering: .releasing)
    }

    isolated deinit {
        close()
    }
}
