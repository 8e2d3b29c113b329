/// The timers of a run's scenario time that end something the engine
/// started: an asynchronous operation's work (its finish), and the work a
/// `main()` left running (`leaves`). Each is counted from the moment it is
/// set until what it ends has ended, so that a run is not complete, and no
/// stall is declared, while one is still to fire.
///
/// The counts never go below zero: an end without a begin is a fault of
/// the caller's, caught in debug builds.
struct RunTimers {
    /// The timers that end asynchronous operations, earliest first.
    private(set) var asyncEnds = TimerHeap()
    /// The timers that end the work a `main()` left running.
    private(set) var leftovers = TimerHeap()
    /// Asynchronous operations executing that their timer will finish (one
    /// of no duration is counted too, from its start to its finish at once).
    private(set) var asyncPending = 0
    /// Work left running by a `main()` that has not ended yet.
    private(set) var leftoversPending = 0
    /// The latest scenario time at which the work of an asynchronous
    /// operation that never posts `isFinished` ends (its start plus its
    /// duration): before it, such an operation has not failed yet.
    private(set) var forgetsAt = 0.0

    /// An asynchronous operation `op` began at scenario time `t`, its work
    /// `duration` seconds long. One that posts its finish is counted until
    /// `asyncEnded`, with a timer when its work takes time; one that never
    /// does moves `forgetsAt`.
    mutating func asyncBegan(_ op: Int32, at t: Double, duration: Double, postsFinish: Bool) {
        if postsFinish {
            asyncPending += 1
            if duration > 0 { asyncEnds.push(due: t + duration, op: op) }
        } else {
            forgetsAt = max(forgetsAt, t + duration)
        }
    }

    /// An operation of the user's class said it finished at scenario time
    /// `t` and never told Foundation: the run became stuck then, not
    /// before (`RunModel.declareStall` stamps the stall no earlier).
    mutating func untoldFinish(at t: Double) {
        forgetsAt = max(forgetsAt, t)
    }

    /// An asynchronous operation counted by `asyncBegan` finished (by its
    /// timer, or a cancel first; a timer left behind fires for nothing).
    mutating func asyncEnded() {
        assert(asyncPending > 0, "no asynchronous operation was counted")
        asyncPending = max(asyncPending - 1, 0)
    }

    /// A `main()` left work running for `op`, to end at scenario time `due`.
    mutating func leftoverStarted(_ op: Int32, due: Double) {
        leftoversPending += 1
        leftovers.push(due: due, op: op)
    }

    /// Work a `main()` left running ended.
    mutating func leftoverEnded() {
        assert(leftoversPending > 0, "no leftover work was running")
        leftoversPending = max(leftoversPending - 1, 0)
    }

    /// The earliest timer of each kind.
    var nextAsyncEnd: TimerHeap.Entry? { asyncEnds.first }
    var nextLeftover: TimerHeap.Entry? { leftovers.first }

    /// Takes the earliest timer of each kind off its heap (it fires now).
    mutating func takeAsyncEnd() { _ = asyncEnds.pop() }
    mutating func takeLeftover() { _ = leftovers.pop() }

    /// A timer is still to fire.
    var hasTimers: Bool { !asyncEnds.isEmpty || !leftovers.isEmpty }
}
