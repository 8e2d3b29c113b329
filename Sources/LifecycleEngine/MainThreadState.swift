import ScenarioKit

/// What the run has asked of the main thread and it has not done yet: the
/// waits (`at TIME wait OP`, `wait-all QUEUE`) and the hand starts
/// (`at TIME start OP`) posted to the main queue, and the one of each it
/// is in now. The run is not complete while either count is above zero,
/// and a stall is declared only when neither can move the run.
///
/// Each is opened when it is posted and closed once: a wait when it
/// returns or when the main thread drops it (the run was over before it
/// began), a start when its call returned or it was refused or dropped.
/// The counts never go below zero and the one in progress is always
/// among the open ones; a close with nothing open is a fault of the
/// caller's, caught in debug builds.
struct MainThreadState {
    /// The wait the main thread is blocked in, from its `started` to its
    /// `returned`.
    private(set) var wait: Action?
    /// Waits posted that have not returned yet: the one in `wait`, and
    /// those queued behind it on the main queue.
    private(set) var waitsOpen = 0
    /// `start` actions posted that the main thread has not done with yet:
    /// the call it is in (`handStart`), and those queued behind it, not
    /// yet made or refused.
    private(set) var handStartsOpen = 0
    /// The operation whose `start()` the main thread is in, from its
    /// call's `started` to its `returned`.
    private(set) var handStart: Int?

    /// Nothing posted to the main thread is still to be done.
    var isIdle: Bool { waitsOpen == 0 && handStartsOpen == 0 }

    // MARK: - Waits

    /// A wait was posted to the main queue.
    mutating func waitPosted() { waitsOpen += 1 }

    /// The main thread calls Foundation's wait for `action`, one it was
    /// posted.
    mutating func waitBegan(_ action: Action) {
        assert(waitsOpen > 0 && wait == nil, "a wait begins only when posted, and one at a time")
        wait = action
    }

    /// The wait in progress returned.
    mutating func waitReturned() {
        assert(waitsOpen > 0, "no wait was open")
        wait = nil
        waitsOpen = max(waitsOpen - 1, 0)
    }

    /// A posted wait the main thread will not make: the run was over.
    mutating func waitDropped() {
        assert(waitsOpen > 0, "no wait was open")
        waitsOpen = max(waitsOpen - 1, 0)
    }

    // MARK: - Starts by hand

    /// A `start` was posted to the main queue.
    mutating func handStartPosted() { handStartsOpen += 1 }

    /// The main thread calls `start()` of operation `i` for a posted `start`.
    mutating func handStartCalled(_ i: Int) {
        assert(handStartsOpen > 0 && handStart == nil, "a start is called only when posted, and one at a time")
        handStart = i
    }

    /// The call in progress returned.
    mutating func handStartReturned() {
        assert(handStartsOpen > 0, "no start was open")
        handStart = nil
        handStartsOpen = max(handStartsOpen - 1, 0)
    }

    /// A posted `start` that is not called: refused, or the run was over.
    mutating func handStartDropped() {
        assert(handStartsOpen > 0, "no start was open")
        handStartsOpen = max(handStartsOpen - 1, 0)
    }

    // MARK: - Progress

    /// Whether what the main thread will do with its waits can still move
    /// the run: a wait posted that it has not begun (it will), or the one
    /// it is in can return (`canReturn`: what it waits for is there).
    func waitsProgress(canReturn: (Action) -> Bool) -> Bool {
        guard waitsOpen > 0 else { return false }
        guard let wait else { return true }
        return canReturn(wait)
    }

    /// Whether the main thread will still do something with a `start` it
    /// was asked for: it is not blocked for good in a wait (then the calls
    /// queued behind that wait never come).
    func handStartsProgress(canReturn: (Action) -> Bool) -> Bool {
        guard handStartsOpen > 0 else { return false }
        guard let wait else { return true }
        return canReturn(wait)
    }
}
