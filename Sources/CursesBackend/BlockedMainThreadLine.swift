import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the screen says while a wait of the scenario blocks the main
/// thread (`at TIME wait OP`), kept up by `MainThreadStandIn`'s thread:
/// the main thread, which reads the keys and draws, is the one blocked.
///
/// It touches neither ncurses nor anything of the main thread's: it
/// rewrites one line of the terminal (the key bar's message line) with
/// escape sequences, and reads the terminal's bytes itself. `q` leaves at
/// once, terminal restored (the main thread may never come back: a
/// deadlock); `r`, once the wait can never return, starts opscope again
/// with the same command line (a new process: this one's main thread is
/// lost); other keys typed meanwhile are dropped, as a frozen app drops
/// its touches, and the line says so. Ctrl-C is the signal watch's
/// (`SignalWatch`). Once the wait returns, the main thread repaints the
/// whole screen.
public final class BlockedMainThreadLine: Sendable {
    private let row: Int
    private let columns: Int
    private let call: String
    /// Whether nothing can end the wait any more (the run stalled in it).
    public let neverReturns: @Sendable () -> Bool
    private let began = DispatchTime.now().uptimeNanoseconds
    /// The command line `r` starts.
    private let restart: [String]

    /// `row`: 0-based; `call`: the Foundation call the main thread is in;
    /// `neverReturns`: whether nothing can end the wait any more (the run
    /// stalled while it waits); `restart`: the command line `r` starts
    /// (the program's name first).
    public init(
        row: Int, columns: Int, call: String, neverReturns: @escaping @Sendable () -> Bool,
        restart: [String] = CommandLine.arguments
    ) {
        self.row = row
        self.columns = columns
        self.call = call
        self.neverReturns = neverReturns
        self.restart = restart
    }

    /// One turn of the stand-in: the keys typed since the last, then the line.
    public func tick() {
        let never = neverReturns()
        switch readKeys() {
        case UInt8(ascii: "q")?: leave()
        case UInt8(ascii: "r")? where never: startAgain()
        default: break
        }
        drawLine()
    }

    /// The line as it stands now.
    public func drawLine() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        write(Self.text(call: call, seconds: seconds, neverReturns: neverReturns(), width: columns - 2))
    }

    /// The bytes typed since the last look, without waiting (for a
    /// stand-in that reads the keys itself, `RawKeyDecoder`).
    public func readBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 {
            guard read(STDIN_FILENO, &byte, 1) == 1 else { break }
            bytes.append(byte)
        }
        return bytes
    }

    /// The line's words, for `seconds` of real time blocked: the longest
    /// form that fits `width` (the shortest one otherwise).
    public static func text(call: String, seconds: Double, neverReturns: Bool, width: Int) -> String {
        let time = String(format: "%.1f", seconds) + "s"
        var forms: [String]
        if !neverReturns {
            forms = [
                "the main thread is blocked in \(call) for \(time): the screen is frozen, keys are dropped; q leaves",
                "main thread blocked \(time) in \(call); q leaves",
                "main thread blocked \(time); q leaves",
            ]
        } else if seconds < 3 {
            forms = [
                "the main thread is blocked in \(call) for \(time): a deadlock, it never returns; r starts opscope "
                    + "again, q leaves",
                "main thread blocked \(time) in \(call): deadlock; r again, q leaves",
                "main thread deadlocked \(time); r again, q leaves",
            ]
        } else {
            // What iOS does to an app blocked this long.
            forms = [
                "the main thread is blocked in \(call) for \(time): a deadlock, it never returns; on iOS the "
                    + "watchdog would end the app (0x8badf00d); r starts again, q leaves",
                "main thread blocked \(time) in \(call): deadlock; iOS watchdog: 0x8badf00d; r again, q leaves",
                "main thread deadlocked \(time); iOS watchdog: 0x8badf00d; r again, q leaves",
            ]
        }
        return forms.first { $0.count <= width } ?? forms[forms.count - 1]
    }

    /// Reads what was typed without waiting: `q` (or `Q`) if it was,
    /// else `r` if it was, else nil.
    private func readKeys() -> UInt8? {
        var asked: UInt8?
        for byte in readBytes() {
            if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") { asked = UInt8(ascii: "q") }
            if byte == UInt8(ascii: "r"), asked == nil { asked = byte }
        }
        return asked
    }

    /// Replaces this process with a new opscope that opens the same
    /// scenario the same way, terminal restored first; if that fails,
    /// leaves.
    public func startAgain() -> Never { replace(with: restart) }

    /// Replaces this process with a new opscope run with `arguments` (the
    /// first is the program's name), terminal restored first; if that
    /// fails, leaves.
    public func replace(with arguments: [String]) -> Never {
        _ = TerminalRescue.restoreForExit()
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv("/proc/self/exe", &pointers)
        leave()
    }

    private func write(_ text: String) {
        let clipped = String(text.prefix(max(0, columns - 2)))
        // Save the cursor, go to the row, reverse video, the text, clear to
        // the end of the line, restore.
        let line = "\u{1B}7\u{1B}[\(row + 1);1H\u{1B}[0;7m \(clipped) \u{1B}[0m\u{1B}[K\u{1B}8"
        _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    }

    public func leave() -> Never {
        _ = TerminalRescue.restoreForExit()
        let message = "opscope: left while the main thread was blocked in \(call); the run did not end\n"
        _ = message.utf8CString.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        // The one exit outside `main` but the signal watch's: the main
        // thread, which would return the status there, is the one blocked.
        _exit(0)
    }
}
