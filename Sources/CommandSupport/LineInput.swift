import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lines of standard input read straight from its file descriptor, a
/// byte at a time: unlike `readLine()`, nothing past the line is taken
/// into a buffer of this process, so what was typed or piped ahead is
/// still there for the process that comes next (an opscope that replaces
/// this one, `execv`).
///
/// A read waits in `poll(2)` on the input and on a stop request's
/// descriptor together, so a signal ends the wait at once, whatever the
/// input is (a terminal, a pipe or a FIFO that stays open, a file).
package enum LineInput {
    /// What a read gave.
    package enum Reading: Equatable, Sendable {
        /// A line, without its newline (a final `\r` dropped too); invalid
        /// UTF-8 repaired.
        case line(String)
        /// The end of the input, with nothing read.
        case end
        /// A stop was requested (a signal) before a whole line came: the
        /// status to end with.
        case stopped(ExitStatus)
    }

    /// The next line of `fileDescriptor` (standard input), unless `stop`
    /// is requested first.
    package static func readLine(
        from fileDescriptor: Int32 = STDIN_FILENO, stop: StopRequest = .process
    ) -> Reading {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            if let status = stop.status { return .stopped(status) }
            guard waitForInput(fileDescriptor, stop: stop) else { continue }
            let count = read(fileDescriptor, &byte, 1)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count == 1 else { return bytes.isEmpty ? .end : .line(text(bytes)) }
            if byte == UInt8(ascii: "\n") { return .line(text(bytes)) }
            bytes.append(byte)
        }
    }

    /// Waits until `fileDescriptor` has a byte, its end or an error to
    /// read (true), or a stop is requested or a signal interrupted the
    /// wait (false: look at the request again).
    private static func waitForInput(_ fileDescriptor: Int32, stop: StopRequest) -> Bool {
        var fds = [
            pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        // Without a stop descriptor (no pipe could be made), a request is
        // seen within a second.
        let polled = poll(&fds, stop.descriptor >= 0 ? 2 : 1, stop.descriptor >= 0 ? -1 : 1000)
        if polled < 0 {
            // EINTR: a signal's handler ran (the watch takes it). Any other
            // failure (the input cannot be polled): the read says what it is.
            return errno != EINTR
        }
        if stop.descriptor >= 0, fds[1].revents != 0 { return false }
        return fds[0].revents != 0
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
