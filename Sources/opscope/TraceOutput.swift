import CommandSupport
import CursesBackend
import Dispatch
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
final class TraceOutput: Sendable {
    /// Standard output is a terminal.
    let isTerminal: Bool
    private let buffer: Mutex<OutputBuffer>

    init(fileDescriptor: Int32 = STDOUT_FILENO) {
        isTerminal = isatty(fileDescriptor) == 1
        buffer = Mutex(OutputBuffer(fileDescriptor: fileDescriptor))
    }

    /// Appends with `body`, then writes what is due: everything on a
    /// terminal, a full buffer otherwise.
    func append(_ body: (inout OutputBuffer) -> Void) {
        let isTerminal = isTerminal
        buffer.withLock { out in
            body(&out)
            if isTerminal { out.flush() } else { out.flushIfFull() }
        }
    }

    /// Appends with `body` and writes everything: the end of the trace.
    /// Returns the failure of a write, in words, if one failed.
    func finish(_ body: (inout OutputBuffer) -> Void) -> String? {
        buffer.withLock { out in
            body(&out)
            out.flush()
            return out.failureText
        }
    }

    /// Writes what the buffer holds, unless the writer holds the lock (it
    /// may be blocked writing to a full pipe): a signal's last resort when
    /// the main thread does not answer. True when it wrote.
    func flushIfAvailable() -> Bool {
        buffer.withLockIfAvailable { out in out.flush() } != nil
    }
}

/// Ends a trace stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT without
/// losing what it had written: the main thread is asked to write what it
/// has and exit with 128 + the signal's number; if it does not within
/// `SignalWatch.grace` (a main-queue operation of the scenario may hold
/// it), the output is written from the watch's thread and the process
/// exits with the same status.
enum TraceInterruption {
    /// Starts the watch (once per process). `interrupted` runs on the main
    /// queue with the signal's name and the exit status, and must exit.
    static func install(
        output: TraceOutput, interrupted: @escaping @MainActor @Sendable (_ signal: String, _ status: Int32) -> Void
    ) {
        _ = SignalWatch.start(
            deliver: { event in
                guard let status = SignalWatch.exitStatus(for: event) else { return }
                let name = Self.name(of: event)
                DispatchQueue.main.async { MainActor.assumeIsolated { interrupted(name, status) } }
            },
            lastResort: {
                let wrote = output.flushIfAvailable()
                return "opscope: trace stopped; the main thread did not answer within \(SignalWatch.grace) s "
                    + (wrote
                        ? "(a main-queue operation may be holding it): the complete lines so far were written\n"
                        : "and holds the output: what it had not written yet is lost\n")
            })
    }

    static func name(of event: SignalWatch.Event) -> String {
        switch event {
        case .interrupt: "SIGINT"
        case .terminate: "SIGTERM"
        case .hangUp: "SIGHUP"
        case .quit: "SIGQUIT"
        case .stop: "SIGTSTP"
        case .resumed: "SIGCONT"
        case .resize: "SIGWINCH"
        }
    }
}
