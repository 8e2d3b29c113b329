import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A signal's request that the command stop (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT), for the commands that take no signals of their own: the
/// program hands the signal watch's ending events to `process` until a
/// command (a trace, the interface) takes them for itself.
///
/// A request is kept (the first signal's number) and wakes whoever waits:
/// a read of standard input (`LineInput`, through `descriptor`) and the
/// main thread serving the main queue (an empty block; a `CommandEnd`
/// made with this request ends with it). Work that never waits (reading
/// a large file, generating a question) is ended by the watch itself
/// half a second later (`SignalWatch.grace`).
package final class StopRequest: Sendable {
    /// The process's request, which the program's signal watch makes.
    package static let process = StopRequest()

    /// The signal's number; 0 while none came.
    private let signal = Atomic<Int32>(0)
    /// A pipe whose read end becomes readable at the request; -1 when none
    /// could be made (a read then looks at the request only between bytes).
    private let readEnd: Int32
    private let writeEnd: Int32

    package init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Asks the command to stop with the status of `number` (the first
    /// request stays), and wakes what waits. From any thread.
    package func request(signal number: Int32) {
        guard signal.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged
        else { return }
        if writeEnd >= 0 {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        // The main run loop returns after each drain of the main queue:
        // `MainThread.serve` then looks at its end again.
        DispatchQueue.main.async {}
    }

    /// 128 + the signal's number once a stop was requested; nil before.
    package var status: ExitStatus? {
        let number = signal.load(ordering: .acquiring)
        return number == 0 ? nil : .stopped(signal: number)
    }

    /// Readable once a stop was requested (and from then on): for `poll`.
    package var descriptor: Int32 { readEnd }
}
