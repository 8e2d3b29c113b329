import RunEvents
import ScenarioKit

/// What drives a run besides the engine's facts: the start's chunks of
/// adds, the scheduler's next step, the stall's debounce, the delivery of
/// events to the consumer, and what an action's Foundation call needs
/// next. The shell asks; these decide.
extension RunModel {
    // MARK: - The start's adds

    /// Runs of up to this many operations added at the start look at each
    /// add that may dispatch right after it; larger ones after each chunk
    /// of `addsPerChunk` adds (one lock each instead of two an operation).
    static let addsLookedAtOneByOne = 1_000

    /// The most adds announced under one lock at the start.
    static let addsPerChunk = 64

    /// How many operations the start adds (those no `add` action adds later).
    var initialAddCount: Int { startAdds.count }

    /// The start's next chunk, not added yet: the shell makes their objects
    /// (and those they wait for) before it takes the lock to add them.
    var upcomingAdds: ArraySlice<Int32> { startAdds.upcoming(Self.addsPerChunk) }

    /// Whether the start has added every operation it adds.
    var initialAddsDone: Bool { startAdds.isDone }

    /// Announces the start's next chunk of adds, in file order, each
    /// announcement before its operation's add (the shell adds them one at
    /// a time after this, as the language says). What joins a queue's
    /// order waits until the chunk is handed over (`fileDeferred`). In a
    /// run of up to `addsLookedAtOneByOne` operations a chunk also ends
    /// with an add that may dispatch, so that its dispatch is announced
    /// before the next add's. Returns what to hand Foundation, in order,
    /// and where to look once it is handed over.
    mutating func addChunk(real: UInt64) -> (handovers: [HandoverPlan], scan: DispatchScan) {
        var handovers: [HandoverPlan] = []
        let scan = addChunk(real: real, into: &handovers)
        return (handovers, scan)
    }

    /// `addChunk(real:)`, its plans written into `handovers` (emptied
    /// first, its room kept): the start's loop hands the same list to
    /// every chunk.
    mutating func addChunk(real: UInt64, into handovers: inout [HandoverPlan]) -> DispatchScan {
        let oneByOne = startAdds.count <= Self.addsLookedAtOneByOne
        let start = startAdds.next
        deferFiling()
        var scan = DispatchScan()
        handovers.removeAll(keepingCapacity: true)
        handovers.reserveCapacity(min(Self.addsPerChunk, startAdds.count - start))
        while let i = startAdds.nextOperation, startAdds.next - start < Self.addsPerChunk, scan.isEmpty || !oneByOne {
            if let b = startAdds.batch(beginningWith: i) {
                // The file's `add A, B, …`: one action, one call.
                let ids = scenario.startBatches[b].operations
                let members = ids.map(\.index)
                emit(.action(.addBatch(ids), origin: .startBatch(b), ignored: nil), stamp(real))
                scan.merge(addBatch(members, real: real))
                for (k, m) in members.enumerated() {
                    var plan = handoverPlan(m)
                    plan.joinsNext = k < members.count - 1
                    handovers.append(plan)
                }
                startAdds.announced(members.count)
                continue
            }
            scan.merge(add(i, real: real))
            handovers.append(handoverPlan(i))
            startAdds.announced(1)
        }
        return scan
    }

    /// The shell handed the last chunk to Foundation: what the chunk filed
    /// joins the queues' orders, deferred again while more chunks come
    /// (`fileDeferred`). Returns how far the start is.
    mutating func chunkHandedOver() -> BuildProgress {
        startAdds.handOver()
        fileDeferred(stillDeferring: !initialAddsDone)
        return buildProgress
    }

    /// How far the start is in handing its operations to Foundation.
    var buildProgress: BuildProgress { startAdds.progress }

    /// What the shell gives Foundation for operation `i` as it adds it.
    struct HandoverPlan: Equatable {
        var index: Int
        /// Its declared dependencies (on a barrier: on its gate).
        var dependencies: [Int]
        var queue: Int
        var isBarrier: Bool
        /// It goes in one `addOperations` call with the next plan (a batch add).
        var joinsNext = false
    }

    func handoverPlan(_ i: Int) -> HandoverPlan {
        HandoverPlan(
            index: i, dependencies: facts.graph.dependencies(of: i).map(Int.init), queue: Int(facts.queueOf[i]),
            isBarrier: facts.kinds[i] == .barrier)
    }

    /// The operations whose objects the shell must make before it hands
    /// `indices` over: each, then what it waits for; not those `isMade`
    /// says the shell has, nor those finished (the run let go of them, or
    /// may have: nothing can be done to them any more). One list for a
    /// whole chunk.
    func objectsToMake<C: Collection<Int32>>(for indices: C, isMade: (Int) -> Bool) -> [Int] {
        var missing: [Int] = []
        objectsToMake(for: indices, into: &missing, isMade: isMade)
        return missing
    }

    /// `objectsToMake(for:isMade:)`, written into `missing` (emptied first,
    /// its room kept).
    func objectsToMake<C: Collection<Int32>>(for indices: C, into missing: inout [Int], isMade: (Int) -> Bool) {
        missing.removeAll(keepingCapacity: true)
        // Room for each and one dependency: grown append by append, the
        // list of a chunk of 64 was reallocated seven times (a twentieth of
        // the start thread's time in a flat trace).
        missing.reserveCapacity(2 * indices.count)
        func consider(_ i: Int) {
            if records[i].phase != .finished && !isMade(i) { missing.append(i) }
        }
        for i in indices {
            consider(Int(i))
            for d in facts.graph.dependencies(of: Int(i)) { consider(Int(d)) }
        }
    }

    /// Foundation has processed operation `i`'s finish (`afterFinish` said
    /// to ask): whether the shell lets go of its object now (`mayLetGo`),
    /// while the run goes on. A fact, so mutating like the others: the
    /// shell asks it on the model in place (`RunCore.withLockedModel`).
    mutating func foundationProcessedFinish(_ i: Int) -> Bool { lifecycle == .running && mayLetGo(i) }

    /// What the shell does once Foundation has processed the finish of
    /// operation `i` that gave `scan`: nil when nothing (no dispatch to look
    /// for, and something waits for it, so its object stays), so that such a
    /// finish takes the lock no more; otherwise the scan to look at, with
    /// `foundationProcessedFinish` asked under the same lock.
    ///
    /// Mutating although it changes nothing, because it is called with a
    /// mutating call as its argument (`afterFinish(i, scan: finish(i))`):
    /// a non-mutating method there copies the model before the argument
    /// runs, and the finish then copies every array it appends to (the
    /// event log, on every finish: a flat 200,000 took 30 s). A mutating
    /// one starts its access to the model only once the argument is made.
    mutating func afterFinish(_ i: Int, scan: DispatchScan) -> DispatchScan? {
        scan.isEmpty && facts.graph.hasDependents(i) ? nil : scan
    }

    // MARK: - The scheduler

    /// The scheduler thread's next step.
    enum SchedulerStep: Equatable {
        /// The run ended or stopped: the thread ends.
        case ends
        /// Perform this item now (taken off the schedule already).
        case fire(Scheduled)
        /// Sleep at most this many real seconds (woken early by a new
        /// timer, a pause, a resume, a speed change, the end); then, when
        /// `watchesStall`, `watchForStall`.
        case sleep(Double, watchesStall: Bool)
    }

    /// The item due now, taken off the schedule; or how long to sleep: until
    /// the next item, or until an asynchronous operation that never posts
    /// its finish is past its work, at most 200 ms. Nothing fires while
    /// scenario time is stopped.
    mutating func schedulerStep(real: UInt64) -> SchedulerStep {
        if log.isClosed || lifecycle == .stopped { return .ends }
        let now = now(real)
        let paused = clock.isStopped
        let next = nextScheduled()
        if let next, next.due <= now, !paused {
            take(next.item)
            return .fire(next.item)
        }
        var wait = 0.2
        if let next, !paused { wait = min(wait, max((next.due - now) / clock.speed, 0.0005)) }
        let forgetsAt = timers.forgetsAt
        if forgetsAt > now, !paused { wait = min(wait, max((forgetsAt - now) / clock.speed, 0.0005)) }
        return .sleep(wait, watchesStall: !hasEngineWorkScheduled)
    }

    /// The stall condition must hold, with no new event, across this much
    /// real time (nanoseconds) before a stall is declared, so that
    /// transient engine states pass (an operation Foundation dispatched
    /// that no worker thread runs yet).
    static let stallDebounce: UInt64 = 200_000_000

    /// After a scheduler sleep with no action or timer to come: starts
    /// watching the stall condition, or declares the stall once it held,
    /// unchanged, across `stallDebounce`.
    mutating func watchForStall(real: UInt64) {
        guard let seq = stallProbe(at: now(real)) else {
            stallWatch = nil
            return
        }
        if let watch = stallWatch, watch.seq == seq {
            if real &- watch.since >= Self.stallDebounce { declareStall(ifStillAt: seq, real: real) }
        } else {
            stallWatch = (seq, real)
        }
    }

    // MARK: - Delivery

    /// What the shell tells others once it released the lock after events
    /// may have been recorded.
    struct Delivery: Equatable {
        /// The mailbox went from empty to non-empty: tell the consumer.
        var tellsConsumer = false
        /// The stream closed: wake `waitForEnd` and every sleeper (once).
        var announcesEnd = false
    }

    /// The delivery due now; `hasConsumer`: someone is told of new events.
    mutating func delivery(hasConsumer: Bool) -> Delivery {
        var delivery = Delivery()
        if !mailboxSignalled && log.hasNew && hasConsumer {
            mailboxSignalled = true
            delivery.tellsConsumer = true
        }
        if log.isClosed && !endAnnounced {
            endAnnounced = true
            delivery.announcesEnd = true
        }
        return delivery
    }

    /// The consumer takes the events recorded since it last did: the next
    /// event tells it again, unless it `comesBack` (it takes again soon by
    /// itself, so nothing need wake it meanwhile).
    mutating func takeEvents(comesBack: Bool = false) -> [LifecycleEvent] {
        mailboxSignalled = comesBack
        return log.takeNew()
    }

    // MARK: - Values, as an observer reads them

    func value(ofOperation i: Int, _ key: OperationKey) -> KeyValue {
        let r = records[i]
        switch key {
        case .isReady: return .bool(r.phase != .notAdded && r.phase != .pending)
        case .isExecuting: return .bool(r.phase == .executing && !r.stranded)
        case .isFinished: return .bool(r.phase == .finished)
        case .isCancelled: return .bool(r.cancelled)
        case .queuePriority: return .priority(r.priority)
        }
    }

    func value(ofQueue q: Int, _ key: QueueKey) -> KeyValue {
        switch key {
        case .isSuspended: return .bool(queues[q].suspended)
        case .maxConcurrentOperationCount: return .int(queues[q].cap)
        case .operationCount: return .int(queues[q].operationCount)
        }
    }

    func threadTag(of i: Int) -> ThreadTag? {
        records[i].thread < 0 ? nil : ThreadTag(Int(records[i].thread))
    }
}
