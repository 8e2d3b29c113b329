import CNCurses
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Puts the terminal back without ncurses: the shell's terminal settings
/// and the escape strings that leave the interface's modes (keypad
/// transmit, mouse reports, hidden cursor, attributes, the alternate
/// screen), saved as the session opens and written with `write(2)` and
/// `tcsetattr(3)` alone, both async-signal-safe. For a crash signal's
/// handler, for a quit while the main thread is blocked (and so cannot run
/// `endwin`), and for a stop (Ctrl-Z) and the continue after it.
///
/// Storage is raw memory, written while the session opens, before
/// `active` is set with release ordering; afterwards only read by whoever
/// saw `active` true with acquire ordering. `nonisolated(unsafe)` because
/// that write-then-publish discipline is what makes it safe.
enum TerminalRescue {
    /// A real terminal session is open: what is saved here applies.
    static let active = Atomic<Bool>(false)

    private static let capacity = 512
    nonisolated(unsafe) private static let shellModes: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        p.initialize(to: termios())
        return p
    }()
    nonisolated(unsafe) private static let programModes: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        p.initialize(to: termios())
        return p
    }()
    nonisolated(unsafe) private static let leaving = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static let entering = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var leavingCount = 0
    nonisolated(unsafe) private static var enteringCount = 0
    nonisolated(unsafe) private static var haveShellModes = false

    /// Before ncurses starts: the shell's terminal settings.
    static func saveShellModes() {
        haveShellModes = tcgetattr(STDIN_FILENO, shellModes) == 0
    }

    /// Once the session is set up (on the main thread, ncurses current):
    /// turns the terminal's flow control off (Ctrl-S and Ctrl-Q are keys
    /// of the interface, and a Ctrl-S must never stop its output: the main
    /// thread would block writing a frame), keeps its terminal settings and
    /// the strings to leave and re-enter it. Then marks the rescue active.
    static func capture(mouse: Bool) {
        if tcgetattr(STDIN_FILENO, programModes) == 0 {
            programModes.pointee.c_iflag &= ~tcflag_t(IXON | IXOFF)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, programModes)
        }
        func string(_ name: String) -> [UInt8] {
            guard let value = tigetstr(name), Int(bitPattern: value) != -1 else { return [] }
            return Array(String(cString: value).utf8)
        }
        // Mouse reports off: click tracking and the SGR format.
        let mouseOff: [UInt8] = mouse ? Array("\u{1B}[?1006l\u{1B}[?1000l".utf8) : []
        let leave = string("rmkx") + mouseOff + string("sgr0") + string("cnorm") + string("rmcup")
        let enter = string("smcup") + string("civis") + string("smkx")
        leavingCount = store(leave, in: leaving)
        enteringCount = store(enter, in: entering)
        active.store(true, ordering: .releasing)
    }

    private static func store(_ bytes: [UInt8], in buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let count = min(bytes.count, capacity)
        for i in 0..<count { buffer[i] = bytes[i] }
        return count
    }

    /// The session closed the ordinary way: nothing is left to rescue.
    static func disarm() {
        active.store(false, ordering: .releasing)
    }

    /// Leaves the interface's modes for good, once: true when it did.
    /// Async-signal-safe.
    @discardableResult
    static func restoreForExit() -> Bool {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        leave()
        return true
    }

    /// Leaves the interface's modes for a stop, keeping the rescue armed
    /// for the continue. Async-signal-safe.
    static func leaveForStop() -> Bool {
        guard active.load(ordering: .acquiring) else { return false }
        leave()
        return true
    }

    /// Re-enters the interface's modes after a continue (the screen itself
    /// is repainted by the session, on the main thread).
    static func enterAfterContinue() -> Bool {
        guard active.load(ordering: .acquiring) else { return false }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, programModes)
        writeAll(entering, enteringCount)
        return true
    }

    /// Never blocks for long: output stopped by a Ctrl-S (flow control was
    /// on before the session, or the shell's modes are back) is started
    /// again first, the modes change at once rather than after the output
    /// drains, and each write waits at most `writeWait` for the terminal.
    private static func leave() {
        _ = tcflow(STDOUT_FILENO, TCOON)
        writeAll(leaving, leavingCount)
        if haveShellModes { _ = tcsetattr(STDIN_FILENO, TCSANOW, shellModes) }
    }

    /// How long a rescue's write waits for the terminal to take bytes.
    static let writeWait: Int32 = 200  // milliseconds

    /// Writes what it can of `buffer` within `writeWait` a step, and gives
    /// up (the program is leaving) rather than block. Async-signal-safe.
    private static func writeAll(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) {
        var done = 0
        while done < count {
            var ready = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, writeWait)
            if polled < 0 && errno == EINTR { continue }
            guard polled == 1, ready.revents & Int16(POLLOUT) != 0 else { return }
            let n = write(STDOUT_FILENO, buffer + done, count - done)
            if n > 0 {
                done += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
