import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The program's signals, handled on a thread of their own so that they
/// work while the main thread is blocked (a `main` queue's operation runs
/// on it and may hold it for seconds; a command may be reading standard
/// input, or working).
///
/// The handler only writes the signal's number into a pipe; the watch
/// thread reads it and:
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: asks the command to stop (its
///   `Receiver`'s `deliver`, which posts to the main queue or wakes a read
///   of standard input), and if the process is still alive
///   `grace` later, the main thread is not answering: it restores the
///   terminal itself (`TerminalRescue`), says so on standard error and
///   exits with the signal's status (`exitStatus(for:)`).
/// - SIGTSTP (Ctrl-Z): leaves the interface's terminal modes, stops the
///   process; SIGCONT (`fg`): enters them again and asks the app to repaint.
/// - SIGWINCH: asks the app to take the new size.
///
/// Install before the terminal session opens: ncurses installs handlers
/// of its own only for signals still at their default action, and its
/// SIGTSTP handler does not bring the keypad mode back.
public final class SignalWatch: Sendable {
    public enum Event: Sendable, Equatable {
        case interrupt, terminate, hangUp, quit, stop, resumed, resize
    }

    /// The exit status of an event that ends the program, as a shell
    /// reports death by that signal (128 + its number); nil for the others.
    public static func exitStatus(for event: Event) -> Int32? {
        signalNumber(for: event).map { 128 + $0 }
    }

    /// The number of the signal of an event that ends the program; nil for
    /// the others.
    public static func signalNumber(for event: Event) -> Int32? {
        switch event {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangUp: SIGHUP
        case .quit: SIGQUIT
        case .stop, .resumed, .resize: nil
        }
    }

    static let table: [(Int32, Event)] = [
        (SIGINT, .interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp), (SIGQUIT, .quit), (SIGTSTP, .stop),
        (SIGCONT, .resumed), (SIGWINCH, .resize),
    ]

    /// How long the main thread has to quit before the watch does it.
    public static let grace = 0.5

    /// Who hears the watch's events: `deliver` is called on the watch
    /// thread (post to the main queue from it); `lastResort` runs on the
    /// watch's own thread when the main thread did not quit within
    /// `grace`, just before the process exits, and returns what to say on
    /// standard error (nil: the watch's own words about the terminal, when
    /// a terminal session was open).
    public struct Receiver: Sendable {
        public var deliver: @Sendable (Event) -> Void
        public var lastResort: (@Sendable () -> String?)?

        public init(deliver: @escaping @Sendable (Event) -> Void, lastResort: (@Sendable () -> String?)? = nil) {
            self.deliver = deliver
            self.lastResort = lastResort
        }
    }

    /// The pipe's write end, for the handler (one watch per process).
    fileprivate static let pipeWrite = Atomic<Int32>(-1)
    private static let installed = Atomic<Bool>(false)
    /// Who hears the events now.
    private static let receiver = Mutex<Receiver?>(nil)

    /// Makes `deliver` and `lastResort` hear the signals from now on (see
    /// `Receiver`), and starts the watch the first time: one watch per
    /// process, whose receiver a command replaces when it takes the signals
    /// for itself (a trace, the interface) and may put back (`restore`).
    /// Returns the receiver it replaced (nil when none).
    ///
    /// The program starts it before anything else (`main.swift`), so that
    /// the handlers are in place before a terminal session opens and before
    /// the first wait on standard input.
    @discardableResult
    public static func start(
        deliver: @escaping @Sendable (Event) -> Void, lastResort: (@Sendable () -> String?)? = nil
    ) -> Receiver? {
        let previous = receiver.withLock { current in
            defer { current = Receiver(deliver: deliver, lastResort: lastResort) }
            return current
        }
        install()
        return previous
    }

    /// Puts back the receiver `start` replaced (nil: nobody hears the
    /// events; an ending signal still ends the process after `grace`).
    public static func restore(_ previous: Receiver?) {
        receiver.withLock { $0 = previous }
    }

    /// Installs the handlers and starts the watch thread, once per
    /// process; nothing when no pipe can be made (the signals keep their
    /// default actions).
    private static func install() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        pipeWrite.store(fds[1], ordering: .releasing)
        // A parent may have blocked them (a test runner does), and a blocked
        // mask is inherited: unblocked here, on the thread that starts the
        // watch (the main thread), they reach the handler.
        var watched = sigset_t()
        sigemptyset(&watched)
        for (sig, _) in table { sigaddset(&watched, sig) }
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
        for (sig, _) in table {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = watchedSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        let watch = SignalWatch()
        let readEnd = fds[0]
        Thread.detachNewThread { watch.serve(readEnd) }
    }

    private init() {}

    private func serve(_ readEnd: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = read(readEnd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            guard let event = Self.table.first(where: { $0.0 == Int32(byte) })?.1 else { continue }
            let receiver = Self.receiver.withLock { $0 }
            switch event {
            case .stop:
                _ = TerminalRescue.leaveForStop()
                kill(getpid(), SIGSTOP)
            case .resumed:
                if TerminalRescue.enterAfterContinue() { receiver?.deliver(.resumed) }
            case .resize:
                receiver?.deliver(.resize)
            case .interrupt, .terminate, .hangUp, .quit:
                receiver?.deliver(event)
                let status = Self.exitStatus(for: event) ?? 1
                let lastResort = receiver?.lastResort
                Thread.detachNewThread { Self.forceExit(after: Self.grace, status: status, lastResort: lastResort) }
            }
        }
    }

    /// The main thread did not quit in time: restore the terminal without
    /// it and exit.
    private static func forceExit(after seconds: Double, status: Int32, lastResort: (@Sendable () -> String?)?) {
        Thread.sleep(forTimeInterval: seconds)
        var text = lastResort?()
        if TerminalRescue.restoreForExit() && text == nil {
            text =
                "opscope: the main thread did not answer within \(seconds) s (a main-queue operation may be "
                + "holding it): the terminal was restored without it\n"
        }
        if let text {
            _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        }
        // The one exit outside `main`: the main thread, which would return
        // the status there, is the one not answering.
        _exit(status)
    }
}

private func watchedSignalHandler(_ sig: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: sig)
    let fd = SignalWatch.pipeWrite.load(ordering: .acquiring)
    if fd >= 0 { _ = write(fd, &byte, 1) }
    errno = saved
}
