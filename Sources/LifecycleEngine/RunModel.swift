import FoundationRules
import RunEvents
import ScenarioKit

/// The rules of a run, as a value: what each fact of the engine (an
/// operation added, begun, finished, cancelled before it started; an
/// action; a caption reached) implies for the operations, the queues and
/// the stream. No locks, threads, Foundation or clock reading: time comes
/// in as a real-time reading (`real`, monotonic nanoseconds) that the
/// model's own `ScenarioClock` turns into scenario seconds; every event
/// goes into `log`.
///
/// The shell (`RunCore`) holds it under one lock, reads the real time,
/// makes the calls into Foundation and reports the engine's facts back
/// here. Tests drive it directly, with made-up times.
struct RunModel {
    /// Where an operation is, as the run has announced it.
    enum Phase: UInt8 {
        case notAdded, pending, ready, executing, finished
    }

    enum Kind: UInt8 {
        /// `custom`: the user's own class (`class TYPE`), observed, not modelled.
        case work, blocks, async, barrier, custom
    }

    /// The run's bookkeeping for one operation: 20 bytes, the wider
    /// fields first (a million operations hold a million of these); what
    /// it waits for and who waits for it are in `facts.graph` and, for
    /// the waits a barrier adds, `barriers`.
    struct Record {
        /// When it was filed in its `bucket` (`DispatchOrder`).
        var bucketSeq: UInt32 = 0
        /// Unfinished dependencies as the run derives them (declared ones,
        /// and the barriers of its queue it implicitly waits for).
        var unfinishedDeps: Int32 = 0
        var thread: Int16 = -1
        var phase: Phase = .notAdded
        var cancelled = false
        /// A cancel that lost the race with `start()`: applied when `main()` begins.
        var heldCancel = false
        /// A barrier cancelled while it waited: Foundation finishes it only
        /// when what runs before it returns (`barrierReallyFinished`).
        var awaitsRealFinish = false
        var gateOpened = false
        /// Its queue dispatched it (announced: a scan saw it, or its start).
        var dispatched = false
        /// Its `start()` returned without posting `isFinished`
        /// (`never-finishes if-cancelled`): executing for its queue, for good.
        var stranded = false
        /// `queuePriority` as its getter answers (the announcements' values).
        var priority: PriorityLevel = .normal
        /// Foundation's explicit priority (`__priorityValue`): nil while none
        /// was set, when the queue files it by its QoS (or under normal).
        var explicitPriority: PriorityLevel?
        /// The bucket of its queue it is filed under (`DispatchOrder`).
        var bucket: UInt8 = 3
    }

    struct QueueState {
        /// `maxConcurrentOperationCount` (−1: the system decides).
        var cap: Int
        var suspended: Bool
        let isMain: Bool
        let hasBarriers: Bool
        var operationCount = 0
        var executing = 0
        /// Added, announced ready, not dispatched.
        var readyWaiting = 0
        /// Dispatched, not started: a thread will start each.
        var dispatchedWaiting = 0
        /// Operations added to this queue (kept only when it has barriers).
        var members: [Int32] = []
        /// Barriers added whose block has not begun.
        var pendingBarriers: [Int32] = []

        /// How many may hold a slot at once (`CapRule.limit`): nil when the
        /// system decides.
        var limit: Int? { CapRule.limit(foundationValue: cap, isMainQueue: isMain) }

        /// Whether it may hand out one more (`DispatchRule.mayDispatch`),
        /// `holding` of its operations holding a slot. The language refuses
        /// to suspend the main queue.
        func mayDispatch(holding: Int) -> Bool {
            DispatchRule.mayDispatch(holding: holding, limit: limit, suspended: suspended && !isMain)
        }

        /// The cap a queue starts with: what the file asks, made one that
        /// `CapRule.accepts` (the language's `max 0` means 1); the main
        /// queue's is 1, whatever is asked.
        static func startingCap(_ spec: QueueSpec) -> Int {
            if spec.isMain { return 1 }
            let asked = spec.cap.foundationValue
            return asked == 0 ? 1 : max(asked, CapRule.systemDefault)
        }

        /// Whether an action may set the cap to `value` (`CapRule.accepts`).
        static func accepts(cap value: Int) -> Bool { CapRule.accepts(value) }
    }

    /// Where the run is in its life: `start` moves it from `created` to
    /// `running`, `stop` from either to `stopped`, for good.
    enum Lifecycle {
        case created, running, stopped
    }

    let scenario: Scenario
    let stallPolicy: StallPolicy
    /// What the scenario fixes about each operation, never changed.
    let facts: OperationFacts
    /// The shell reads the moment of each dispatch (`RunOptions.stateReader`);
    /// false: each is announced at its operation's `start()` only
    /// (`startCalled`), and the captions that speak of a dispatch are not
    /// in `captions`.
    let observesDispatches: Bool

    // The parts of a run's state that each keep their own rules, composed
    // here: the model's files change them only through their methods. Each
    // is a stored property changed in place (`barriers.finished(i)`), never
    // copied out, changed and stored back: their arrays would be copied
    // whole.

    /// The waits barriers add as operations are added.
    var barriers = BarrierWaits()
    /// Each queue's ready operations not yet seen dispatched, in order.
    var dispatch: DispatchFiling
    /// The timers that end asynchronous operations and leftover work.
    var timers = RunTimers()
    /// The waits and hand starts posted to the main thread.
    var mainThread = MainThreadState()
    /// The `when` and `at` captions, and the next `at` one.
    var captions: RunCaptions
    /// The threads seen so far and their tags.
    var threads = ThreadTags()
    /// The operations the start adds, and how far it is with them.
    var startAdds: StartAdds

    /// By operation index: the hot array, changed in place.
    var records: [Record]
    /// By queue index: the other hot array.
    var queues: [QueueState]
    var clock: ScenarioClock
    var log: EventLog
    var lifecycle = Lifecycle.created
    var unfinishedOps: Int
    /// Sync operations (and barrier blocks) doing simulated work.
    var workingCount = 0
    var timedActionsLeft: Int
    var completionsOwed = 0
    var completionsRun = 0
    /// `seq` of the last `.stall` announced, so that the same stall is not
    /// announced twice; -1 before any.
    var stallSeq = -1
    /// The next `scenario.actions` entry to come.
    var nextTimedAction = 0
    /// The real-time reading of the fact being recorded (see `stamp`).
    private(set) var reading: UInt64 = 0
    /// The stall condition's debounce: the `seq` it was found at, and the
    /// real time it was first found there (`watchForStall`).
    var stallWatch: (seq: Int, since: UInt64)?
    /// The consumer was told of new events it has not taken yet.
    var mailboxSignalled = false
    /// The close of the stream was passed on (`delivery`).
    var endAnnounced = false
    /// What the run saw of each operation of the user's own class (`class
    /// TYPE`), by index: few, so aside (`RunModel+Custom.swift`).
    var custom: [Int32: CustomRecord] = [:]
    /// The operations of the user's classes, in index order: what the
    /// watch of them goes through every 2 ms.
    let customIndices: [Int]

    init(scenario: Scenario, options: RunOptions) {
        self.scenario = scenario
        customIndices = scenario.customOperations.map(\.index)
        stallPolicy = options.stallPolicy
        let specs = scenario.operations
        facts = OperationFacts(scenario)
        observesDispatches = options.stateReader != nil
        captions = RunCaptions(
            scenario, observesDispatches: observesDispatches, pausesAtCaptions: options.pausesAtCaptions)
        startAdds = StartAdds(scenario)
        dispatch = DispatchFiling(queues: scenario.queues.count)
        records = [Record](repeating: Record(), count: specs.count)
        var barrierQueues = Set<Int>()
        for s in specs where s.isBarrier { barrierQueues.insert(s.queue.index) }
        queues = scenario.queues.enumerated().map { i, q in
            QueueState(
                cap: QueueState.startingCap(q),
                suspended: q.isMain ? false : q.startsSuspended, isMain: q.isMain,
                hasBarriers: barrierQueues.contains(i))
        }
        clock = ScenarioClock(speed: options.speed, paused: options.startsPaused)
        unfinishedOps = specs.count
        timedActionsLeft = scenario.actions.count
        // Roughly six events an operation.
        log = EventLog(
            capacity: min(specs.count * 6 + scenario.queues.count * 4 + 64, 4_000_000),
            keepsHistory: options.keepsHistory)
        for (i, spec) in specs.enumerated() where !spec.isBarrier {
            records[i].unfinishedDeps = Int32(facts.graph.dependencies(of: i).count)
            if let p = spec.priority {
                records[i].priority = p
                records[i].explicitPriority = p
            }
        }
    }

    // MARK: - Recording

    @inline(__always) func now(_ real: UInt64) -> Double { clock.now(real) }

    /// The scenario time of a fact read at `real`, remembered for what the
    /// fact sets off (a caption pausing the clock).
    @inline(__always) mutating func stamp(_ real: UInt64) -> Double {
        reading = real
        return clock.now(real)
    }

    /// Records one event; a `when` caption whose moment it is follows it.
    @inline(__always) mutating func emit(_ kind: LifecycleEvent.Kind, _ t: Double, thread: ThreadTag? = nil) {
        if log.isClosed { return }
        log.append(kind, at: t, thread: thread)
        if captions.hasWhen, case .operation(let op, let key, _, .bool(true)) = kind {
            for caption in captions.captions(of: op.index, becoming: key) { self.caption(caption, t) }
        }
    }

    @inline(__always) mutating func emitOp(_ i: Int, _ key: OperationKey, _ old: Bool?, _ new: Bool, _ t: Double) {
        emit(.operation(OperationID(i), key, old: old.map(KeyValue.bool), new: .bool(new)), t)
    }

    /// Announces caption `index`; in lesson mode, scenario time pauses here.
    mutating func caption(_ index: Int, _ t: Double) {
        // Never while the main thread waits: no key resumes the run then.
        let pause = captions.pausesAtCaptions && !clock.isPaused && mainThread.wait == nil
        if pause { clock.pause(reading) }
        emit(.caption(index, paused: pause), t)
    }

    // MARK: - The run's life

    /// `created` → `running`: scenario time starts at `real`, and each
    /// queue's configuration is announced as changes from what a new
    /// `OperationQueue` has. False when the run was not `created`.
    mutating func start(real: UInt64) -> Bool {
        guard lifecycle == .created else { return false }
        lifecycle = .running
        clock.start(real)
        let t = stamp(real)
        for (q, spec) in scenario.queues.enumerated() {
            let cap = queues[q].cap
            if cap != -1 {
                emit(.queue(QueueID(q), .maxConcurrentOperationCount, old: .int(-1), new: .int(cap)), t)
            }
            if spec.startsSuspended && !spec.isMain {
                emit(.queue(QueueID(q), .isSuspended, old: .bool(false), new: .bool(true)), t)
            }
        }
        return true
    }

    /// Either state → `stopped`: the stream closes. Returns what it was.
    mutating func stop() -> Lifecycle {
        let was = lifecycle
        lifecycle = .stopped
        log.close()
        return was
    }

    /// Ends the run with `outcome`: the last event.
    mutating func end(_ outcome: RunOutcome, _ t: Double) {
        emit(.end(outcome), t)
        log.close()
    }

    /// Completed: every operation finished and every owed completion block
    /// ran. The timed actions still to come are not waited for: with every
    /// operation finished, none of them can change anything an operation
    /// does (an `add` would leave its operation unfinished until then), and
    /// a far-future one must not hold the run for days.
    ///
    /// Actions already due (at `t` or before: `at 0ms` actions in a file
    /// whose operations all finished at once, or that has none) are still
    /// performed first: they belong to the moment the run is in.
    mutating func checkCompleted(_ t: Double) {
        guard
            !log.isClosed && lifecycle == .running && unfinishedOps == 0 && completionsRun == completionsOwed
                && mainThread.isIdle && timers.leftoversPending == 0
        else { return }
        if nextTimedAction < scenario.actions.count && scenario.actions[nextTimedAction].time.seconds <= t {
            return
        }
        end(.completed, t)
    }

    /// Timed actions the run did not wait for (its end came first).
    var timedActionsNotPerformed: Int { scenario.actions.count - nextTimedAction }
}
