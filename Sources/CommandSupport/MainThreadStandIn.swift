import Foundation

/// Does the main thread's duties while a scenario holds it in a wait
/// (`at TIME wait OP`): Foundation's `waitUntilFinished()` blocks the main
/// thread, which is also the thread that takes the run's events, prints
/// them and draws the screen. Without a stand-in, a trace whose main
/// thread never comes back (a deadlock) would print nothing more, and the
/// interface could not say how long it has been frozen.
///
/// The main thread hands its duties over for exactly as long as it is
/// blocked (`park`): a thread of the stand-in's own runs `duty` every
/// `interval` seconds and at each `nudge()` meanwhile, and the main thread,
/// once its wait returns, takes them back only after the duty in progress
/// is over. So the duty never runs beside the main thread: while it runs,
/// the main thread is inside Foundation's wait and runs nothing.
package final class MainThreadStandIn: @unchecked Sendable {
    private let condition = NSCondition()
    /// Under `condition`: the main thread is in its wait.
    private var parked = false
    /// Under `condition`: the stand-in is doing its duty.
    private var busy = false
    /// Under `condition`: a nudge came since the last duty.
    private var nudged = false
    /// Under `condition`: what to do while parked.
    private var duty: (@Sendable () -> Void)?
    private let interval: Double

    package init(interval: Double = 0.1) {
        self.interval = interval
    }

    /// What the stand-in does while the main thread is parked: the work
    /// the main thread would do if it were free (take events, draw).
    package func setDuty(_ duty: (@Sendable () -> Void)?) {
        condition.withLock { self.duty = duty }
    }

    /// Main-actor work as a duty: `body` runs on the stand-in's thread
    /// while the main thread is parked, which the exclusion above makes
    /// safe, but which the compiler cannot see. Keep `body` to code that
    /// makes no main-actor closure of its own (Swift checks their
    /// isolation when they run, and stops the program off the main
    /// thread): plain calls, as the trace's taking and printing of events.
    package static func asIfOnMain(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        let plain = unsafeBitCast(body, to: (() -> Void).self)
        return unsafeBitCast(plain, to: (@Sendable () -> Void).self)
    }

    /// On the main thread: makes `wait` (it blocks), the stand-in doing
    /// the duty meanwhile. Returns once `wait` returned and the duty in
    /// progress, if any, is over.
    package func park(_ wait: () -> Void) {
        precondition(Thread.isMainThread, "only the main thread parks")
        condition.withLock {
            parked = true
            nudged = true
        }
        let thread = Thread { [self] in serve() }
        thread.name = "opscope main-thread stand-in"
        thread.start()
        wait()
        condition.lock()
        parked = false
        condition.broadcast()
        while busy { condition.wait() }
        condition.unlock()
    }

    /// Asks for the duty soon (events arrived); nothing unless parked.
    package func nudge() {
        condition.withLock {
            guard parked else { return }
            nudged = true
            condition.broadcast()
        }
    }

    /// Whether the main thread is parked now.
    package var isParked: Bool { condition.withLock { parked } }

    private func serve() {
        condition.lock()
        while parked {
            if !nudged { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            guard parked else { break }
            nudged = false
            guard let duty else { continue }
            busy = true
            condition.unlock()
            // The main thread is blocked in its wait and, when the wait
            // returns, waits for `busy` to clear before it runs anything else.
            duty()
            condition.lock()
            busy = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
