import Foundation

/// Runs a program and waits for it, with posix_spawn and waitpid.
///
/// Not Foundation's `Process` for tmux: its wait never saw a tmux client
/// exit when that client forked off the tmux server (the exited client
/// stayed a zombie), and the caller hung. Standard input and error are
/// /dev/null; standard output too, unless captured. Capture only from
/// commands that start no server: a server inherits the first client's
/// descriptors, and a pipe there would never reach end-of-file.
package enum Spawn {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns the exit status (128 + signal when killed) and what the
    /// program printed on standard output when `captureOutput`.
    package static func run(_ path: String, _ arguments: [String], captureOutput: Bool = false) throws -> (
        Int32, String
    ) {
        let finished = try launch(path, arguments, captureOutput: captureOutput)
        return (finished.status, finished.output)
    }

    /// What a finished program did, as measured from outside.
    package struct Measured {
        package var status: Int32
        package var output: String
        /// Real seconds from just before the spawn to the end of the wait.
        package var seconds: Double
        /// The child's peak resident set size (`ru_maxrss`), in bytes.
        package var peakResidentBytes: Int
    }

    /// Runs the program like `run` and measures its whole process.
    package static func measure(_ path: String, _ arguments: [String]) throws -> Measured {
        try launch(path, arguments, captureOutput: false)
    }

    private static func launch(_ path: String, _ arguments: [String], captureOutput: Bool) throws -> Measured {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if captureOutput {
            guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") }
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        closeInheritedDescriptors(&actions)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = posix_spawnattr_t()
        startsWithDefaultSignals(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var pid = pid_t()
        let began = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        if captureOutput { close(fds[1]) }
        guard spawned == 0 else {
            if captureOutput { close(fds[0]) }
            throw Failure(description: "cannot start \(path): error \(spawned)")
        }
        var output = Data()
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fds[0], &buffer, buffer.count)
                if n <= 0 { break }
                output.append(contentsOf: buffer[0..<n])
            }
            close(fds[0])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measured(
            status: exitCode, output: String(decoding: output, as: UTF8.self), seconds: seconds,
            peakResidentBytes: usage.ru_maxrss * 1024)
    }

    /// Makes `attributes` (to be destroyed by the caller) start the child
    /// with every signal at its default action and none blocked: both
    /// survive exec, and a tmux server that inherited a blocked SIGTERM
    /// could not stop itself on kill-server.
    package static func startsWithDefaultSignals(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_init(&attributes)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// Closes every descriptor from 3 up in the child (glibc 2.34's
    /// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc
    /// module does not expose, looked up at run time). Without it the child
    /// inherits every descriptor this process has open without close-on-exec
    /// (Foundation's pipes among them), and a tmux server started this way
    /// kept another command's output pipe open for good: its reader never
    /// saw end-of-file.
    package static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, 3)
    }
}
