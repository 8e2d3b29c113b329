import RunEvents
import ScenarioKit

/// `at TIME start OP`: the main thread calls an operation's `start()` by
/// hand. The action goes to the main queue at its time (`perform`), and
/// the main thread takes it when it is free: it looks at the operation,
/// then makes the call or refuses it (`handStartTaken`, which records the
/// action), and says when the call returned (`handStartReturned`).
///
/// What is never called, so that no file reaches one of Foundation's fatal
/// errors: `start()` of an operation that is executing, that is not ready
/// (a dependency has not finished), or that its queue holds. A finished one
/// is called (Foundation's `start()` then does nothing), and so is a
/// cancelled one (it finishes without running `main()`).
extension RunModel {
    /// What the main thread does with a `start` it takes.
    enum HandStart: Equatable {
        /// The run is over: nothing, not even the action, is recorded.
        case none
        /// Recorded as ignored, with the reason: the call is not made.
        case refused(ActionRefusal)
        /// Recorded, with the call's `started`: call `start()` now, then
        /// `handStartReturned`.
        case call
        /// The operation's last dependency was announced finished, but
        /// Foundation has not processed that finish yet (its `isReady` is
        /// still false): look again in a moment.
        case notYet
    }

    /// The main thread takes the `start` of operation `i` (asked by
    /// `origin`). `foundationReady`: Foundation's `isReady` for it, read
    /// just before (nil when the run has no object for it, which only a
    /// run that stopped has). Foundation is told of a finish after it is
    /// announced, so an operation ready by the run's count may not be by
    /// Foundation's yet: `.notYet`, until `giveUp`, when Foundation's word
    /// stands (the call would stop the program) and it is refused.
    mutating func handStartTaken(
        _ i: Int, origin: ActionOrigin, foundationReady: Bool?, giveUp: Bool, real: UInt64
    ) -> HandStart {
        guard lifecycle == .running, !log.isClosed, let foundationReady else {
            mainThread.handStartDropped()
            return .none
        }
        var refusal = startRefusal(i)
        if refusal == nil && needsReadiness(i) && !foundationReady {
            guard giveUp else { return .notYet }
            refusal = facts.kinds[i] == .async ? .startNotReadyAsync : .startNotReady
        }
        let t = stamp(real)
        let action = Action.start(OperationID(i))
        emit(.action(action, origin: origin, ignored: refusal), t)
        if let refusal {
            mainThread.handStartDropped()
            checkCompleted(t)
            return .refused(refusal)
        }
        mainThread.handStartCalled(i)
        emit(.startCall(OperationID(i), phase: .started), t)
        return .call
    }

    /// The `start()` the main thread called for operation `i` returned.
    mutating func handStartReturned(_ i: Int, real: UInt64) {
        let t = stamp(real)
        mainThread.handStartReturned()
        emit(.startCall(OperationID(i), phase: .returned), t)
        checkCompleted(t)
    }

    /// Why `start()` of operation `i` must not be called now, as the run
    /// knows it; nil when it may be (then Foundation's own readiness is
    /// still asked: `needsReadiness`).
    func startRefusal(_ i: Int) -> ActionRefusal? {
        let r = records[i]
        let async = facts.kinds[i] == .async
        switch r.phase {
        case _ where facts.kinds[i] == .barrier: return .startInAQueue
        case .pending, .ready: return .startInAQueue
        case .executing: return async ? .startWhileExecutingAsync : .startWhileExecuting
        case .finished: return nil
        case .notAdded:
            if r.cancelled || r.heldCancel { return nil }
            return r.unfinishedDeps > 0 ? (async ? .startNotReadyAsync : .startNotReady) : nil
        }
    }

    /// Whether Foundation's `isReady` decides too: an operation neither
    /// finished nor cancelled (Foundation's `cancel()` makes one ready).
    private func needsReadiness(_ i: Int) -> Bool {
        records[i].phase == .notAdded && !records[i].cancelled && !records[i].heldCancel
    }

    /// Whether the main thread will still do something with a `start` it
    /// was asked for: it is not blocked for good in a wait (then the calls
    /// queued behind that wait never come).
    var handStartProgresses: Bool { mainThread.handStartsProgress { waitCanReturn($0) } }
}
