#if canImport(Glibc)
    import Glibc
#endif

/// Bytes on their way to a file descriptor, written in large writes: a
/// stream of a million short lines costs a few hundred `write`s, not a
/// million.
package struct OutputBuffer {
    package var bytes: [UInt8] = []
    private let fileDescriptor: Int32
    private let flushAt: Int
    /// Set when a write failed (standard output closed, disk full): what
    /// `write(2)` said. Nothing is written after it.
    package private(set) var failure: Int32?

    package init(fileDescriptor: Int32, flushAt: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.flushAt = flushAt
        bytes.reserveCapacity(flushAt + 4096)
    }

    package mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

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
            if bytes.capacity > 4 * flushAt {
                bytes = []
                bytes.reserveCapacity(flushAt + 4096)
            } else {
                bytes.removeAll(keepingCapacity: true)
            }
        }
        guard failure == nil else { return }
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let n = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    failure = n < 0 ? errno : EIO
                    return
                }
            }
        }
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
