import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Restores the terminal when the process dies of a crash signal (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP), so that a crash never leaves
/// the user's shell in raw mode on the alternate screen. The handler
/// restores the terminal through `TerminalRescue` (async-signal-safe: no
/// ncurses), puts back the action that was installed before ours (the
/// default, or the Swift runtime's backtracer) and re-raises the signal, so
/// the exit status and any backtrace are unchanged.
enum CrashGuard {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    private static let installed = Atomic<Bool>(false)

    /// The actions in place before ours, indexed by signal number. Written
    /// once, in `install()`, before any of our handlers can run; afterwards
    /// only read, by the handler. A raw pointer because a signal handler
    /// must not touch reference-counted storage; `nonisolated(unsafe)`
    /// because that write-once-then-read discipline is what makes it safe.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        p.initialize(repeating: sigaction(), count: 65)
        return p
    }()

    /// Installs the handlers once per process; later calls do nothing.
    static func install() {
        guard
            installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        _ = previous
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = crashSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, previous + Int(sig))
        }
    }
}

private func crashSignalHandler(_ sig: Int32) {
    TerminalRescue.restoreForExit()
    sigaction(sig, CrashGuard.previous + Int(sig), nil)
    raise(sig)
}
