import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Delivers SIGINT, SIGTERM, SIGHUP and SIGWINCH to callbacks on a dispatch
/// queue, as events of the run loop rather than as asynchronous interrupts,
/// so the app quits or redraws from ordinary code (where calling ncurses is
/// safe). Each signal's default action is set to ignore (`SIG_IGN`), which
/// also keeps ncurses from installing its own handlers if this is done
/// before the session opens. SIGHUP (the terminal went away) is reported as
/// `terminate`. Keep the returned object alive; `cancel()` stops delivery.
public final class SignalWatch {
    private var sources: [any DispatchSourceSignal] = []

    /// - Parameters:
    ///   - queue: where the callbacks run (the main queue for the interface).
    ///   - interrupt: SIGINT (Ctrl-C when the terminal is in cbreak mode, or `kill -INT`).
    ///   - terminate: SIGTERM or SIGHUP.
    ///   - resize: SIGWINCH; call `TerminalSession.handleResize()` then redraw.
    public init(
        queue: DispatchQueue,
        interrupt: @escaping @Sendable () -> Void,
        terminate: @escaping @Sendable () -> Void,
        resize: @escaping @Sendable () -> Void
    ) {
        let table: [(Int32, @Sendable () -> Void)] = [
            (SIGINT, interrupt), (SIGTERM, terminate), (SIGHUP, terminate), (SIGWINCH, resize),
        ]
        for (sig, handler) in table {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }

    /// The same on the main queue, with main-actor callbacks: the shape the
    /// interface uses, since ncurses is called from the main thread only.
    @MainActor
    public static func onMain(
        interrupt: @escaping @MainActor () -> Void,
        terminate: @escaping @MainActor () -> Void,
        resize: @escaping @MainActor () -> Void
    ) -> SignalWatch {
        SignalWatch(
            queue: .main,
            interrupt: { MainActor.assumeIsolated { interrupt() } },
            terminate: { MainActor.assumeIsolated { terminate() } },
            resize: { MainActor.assumeIsolated { resize() } })
    }

    /// Stops delivering; the signals stay ignored.
    public func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
