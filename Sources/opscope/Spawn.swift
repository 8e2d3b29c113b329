import Foundation

/// Runs a program and waits for it, with posix_spawn and waitpid.
///
/// Not Foundation's `Process` for tmux: its wait never saw a tmux client
/// exit when that client forked off the tmux server (the exited client
/// stayed a zombie), and the caller hung. Standard input and error are
/// /dev/null; standard output too, unless captured. Capture only from
/// commands that start no server: a server inherits the first client's
/// descriptors, and a pipe there would never reach end-of-file.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Returns the exit status (128 + signal when killed) and what the
    /// program printed on standard output when `captureOutput`.
    static func run(_ path: String, _ arguments: [String], captureOutput: Bool = false) throws -> (Int32, String) {
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
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
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
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitCode, String(decoding: output, as: UTF8.self))
    }
}
