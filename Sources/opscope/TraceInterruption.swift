import CommandSupport
import CursesBackend
import Dispatch
import Tracing

/// Ends a trace stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT without
/// losing what it had written: the main thread is asked to write what it
/// has and end with 128 + the signal's number; if it does not within
/// `SignalWatch.grace` (a main-queue operation of the scenario may hold
/// it), the output is written from the watch's thread and the watch exits
/// the process with the same status.
enum TraceInterruption {
    /// Starts the watch (once per process). `interrupted` runs on the main
    /// queue with the signal's name and the status, and must end the trace.
    static func install(
        output: TraceOutput,
        interrupted: @escaping @MainActor @Sendable (_ signal: String, _ status: ExitStatus) -> Void
    ) {
        // A signal that came before (while the file was read) stops the
        // trace as one during it would.
        if case .stopped(let number)? = StopRequest.process.status, let event = event(of: number) {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { interrupted(name(of: event), .stopped(signal: number)) }
            }
        }
        SignalWatch.start(
            deliver: { event in
                guard let number = SignalWatch.signalNumber(for: event) else { return }
                let name = Self.name(of: event)
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { interrupted(name, .stopped(signal: number)) }
                }
            },
            lastResort: {
                let wrote = output.flushIfAvailable()
                return ProgramMessage.note(
                    "trace stopped; the main thread did not answer within \(SignalWatch.grace) s "
                        + (wrote
                            ? "(a main-queue operation may be holding it): the complete lines so far were written"
                            : "and holds the output: what it had not written yet is lost")
                ).line + "\n"
            })
    }

    /// The ending event of signal `number`.
    static func event(of number: Int32) -> SignalWatch.Event? {
        [SignalWatch.Event.interrupt, .terminate, .hangUp, .quit].first { SignalWatch.signalNumber(for: $0) == number }
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
