import FoundationRules
import RunEvents
import ScenarioKit

/// Actions (from an `at` line, a completion block, a key): what the engine
/// would ignore and why (`ActionRefusal`), the announcement, and what the
/// shell must then do in Foundation (`Effect`). Announce, then apply: the
/// shell makes the Foundation call after the model recorded it.
extension RunModel {
    /// The Foundation call an action leaves for the shell.
    enum Effect: Equatable {
        case none
        /// `cancel()` on the operation (which comes back as its cancel).
        case cancel(Int)
        /// `cancelAllOperations()` on the queue. `barriers`: waiting
        /// barriers it cancels, whose real finish the shell must watch for
        /// (now, or on resume when the queue is suspended).
        case cancelAll(Int, barriers: [Int], queueSuspended: Bool)
        /// `isSuspended = value`. `barriers`: cancelled barriers that a
        /// resume lets Foundation finish (their finish to watch for).
        case setSuspended(Int, Bool, barriers: [Int])
        /// `maxConcurrentOperationCount = value`.
        case setCap(Int, Int)
        case setPriority(Int, PriorityLevel)
        /// Add the operation (or barrier) to its queue, then look for what
        /// that let it dispatch.
        case add(Int, DispatchScan)
        /// Add the operations to their queue in one `addOperations` call,
        /// then look for what that let it dispatch.
        case addBatch([Int], DispatchScan)
        /// Post the wait to the main queue: the main thread makes it
        /// (`mainWaitStarted`, Foundation's wait, `mainWaitReturned`).
        case waitOnMainThread(Action)
        /// Post the `start` of operation `i` to the main queue: the main
        /// thread looks, then calls its `start()` or refuses
        /// (`handStartTaken`), and says when the call returned
        /// (`handStartReturned`). Nothing is recorded before.
        case startOnMainThread(Int, ActionOrigin)
        /// `OperationQueue.main` ignores suspension, caps and cancel-all,
        /// but the engine, not the model, is asked: the shell tries it and
        /// reports what Foundation did (`mainQueueAnswered`).
        case tryOnMainQueue
    }

    /// Records `action` and returns what Foundation must be told. A run
    /// waiting for the user after a stall goes on, from the moment it
    /// stopped, with this action.
    mutating func perform(_ action: Action, origin: ActionOrigin, real: UInt64) -> Effect {
        clock.release(real)
        let t = stamp(real)
        func record(_ refusal: ActionRefusal?) { emit(.action(action, origin: origin, ignored: refusal), t) }
        func refuse(_ refusal: ActionRefusal) -> Effect {
            record(refusal)
            return .none
        }
        switch action {
        case .cancel(let id):
            guard let i = validOperation(id) else { return refuse(.noSuchOperation) }
            let r = records[i]
            let refusal: ActionRefusal? =
                facts.kinds[i] == .barrier
                ? .barrierHasNoHandle
                : r.phase == .finished
                    ? .alreadyFinished
                    : (r.cancelled || r.heldCancel) ? .alreadyCancelled : nil
            record(refusal)
            return refusal == nil ? .cancel(i) : .none

        case .cancelAll(let id):
            guard let q = validQueue(id) else { return refuse(.noSuchQueue) }
            if queues[q].isMain { return .tryOnMainQueue }
            record(nil)
            // Foundation cancels a waiting barrier too: its block never
            // runs. It becomes ready at once, but Foundation finishes it
            // only when what was dispatched before it returns.
            var barriers: [Int] = []
            for b32 in queues[q].pendingBarriers {
                let b = Int(b32)
                guard records[b].phase == .pending || records[b].phase == .ready, !records[b].cancelled else {
                    continue
                }
                cancelBeforeStart(b, real: real)
                records[b].awaitsRealFinish = true
                barriers.append(b)
            }
            return .cancelAll(q, barriers: barriers, queueSuspended: queues[q].suspended)

        case .suspend(let id), .resume(let id):
            guard let q = validQueue(id) else { return refuse(.noSuchQueue) }
            if queues[q].isMain { return .tryOnMainQueue }
            let value: Bool
            if case .suspend = action { value = true } else { value = false }
            let old = queues[q].suspended
            guard old != value else { return refuse(value ? .alreadySuspended : .notSuspended) }
            record(nil)
            emit(.queue(QueueID(q), .isSuspended, old: .bool(old), new: .bool(value)), t)
            queues[q].suspended = value
            let released = value ? [] : queues[q].pendingBarriers.map(Int.init).filter { records[$0].awaitsRealFinish }
            return .setSuspended(q, value, barriers: released)

        case .setCap(let id, let cap):
            guard let q = validQueue(id) else { return refuse(.noSuchQueue) }
            let value = cap.foundationValue
            if !QueueState.accepts(cap: value) { return refuse(.capBelowOne) }
            if queues[q].isMain { return .tryOnMainQueue }
            let old = queues[q].cap
            guard old != value else { return refuse(.unchanged) }
            record(nil)
            emit(.queue(QueueID(q), .maxConcurrentOperationCount, old: .int(old), new: .int(value)), t)
            queues[q].cap = value
            return .setCap(q, value)

        case .setPriority(let id, let level):
            guard let i = validOperation(id) else { return refuse(.noSuchOperation) }
            if facts.kinds[i] == .barrier { return refuse(.barrierHasNoPriority) }
            if records[i].phase == .finished { return refuse(.alreadyFinished) }
            let old = records[i].priority
            guard changePriority(i, to: level) else { return refuse(.unchanged) }
            record(nil)
            emit(.operation(OperationID(i), .queuePriority, old: .priority(old), new: .priority(level)), t)
            records[i].priority = level
            return .setPriority(i, level)

        case .add(let id):
            guard let i = validOperation(id) else { return refuse(.noSuchOperation) }
            guard records[i].phase == .notAdded else { return refuse(.alreadyAdded) }
            record(nil)
            return .add(i, add(i, real: real))

        case .addBatch(let ids):
            var members: [Int] = []
            for id in ids {
                guard let i = validOperation(id) else { return refuse(.noSuchOperation) }
                guard records[i].phase == .notAdded, !members.contains(i) else { return refuse(.alreadyAdded) }
                members.append(i)
            }
            // One queue, no barrier (`addBarrierBlock` adds one alone): the
            // language sees to both; a batch made in code that breaks them
            // names what the call cannot add.
            guard let first = members.first,
                members.allSatisfy({ facts.kinds[$0] != .barrier && facts.queueOf[$0] == facts.queueOf[first] })
            else { return refuse(.noSuchOperation) }
            record(nil)
            return .addBatch(members, addBatch(members, real: real))

        case .wait(let id):
            guard validOperation(id) != nil else { return refuse(.noSuchOperation) }
            record(nil)
            mainThread.waitPosted()
            return .waitOnMainThread(action)

        case .waitAll(let id):
            guard validQueue(id) != nil else { return refuse(.noSuchQueue) }
            record(nil)
            mainThread.waitPosted()
            return .waitOnMainThread(action)

        case .start(let id):
            guard let i = validOperation(id) else { return refuse(.noSuchOperation) }
            // Recorded when the main thread takes it: whether it calls
            // start() depends on the operation's state at that moment.
            mainThread.handStartPosted()
            return .startOnMainThread(i, origin)
        }
    }

    /// What Foundation did with an action on `OperationQueue.main`:
    /// `changed`, whether the property it sets changed (it never does
    /// there). A cancel-all is ignored whatever happened: the main queue
    /// cancels nothing of its own accord, and there is nothing to read.
    mutating func mainQueueAnswered(_ action: Action, origin: ActionOrigin, changed: Bool, real: UInt64) {
        let ignored: ActionRefusal?
        switch action {
        case .cancelAll: ignored = .mainQueueIgnores(.cancelAllOperations)
        case .suspend, .resume: ignored = changed ? nil : .mainQueueIgnores(.isSuspended)
        case .setCap: ignored = changed ? nil : .mainQueueIgnores(.maxConcurrentOperationCount)
        default: ignored = nil
        }
        emit(.action(action, origin: origin, ignored: ignored), stamp(real))
    }

    /// An action arrives from an `at` line, a completion block or a key:
    /// nil, and nothing recorded, when the run is not running (not started
    /// yet, ended or stopped).
    mutating func actionArrived(_ action: Action, origin: ActionOrigin, real: UInt64) -> Effect? {
        guard lifecycle == .running, !log.isClosed else { return nil }
        return perform(action, origin: origin, real: real)
    }

    /// A cancelled barrier's real finish, as the shell saw it come: its
    /// `isFinished`, its dependents released. True when its gate (the
    /// hidden operation other queues' dependents wait on) is to be opened.
    mutating func barrierReallyFinished(_ b: Int, real: UInt64) -> (opensGate: Bool, scan: DispatchScan) {
        guard records[b].phase != .finished else { return (false, DispatchScan()) }
        let scan = finish(b, real: real)
        return (takeGate(b), scan)
    }

    /// True once per barrier: the first to ask opens its gate.
    mutating func takeGate(_ b: Int) -> Bool {
        if records[b].gateOpened { return false }
        records[b].gateOpened = true
        return true
    }

    private func validOperation(_ id: OperationID) -> Int? {
        id.index >= 0 && id.index < facts.count ? id.index : nil
    }

    private func validQueue(_ id: QueueID) -> Int? {
        id.index >= 0 && id.index < queues.count ? id.index : nil
    }
}

extension RunModel.Effect {
    /// Where to look for dispatches once the Foundation call is made: a
    /// resumed queue or a changed cap lets its queue dispatch; an add, what
    /// the add's scan says.
    var scanAfter: RunModel.DispatchScan {
        var scan = RunModel.DispatchScan()
        switch self {
        case .setSuspended(let q, false, _), .setCap(let q, _): scan.add(queue: q)
        case .add(_, let added), .addBatch(_, let added): scan = added
        default: break
        }
        return scan
    }

    /// The cancelled barriers whose real finish the shell watches for now
    /// (`RunCore.watchRealFinish`): at a cancel-all of a queue that is not
    /// suspended, or at the resume of one that was.
    var barriersToWatch: [Int] {
        switch self {
        case .cancelAll(_, let barriers, false), .setSuspended(_, false, let barriers): barriers
        default: []
        }
    }
}
