import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The signals of an interactive session, handled on a thread of their own
/// so that they work while the main thread is blocked (a `main` queue's
/// operation runs on it, and may hold it for seconds).
///
/// The handler only writes the signal's number into a pipe; the watch
/// thread reads it and:
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: asks the app to quit (`deliver`, which
///   posts to the main queue), and if the process is still alive
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

    /// The pipe's write end, for the handler (one watch per process).
    fileprivate static let pipeWrite = Atomic<Int32>(-1)
    private static let installed = Atomic<Bool>(false)

    /// Starts the watch: `deliver` is called on the watch thread (post to
    /// the main queue from it). `lastResort` runs on the watch's own
    /// thread when the main thread did not quit within `grace`, just
    /// before the process exits: it returns what to say on standard error
    /// (nil: the watch's own words about the terminal). At most one per
    /// process; nil if one is already running or no pipe can be made.
    public static func start(
        deliver: @escaping @Sendable (Event) -> Void, lastResort: (@Sendable () -> String?)? = nil
    ) -> SignalWatch? {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
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
        Thread.detachNewThread { watch.serve(readEnd, deliver: deliver, lastResort: lastResort) }
        return watch
    }

    private init() {}

    private func serve(
        _ readEnd: Int32, deliver: @escaping @Sendable (Event) -> Void, lastResort: (@Sendable () -> String?)?
    ) {
        var byte: UInt8 = 0
        while true {
            let n = read(readEnd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            guard let event = Self.table.first(where: { $0.0 == Int32(byte) })?.1 else { continue }
            switch event {
            case .stop:
                _ = TerminalRescue.leaveForStop()
                kill(getpid(), SIGSTOP)
            case .resumed:
                if TerminalRescue.enterAfterContinue() { deliver(.resumed) }
            case .resize:
                deliver(.resize)
            case .interrupt, .terminate, .hangUp, .quit:
                deliver(event)
                let status = Self.exitStatus(for: event) ?? 1
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
