import Synchronization
import TextKit

#if canImport(Glibc)
    import Glibc
#endif

/// Where written bytes go: a file descriptor in the program, memory in a
/// test.
package protocol ByteSink: Sendable {
    /// Writes all of `bytes`; nil when it did, else the `errno` of what failed.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32?
}

/// A file descriptor as a `ByteSink`: `write(2)` until everything is
/// written, again after an interruption.
package struct FileDescriptorSink: ByteSink {
    package let fileDescriptor: Int32

    package init(_ fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return n < 0 ? errno : EIO
            }
        }
        return nil
    }
}

/// Keeps what is written to it, in memory; or, given `failure`, fails
/// every write with that `errno` (a full disk: `ENOSPC`).
package final class MemorySink: ByteSink {
    private let written = Mutex<[UInt8]>([])
    private let failure: Int32?

    package init(failing failure: Int32? = nil) { self.failure = failure }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        if let failure { return failure }
        written.withLock { $0.append(contentsOf: bytes) }
        return nil
    }

    /// Keeps `text` as written (standing in for standard error).
    package func write(_ text: String) {
        written.withLock { $0.append(contentsOf: text.utf8) }
    }

    /// Everything written so far.
    package var bytes: [UInt8] { written.withLock { $0 } }
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Bytes on their way to a sink (a file descriptor), written in large
/// writes: a stream of a million short lines costs a few hundred
/// `write`s, not a million.
package struct OutputBuffer {
    package var bytes: [UInt8] = []
    private let sink: any ByteSink
    private let flushAt: Int
    /// Set when a write failed (standard output closed, disk full): what
    /// `write(2)` said. Nothing is written after it.
    package private(set) var failure: Int32?
    /// How many times the buffer was written out (or dropped after a
    /// failure): a holder that times how long bytes wait sees a flush made
    /// inside an append.
    package private(set) var flushes = 0

    package init(sink: any ByteSink, flushAt: Int = 1 << 20) {
        self.sink = sink
        self.flushAt = flushAt
        bytes.reserveCapacity(flushAt + 4096)
    }

    package init(fileDescriptor: Int32, flushAt: Int = 1 << 20) {
        self.init(sink: FileDescriptorSink(fileDescriptor), flushAt: flushAt)
    }

    /// Text (a trace's lines, its report, a timeline, a graph): its lines
    /// kept, any other control character escaped (`TerminalText`), so that
    /// nothing a file held reaches a terminal raw. Bytes appended to
    /// `bytes` (JSON, escaped by `JSONBytes`) are not looked at.
    package mutating func append(_ text: String) { bytes.append(contentsOf: TerminalText.plainLines(text).utf8) }

    /// Writes when the buffer holds `flushAt` bytes or more.
    package mutating func flushIfFull() {
        if bytes.count >= flushAt { flush() }
    }

    /// Writes everything buffered. A buffer that grew far past `flushAt`
    /// (a recording's header holds the whole scenario: 50 MB for a file of
    /// 2.5 million operations) goes back to its usual size, not to be kept
    /// for the whole run.
    package mutating func flush() {
        defer {
            flushes &+= 1
            if bytes.capacity > 4 * flushAt {
                bytes = []
                bytes.reserveCapacity(flushAt + 4096)
            } else {
                bytes.removeAll(keepingCapacity: true)
            }
        }
        guard failure == nil, !bytes.isEmpty else { return }
        let sink = sink
        failure = bytes.withUnsafeBytes { sink.write($0) }
    }

    /// What the failure was, in words.
    package var failureText: String? {
        failure.map { String(cString: strerror($0)) }
    }
}

/// Standard input, output and error, as the program found them.
package enum StandardDescriptors {
    /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed.
    package static func guardClosed() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }
}
