import Foundation

/// Runs a program to its end or to a time limit, keeping what it wrote on
/// standard output and standard error apart.
///
/// Made for running code a user wrote (a kata's compiled solution, the
/// compiler itself): such a program may loop, crash, write megabytes or
/// start children of its own, and none of that may hang or kill opscope.
/// So both pipes are read together (a child filling one while opscope
/// waits on the other would block for good); the child leads a process
/// group of its own, and when the time is up, or once it has ended, the
/// whole group gets SIGKILL, so nothing it started outlives the run; and
/// the child is always reaped. Standard input is /dev/null, or a
/// descriptor the caller writes to (`input`). Not `Spawn`,
/// which reads one pipe and waits without a limit, nor Foundation's
/// `Process` (see `Spawn` for why).
package enum ChildProcess {
    /// How the child ended.
    package enum Ending: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal of this number killed it (not opscope's SIGKILL at the
        /// time limit: that is `timedOut`).
        case signalled(Int32)
        /// It had not ended when the time given was up; its group was killed.
        case timedOut(afterSeconds: Double)
        /// opscope was asked to stop (a signal, `StopRequest`) while it ran;
        /// its group was killed.
        case stopped

        /// `exit status 1`, `signal 11`, `no end after 60 seconds`: for a
        /// message about a run that went wrong.
        package var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            case .timedOut(let seconds):
                "no end after \(seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds))" : "\(seconds)") seconds"
            case .stopped: "stopped"
            }
        }
    }

    /// What a run did, as seen from outside.
    package struct Outcome: Sendable {
        /// How it ended: an exit, a signal, or the time limit.
        package var status: Ending
        /// Standard output, whole unless `stdoutCut`.
        package var stdout: [UInt8]
        /// Standard error, whole unless `stderrCut`.
        package var stderr: [UInt8]
        /// True when standard output was longer than the bytes kept: the
        /// rest was read and dropped.
        package var stdoutCut: Bool
        /// True when standard error was longer than the bytes kept.
        package var stderrCut: Bool
        /// Real seconds from just before the start to the reaping.
        package var seconds: Double
    }

    /// The child could not be started at all (a missing program, a
    /// missing working directory). A child that starts and then fails is
    /// an `Outcome`, never this.
    package struct Failure: Error, CustomStringConvertible {
        /// `cannot start PATH: WHY`, for the user.
        package var description: String
    }

    /// The bytes kept of each stream by default: 8 MiB.
    package static let defaultKeep = 8 << 20

    /// Runs `path` (a path, not looked up in PATH; a relative one is taken
    /// from `workingDirectory`) with `arguments` and waits at most
    /// `timeout` seconds for it to end.
    ///
    /// `environment` nil passes opscope's own; `workingDirectory` nil
    /// keeps opscope's. At most `keep` bytes of each stream are kept.
    /// `lines`, when given, is called on the calling thread with each line
    /// of standard output as it arrives (kept or not), in order, without
    /// its newline; a last line without a newline comes when the stream
    /// ends. `input`, when given, is the child's standard input (the caller
    /// keeps its other end, and closes this one once the call returned).
    /// `stop`, when given, ends the run at once when it is asked for (the
    /// child's group killed, `Ending.stopped`), so that a signal to opscope
    /// leaves nothing of the child running. With `stopGrace`, the group is
    /// sent SIGTERM first and given that many seconds to end before the
    /// SIGKILL: for a child that is opscope itself, whose own children lead
    /// groups of their own and go only when it stops them.
    /// Throws `Failure` only when the program cannot be started.
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil, timeout: Double, keep: Int = defaultKeep, stop: StopRequest? = nil,
        stopGrace: Double? = nil, input: Int32? = nil, lines: ((String) -> Void)? = nil
    ) throws -> Outcome {
        let began = DispatchTime.now().uptimeNanoseconds
        let (pid, outFd, errFd) = try start(path, arguments, environment, workingDirectory, input)
        var streams = [Stream(fd: outFd, keep: keep), Stream(fd: errFd, keep: keep)]
        var splitter = LineSplitter()
        // At most ten years, so that any Double (infinity too) is a deadline.
        let deadline = began + UInt64(timeout > 0 ? min(timeout, 3e8) * 1e9 : 0)
        var ended = false
        var timedOut = false
        var stopped = false
        while true {
            if !ended, stop?.status != nil {
                stopped = true
                if let stopGrace {
                    kill(-pid, SIGTERM)
                    let until = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, min(stopGrace, 60)) * 1e9)
                    while !hasEnded(pid) && DispatchTime.now().uptimeNanoseconds < until { usleep(10_000) }
                }
                kill(-pid, SIGKILL)
                break
            }
            if !ended && hasEnded(pid) {
                ended = true
                // Whatever it left running goes too: its pipe ends with it.
                kill(-pid, SIGKILL)
            }
            let open = streams.filter { $0.fd >= 0 }.count
            if ended && open == 0 { break }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                // An ended child whose pipe something outside its group
                // still holds: keep its status, not a time-out.
                if !ended {
                    timedOut = true
                    kill(-pid, SIGKILL)
                }
                break
            }
            // Wake up now and then to see whether the child has ended.
            let waitMs = Int32(min((deadline - now + 999_999) / 1_000_000, open == 0 ? 5 : 100))
            if open == 0 {
                poll(nil, 0, waitMs)
                continue
            }
            // The stop's pipe too, last: readable once a stop is asked for.
            var fds = streams.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: stop?.descriptor ?? -1, events: Int16(POLLIN), revents: 0))
            let ready = poll(&fds, nfds_t(fds.count), waitMs)
            guard ready > 0 else { continue }
            for index in streams.indices where fds[index].revents != 0 && streams[index].fd >= 0 {
                let fresh = streams[index].readSome()
                if index == 0, let lines { splitter.feed(fresh, streams[0].fd < 0, lines) }
            }
        }
        for index in streams.indices where streams[index].fd >= 0 {
            close(streams[index].fd)
            streams[index].fd = -1
        }
        if let lines { splitter.feed([], true, lines) }
        let status = reap(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        return Outcome(
            status: stopped ? .stopped : timedOut ? .timedOut(afterSeconds: timeout) : status, stdout: streams[0].kept,
            stderr: streams[1].kept, stdoutCut: streams[0].cut, stderrCut: streams[1].cut, seconds: seconds)
    }

    /// One of the child's output pipes, read without blocking.
    private struct Stream {
        var fd: Int32
        let keep: Int
        var kept: [UInt8] = []
        var cut = false

        /// Reads what is there; closes the pipe at its end. Returns the
        /// bytes read, kept or not.
        mutating func readSome() -> ArraySlice<UInt8> {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
            guard count > 0 else {
                close(fd)
                fd = -1
                return []
            }
            let room = max(0, keep - kept.count)
            if count > room { cut = true }
            kept.append(contentsOf: buffer[0..<min(count, room)])
            return buffer[0..<count]
        }
    }

    /// Cuts standard output into lines for a live reader.
    private struct LineSplitter {
        var partial: [UInt8] = []
        var finished = false

        /// Passes each whole line in `bytes` (after what came before) to
        /// `deliver`; at the end, `atEnd`, passes what is left as a line.
        mutating func feed(_ bytes: ArraySlice<UInt8>, _ atEnd: Bool, _ deliver: (String) -> Void) {
            guard !finished else { return }
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                partial.append(contentsOf: bytes[start..<newline])
                deliver(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            partial.append(contentsOf: bytes[start...])
            if atEnd {
                finished = true
                if !partial.isEmpty { deliver(String(decoding: partial, as: UTF8.self)) }
            }
        }
    }

    /// Starts the child in a process group of its own and returns its pid
    /// and the read ends of its standard output and error.
    private static func start(
        _ path: String, _ arguments: [String], _ environment: [String: String]?, _ workingDirectory: String?,
        _ input: Int32?
    ) throws -> (pid_t, Int32, Int32) {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw Failure(description: "cannot start \(path): no pipe (\(errorText()))") }
        guard pipe(&errPipe) == 0 else {
            let why = errorText()
            for fd in outPipe { close(fd) }
            throw Failure(description: "cannot start \(path): no pipe (\(why))")
        }
        // Another thread's spawn must not inherit them; opscope's ends must
        // not wait on a slow child.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(outPipe[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(errPipe[0], F_SETFL, O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var problem: String?
        if let workingDirectory {
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") {
                _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, workingDirectory)
            } else {
                problem = "this C library cannot start a program in another folder"
            }
        }
        // As in `Spawn`: the child inherits no other descriptor of ours.
        Spawn.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        Spawn.startsWithDefaultSignals(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { pairs in
            pairs.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid = pid_t()
        var spawned: Int32 = 0
        if problem == nil {
            spawned =
                envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
                ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        close(outPipe[1])
        close(errPipe[1])
        if problem == nil && spawned != 0 {
            problem = String(cString: strerror(spawned))
            if let workingDirectory, access(workingDirectory, F_OK) != 0 { problem = "no folder \(workingDirectory)" }
        }
        if let problem {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "cannot start \(path): \(problem)")
        }
        return (pid, outPipe[0], errPipe[0])
    }

    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    /// Whether the child has ended, leaving it unreaped: its pid stays
    /// its group's, so the group can still be killed by that number.
    private static func hasEnded(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == -1 {
            if errno != EINTR { return true }
        }
        return info._sifields._kill.si_pid == pid
    }

    /// Waits for the child and says how it ended.
    private static func reap(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
