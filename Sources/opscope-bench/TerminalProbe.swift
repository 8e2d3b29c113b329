import CommandSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real program on a pseudo-terminal of the benchmark's own, watched
/// from outside: the time from just before the spawn until the bytes of
/// its first frame have arrived on the terminal, and its process, to
/// measure further (its CPU while idle). The program carries nothing for
/// the benchmark: what is timed is what a user's terminal would receive.
final class TerminalProbe {
    /// The pseudo-terminal's controlling side; the program has the other.
    private let master: Int32
    let pid: pid_t
    /// Real seconds from just before the spawn to the end of the first
    /// frame; nil when no frame came within the time allowed.
    private(set) var firstFrame: Double?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path arguments` on a new pseudo-terminal of `columns` ×
    /// `rows` cells (TERM=tmux-256color, as the frame figures) and waits
    /// up to `timeout` seconds for the first frame: the first burst of
    /// output that holds `marker` (text of the frame's last rows), ended
    /// by `quiet` seconds without a byte (a frame is written in one go;
    /// a paused scenario draws nothing more).
    init(
        _ path: String, _ arguments: [String], columns: Int, rows: Int, marker: String, timeout: Double = 5,
        quiet: Double = 0.2
    ) throws {
        guard let (master, follower) = Self.openPseudoTerminal() else {
            throw Failure(description: "no pseudo-terminal")
        }
        self.master = master
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, follower, O_RDWR, 0)
        }
        posix_spawn_file_actions_addclose(&actions, master)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "tmux-256color"
        environment["LANG"] = "C.UTF-8"
        environment["NO_COLOR"] = nil
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // Every signal at its default action and none blocked, as `Spawn`
        // starts a program: a blocked SIGTERM would outlive `stop()`.
        var attributes = posix_spawnattr_t()
        Spawn.startsWithDefaultSignals(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var child = pid_t()
        let began = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(master)
            throw Failure(description: "cannot start \(path): error \(spawned)")
        }
        pid = child
        firstFrame = waitForFrame(marker: Array(marker.utf8), began: began, timeout: timeout, quiet: quiet)
    }

    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias PTName = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// A new pseudo-terminal: its controlling side, open, and the path of
    /// the other. glibc's `posix_openpt`, `grantpt`, `unlockpt` and
    /// `ptsname_r`, which Swift's Glibc module does not expose (they need
    /// `_XOPEN_SOURCE`), looked up at run time.
    private static func openPseudoTerminal() -> (Int32, String)? {
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(nil, name).map { unsafeBitCast($0, to: type) }
        }
        guard let open = symbol("posix_openpt", as: OpenPT.self), let grant = symbol("grantpt", as: OpenPT.self),
            let unlock = symbol("unlockpt", as: OpenPT.self), let name = symbol("ptsname_r", as: PTName.self)
        else { return nil }
        let master = open(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        var path = [CChar](repeating: 0, count: 128)
        guard grant(master) == 0, unlock(master) == 0, name(master, &path, path.count) == 0 else {
            close(master)
            return nil
        }
        return (master, String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Reads the terminal until `marker` came and then `quiet` seconds
    /// passed without a byte; the frame ended with the last byte before
    /// that silence.
    private func waitForFrame(marker: [UInt8], began: UInt64, timeout: Double, quiet: Double) -> Double? {
        var received: [UInt8] = []
        var lastByte: UInt64?
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = began + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let found = lastByte != nil && received.contains(marker)
            var pending = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let wait = found ? Int32(quiet * 1000) : 50
            let ready = poll(&pending, 1, wait)
            if ready > 0 {
                let n = read(master, &buffer, buffer.count)
                guard n > 0 else { return nil }
                received += buffer[0..<n]
                lastByte = DispatchTime.now().uptimeNanoseconds
            } else if ready == 0, found, let lastByte {
                return Double(lastByte - began) / 1e9
            }
        }
        return nil
    }

    /// Reads and drops what the program writes meanwhile (so that it never
    /// blocks on a full terminal) for `seconds`.
    func drain(for seconds: Double) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while case let now = DispatchTime.now().uptimeNanoseconds, now < end {
            var pending = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, Int32(max(1, (end - now) / 1_000_000))) > 0 {
                guard read(master, &buffer, buffer.count) > 0 else { return }
            }
        }
    }

    /// Ends the program (SIGTERM, then waits for it) and closes the terminal.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        close(master)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the array.
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { start in
            self[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
