import CommandSupport
import Dispatch

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
/// large writes, which a stream of a million lines needs, and no byte
/// waits longer than `flushWithin` (a second) to be written: a slow run
/// is read from a pipe as it goes, and a SIGKILL loses at most a second.
package final class TraceOutput: Sendable {
    /// Each batch is written as it comes (standard output is a terminal).
    package let isTerminal: Bool
    /// The longest bytes wait in the buffer when not on a terminal (ns).
    private let flushWithin: UInt64
    /// A pthread mutex, not `Mutex`: the timer's thread shares it, and the
    /// thread sanitizer follows only the former (`PosixMutex`).
    private let state: PosixMutex<State>

    private struct State {
        var buffer: OutputBuffer
        /// When the oldest byte the buffer holds was appended (monotonic
        /// ns); nil when it holds none.
        var waitingSince: UInt64?
        /// Writes the buffer once its oldest byte waited `flushWithin`,
        /// when no append came to do it (a quiet run). Made at the first
        /// byte that waits; armed once per buffer filled, not per batch.
        var timer: (any DispatchSourceTimer)?
    }

    /// Writes into `sink`; in blocks of `flushAt` bytes unless `isTerminal`,
    /// each byte at most `flushWithin` after it was appended.
    package init(
        sink: any ByteSink, isTerminal: Bool = false, flushAt: Int = 1 << 20, flushWithin: Duration = .seconds(1)
    ) {
        self.isTerminal = isTerminal
        let (seconds, attoseconds) = flushWithin.components
        self.flushWithin = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
        state = PosixMutex(State(buffer: OutputBuffer(sink: sink, flushAt: flushAt)))
    }

    /// Standard output (or another descriptor), a terminal or not.
    package convenience init(fileDescriptor: Int32 = STDOUT_FILENO) {
        self.init(sink: FileDescriptorSink(fileDescriptor), isTerminal: isatty(fileDescriptor) == 1)
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// Appends with `body`, then writes what is due: everything on a
    /// terminal; otherwise a full buffer, or one whose oldest byte waited
    /// `flushWithin` already (else the timer is armed for that moment).
    package func append(_ body: (inout OutputBuffer) -> Void) {
        let isTerminal = isTerminal
        state.withLock { state in
            let flushes = state.buffer.flushes
            body(&state.buffer)
            if isTerminal {
                state.buffer.flush()
                return
            }
            state.buffer.flushIfFull()
            // Written out inside the append: what is left came after.
            if state.buffer.flushes != flushes { state.waitingSince = nil }
            guard !state.buffer.bytes.isEmpty else {
                state.waitingSince = nil
                return
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if let since = state.waitingSince {
                if now &- since >= flushWithin {
                    state.buffer.flush()
                    state.waitingSince = nil
                }
            } else {
                state.waitingSince = now
                arm(&state, at: now + flushWithin)
            }
        }
    }

    /// Appends with `body` and writes everything: the end of the trace.
    /// Returns the failure of a write, in words, if one failed.
    package func finish(_ body: (inout OutputBuffer) -> Void) -> String? {
        state.withLock { state in
            body(&state.buffer)
            state.buffer.flush()
            state.waitingSince = nil
            return state.buffer.failureText
        }
    }

    /// Writes what the buffer holds, unless the writer holds the lock (it
    /// may be blocked writing to a full pipe): a signal's last resort when
    /// the main thread does not answer. True when it wrote.
    package func flushIfAvailable() -> Bool {
        let wrote: Bool? = state.withLockIfAvailable { state in
            state.buffer.flush()
            state.waitingSince = nil
            return true
        }
        return wrote != nil
    }

    /// The timer fires at `deadline` (uptime ns), on a queue of its own:
    /// the main thread may be held by a wait of the scenario.
    private func arm(_ state: inout State, at deadline: UInt64) {
        if state.timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "opscope.trace-output"))
            timer.setEventHandler { [weak self] in self?.timerFired() }
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(20))
            timer.activate()
            state.timer = timer
        } else {
            state.timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(20))
        }
    }

    /// Writes the buffer if its oldest byte waited long enough; if bytes
    /// came since the last write but not that long ago, fires again then.
    private func timerFired() {
        state.withLock { state in
            guard let since = state.waitingSince else { return }
            guard !state.buffer.bytes.isEmpty else {
                state.waitingSince = nil
                return
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if now &- since >= flushWithin {
                state.buffer.flush()
                state.waitingSince = nil
            } else {
                arm(&state, at: since + flushWithin)
            }
        }
    }
}

extension TraceOutput {
    /// The error a trace says when standard output could not be written
    /// (`failure`, what `finish` returned).
    package static func cannotWrite(_ failure: String) -> String {
        "could not write the trace to standard output: \(failure)"
    }
}
