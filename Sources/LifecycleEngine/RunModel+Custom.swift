import RunEvents
import ScenarioKit

/// The facts of an operation of the user's own class (`class TYPE`), as
/// its watched subclass reports them (`OwnClassGlue`) and Foundation's
/// own state says. Nothing here is predicted: what the class does is its
/// code's, so each announcement follows a call or an answer seen.
///
/// - It begins executing when `main()` begins, or when its `isExecuting`
///   first answers true after its `start()` was called (an asynchronous
///   class), on the thread that called `start()`.
/// - It finishes when Foundation's own state says it was told
///   (`finishing` or after): after `start()` returned, for a class that
///   keeps Foundation's `start()`; when the class posted
///   `didChangeValue(forKey: "isFinished")`, for one that overrides it.
///   Never from the class's own getter: a getter that says true while
///   Foundation was never told is the bug the run shows (`untold`).
/// - A `cancel()` is announced as it begins, as for opscope's own
///   operations; what it does then is the class's.
extension RunModel {
    /// What the run saw of one such operation.
    struct CustomRecord: Equatable {
        /// The tag of the thread that called its `start()`, once it did.
        var startThread: Int16?
        /// The real time its `isFinished` first answered true, if it did.
        var saidFinishedAt: UInt64?
        /// The run stopped waiting for it: it will not finish (`giveUp`).
        var givenUp = false
        /// Its object was released (its `deinit` ran).
        var released = false
    }

    /// Its `start()` was called on `thread`: the queue dispatched it (or
    /// the main thread started it by hand).
    mutating func customStartBegan(_ i: Int, thread: ThreadIdentity, real: UInt64) {
        let t = stamp(real)
        custom[Int32(i), default: CustomRecord()].startThread = threads.tag(thread)
        startCalled(i, t)
    }

    /// `main()` began on `thread`, or its `isExecuting` answered true
    /// (`thread` nil: on the thread that called `start()`): it begins
    /// executing, once. A cancel the class already saw is no concern here:
    /// a `main()` or an `isExecuting` that runs anyway is what it did.
    mutating func customBegan(_ i: Int, thread: ThreadIdentity?, real: UInt64) {
        let phase = records[i].phase
        guard phase == .ready || phase == .pending, lifecycle == .running else { return }
        let record = custom[Int32(i), default: CustomRecord()]
        guard let tag = thread.map({ threads.tag($0) }) ?? record.startThread else { return }
        begin(i, thread: tag, real: real)
    }

    /// Its `isFinished` answered `value`: kept only to tell a finish
    /// Foundation was never told of (`untoldFinishes`).
    mutating func customSaidFinished(_ i: Int, _ value: Bool, real: UInt64) {
        if value {
            if custom[Int32(i), default: CustomRecord()].saidFinishedAt == nil {
                custom[Int32(i), default: CustomRecord()].saidFinishedAt = real
            }
        } else {
            custom[Int32(i)]?.saidFinishedAt = nil
        }
    }

    /// Foundation's own state says it was told the operation finished:
    /// announced now (as a finish without running when it never began).
    /// What to look at for dispatches (`afterFinish`), nil when nothing.
    mutating func customFoundationFinished(_ i: Int, real: UInt64) -> DispatchScan? {
        let phase = records[i].phase
        guard phase != .finished, phase != .notAdded || facts.isByHand(i) else { return nil }
        if phase == .executing {
            if custom[Int32(i)]?.givenUp == true {
                // It was given up for: counted out of the work already.
                workingCount += 1
                custom[Int32(i)]?.givenUp = false
            }
            return afterFinish(i, scan: finish(i, real: real))
        }
        return afterFinish(i, scan: finishAtStart(i, real: real))
    }

    /// Its `cancel()` began: announced as a cancel of an operation that
    /// executes, or that has not started (then ready, and what its queue
    /// may dispatch once Foundation's `cancel()` returned is given back).
    mutating func customCancelled(_ i: Int, real: UInt64) -> DispatchScan {
        let r = records[i]
        guard lifecycle == .running, r.phase != .finished, !r.cancelled else { return DispatchScan() }
        if r.phase == .executing {
            cancelWhileExecuting(i, real: real)
            return DispatchScan()
        }
        return cancelBeforeStart(i, real: real)
    }

    /// The operations executing whose `isFinished` has answered true for
    /// at least `grace` nanoseconds while Foundation was not told: each
    /// is given up for (it never posted `isFinished`, the stall says).
    mutating func untoldFinishes(now real: UInt64, grace: UInt64, told: (Int) -> Bool) -> [Int] {
        var untold: [Int] = []
        for (key, record) in custom where !record.givenUp {
            let i = Int(key)
            guard records[i].phase == .executing, let said = record.saidFinishedAt, real &- said >= grace,
                !told(i)
            else { continue }
            giveUp(i)
            records[i].stranded = true
            timers.untoldFinish(at: clock.now(said))
            untold.append(i)
        }
        return untold
    }

    /// The run stops counting on operation `i` to finish: it is no longer
    /// work in progress, so that a stall can be found.
    mutating func giveUp(_ i: Int) {
        guard records[i].phase == .executing, custom[Int32(i)]?.givenUp != true else { return }
        custom[Int32(i), default: CustomRecord()].givenUp = true
        workingCount -= 1
    }

    /// The operations of the user's classes whose `start()` was called and
    /// that have not finished, in index order.
    var customStarted: [Int] {
        customIndices.filter { custom[Int32($0)]?.startThread != nil && records[$0].phase != .finished }
    }

    /// The executing operations of the user's classes the run still counts
    /// on to finish.
    var customInFlight: [Int] {
        customIndices.filter { records[$0].phase == .executing && custom[Int32($0)]?.givenUp != true }
    }
}
