import CommandSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A trace's standard output, shared between the writer on the main thread
/// and the end of a trace stopped by a signal.
///
/// The writer appends whole events, a batch at a time under the lock, so
/// what the buffer holds between batches is always complete lines (for
/// jsonl, the header first). On a terminal each batch is written at once,
/// so the run shows as it goes; into a pipe or a file it is written in
/// large writes, which a stream of a million lines needs.
package final class TraceOutput: Sendable {
    /// Each batch is written as it comes (standard output is a terminal).
    package let isTerminal: Bool
    private let buffer: Mutex<OutputBuffer>

    /// Writes into `sink`; in blocks of `flushAt` bytes unless `isTerminal`.
    package init(sink: any ByteSink, isTerminal: Bool = false, flushAt: Int = 1 << 20) {
        self.isTerminal = isTerminal
        buffer = Mutex(OutputBuffer(sink: sink, flushAt: flushAt))
    }

    /// Standard output (or another descriptor), a terminal or not.
    package convenience init(fileDescriptor: Int32 = STDOUT_FILENO) {
        self.init(sink: FileDescriptorSink(fileDescriptor), isTerminal: isatty(fileDescriptor) == 1)
    }

    /// Appends with `body`, then writes what is due: everything on a
    /// terminal, a full buffer otherwise.
    package func append(_ body: (inout OutputBuffer) -> Void) {
        let isTerminal = isTerminal
        buffer.withLock { out in
            body(&out)
            if isTerminal { out.flush() } else { out.flushIfFull() }
        }
    }

    /// Appends with `body` and writes everything: the end of the trace.
    /// Returns the failure of a write, in words, if one failed.
    package func finish(_ body: (inout OutputBuffer) -> Void) -> String? {
        buffer.withLock { out in
            body(&out)
            out.flush()
            return out.failureText
        }
    }

    /// Writes what the buffer holds, unless the writer holds the lock (it
    /// may be blocked writing to a full pipe): a signal's last resort when
    /// the main thread does not answer. True when it wrote.
    package func flushIfAvailable() -> Bool {
        buffer.withLockIfAvailable { out in out.flush() } != nil
    }
}
