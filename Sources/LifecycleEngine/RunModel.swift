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
        case work, blocks, async, barrier
    }

    /// The run's bookkeeping for one operation: 20 bytes, the wider
    /// fields first (a million operations hold a million of these); what
    /// it waits for and who waits for it are in `graph` and, for the
    /// waits a barrier adds, `barrierWaits` and `barrierDependents`.
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

    // Static facts, by operation index.
    /// The declared dependencies, both ways.
    let graph: DependencyGraph
    let kinds: [Kind]
    let queueOf: [Int32]
    /// Simulated work, scenario seconds.
    let durations: [Double]
    let hasCompletion: [Bool]
    let neverFinishes: [Bool]
    let ignoresCancel: [Bool]
    /// By operation index: the main thread starts it by hand (a `start`
    /// action names it) and no queue holds it. Empty when the scenario has
    /// no `start` action (the hot path then skips: `isByHand`).
    let byHand: [Bool]
    /// `when` captions by operation index: the moment and the caption's
    /// index. Empty when the scenario has none (the hot path then skips).
    let whenCaptions: [Int: [(moment: CaptionMoment, caption: Int)]]
    /// `at` captions (indices into `scenario.captions`) in the order the
    /// run reaches them.
    let timedCaptions: [Int]
    /// The shell reads the moment of each dispatch (`RunOptions.stateReader`);
    /// false: each is announced at its operation's `start()` only
    /// (`startCalled`), and the captions that speak of a dispatch are not
    /// in `whenCaptions` and `timedCaptions`.
    let observesDispatches: Bool

    var records: [Record]
    /// The waits a barrier adds as operations are added: for a barrier,
    /// the unfinished operations of its queue before it; for an operation
    /// added behind waiting barriers, those barriers. Keyed by the waiting
    /// operation, and (`barrierDependents`) by the one waited for, whose
    /// entry goes when it finishes. Empty in a run without barriers.
    var barrierWaits: [Int32: [Int32]] = [:]
    var barrierDependents: [Int32: [Int32]] = [:]
    var queues: [QueueState]
    var clock: ScenarioClock
    var log: EventLog
    var lifecycle = Lifecycle.created
    var unfinishedOps: Int
    /// Sync operations (and barrier blocks) doing simulated work.
    var workingCount = 0
    /// Async operations executing that a timer will finish.
    var asyncTimersPending = 0
    /// The latest scenario time at which the work of an asynchronous
    /// operation that never posts `isFinished` ends (its start plus its
    /// duration): before it, such an operation has not failed yet.
    var forgetsAt = 0.0
    var timedActionsLeft: Int
    var completionsOwed = 0
    var completionsRun = 0
    /// The wait the main thread is blocked in (`Action.wait`,
    /// `Action.waitAll`), from its `started` to its `returned`.
    var mainWait: Action?
    /// Waits asked of the main thread that have not returned yet (the one
    /// in `mainWait`, and those queued behind it on the main queue).
    var mainWaitsOpen = 0
    /// `start` actions due that the main thread has not done with yet: the
    /// call it is in (`handStart`), and those queued behind on the main
    /// queue, not yet made or refused.
    var handStartsOpen = 0
    /// The operation whose `start()` the main thread is in, from its
    /// call's `started` to its `returned`.
    var handStart: Int?
    /// Lesson mode: a caption pauses scenario time.
    var pausesAtCaptions: Bool
    /// `seq` of the last `.stall` announced, so that the same stall is not
    /// announced twice; -1 before any.
    var stallSeq = -1
    /// The timers that end asynchronous operations.
    var timers = TimerHeap()
    /// The timers that end the work a `main()` left running (`leaves`).
    var leftoverTimers = TimerHeap()
    /// Work left running by a `main()` that has not ended yet.
    var leftoversPending = 0
    /// Per queue, its ready operations not yet seen dispatched, in the
    /// order it dispatches them.
    var dispatchOrders: [DispatchOrder] = []
    /// While the shell hands a chunk of adds to Foundation, the entries of
    /// operations it has not handed over yet (see `deferFiling`).
    var deferredFilings: [(entry: UInt64, bucket: UInt8)]? = nil
    /// The last `Record.bucketSeq` given.
    var nextBucketSeq: UInt32 = 0
    /// The next `scenario.actions` and `timedCaptions` entries to come.
    var nextTimedAction = 0
    var nextCaption = 0
    /// The real-time reading of the fact being recorded (see `stamp`).
    private(set) var reading: UInt64 = 0
    /// The threads seen so far (`pthread_self()`) and their tags (`tag`).
    var threads: [(id: UInt, tag: Int16)] = []
    var nextThreadNumber: Int16 = 1
    /// The operations the start adds, in file order, how many it added,
    /// and how many of those it has handed to Foundation.
    let initialAdds: [Int32]
    /// The start batches (`Scenario.startBatches` index) by the operation
    /// in `initialAdds` their one `addOperations` call begins with.
    let startBatchAt: [Int32: Int]
    var nextInitialAdd = 0
    var handedOver = 0
    /// The stall condition's debounce: the `seq` it was found at, and the
    /// real time it was first found there (`watchForStall`).
    var stallWatch: (seq: Int, since: UInt64)?
    /// The consumer was told of new events it has not taken yet.
    var mailboxSignalled = false
    /// The close of the stream was passed on (`delivery`).
    var endAnnounced = false

    init(scenario: Scenario, options: RunOptions) {
        self.scenario = scenario
        stallPolicy = options.stallPolicy
        let specs = scenario.operations
        graph = DependencyGraph(scenario)
        kinds = specs.map {
            switch $0.body {
            case .work: .work
            case .blocks: .blocks
            case .async: .async
            case .barrier: .barrier
            }
        }
        queueOf = specs.map { Int32($0.queue.index) }
        durations = specs.map { $0.body.totalDuration.seconds }
        hasCompletion = specs.map { $0.completion != nil && !$0.isBarrier }
        neverFinishes = specs.map { $0.neverFinishes && $0.body.isAsync }
        ignoresCancel = specs.map { $0.ignoresCancel }
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : specs.indices.map { hand.contains(OperationID($0)) }
        var whens: [Int: [(moment: CaptionMoment, caption: Int)]] = [:]
        var timed: [Int] = []
        observesDispatches = options.stateReader != nil
        // Without the state reader no moment of dispatch is seen: a caption
        // that speaks of one would say what the board cannot show.
        for (index, caption) in scenario.captions.enumerated()
        where observesDispatches || !caption.claimsDispatches {
            switch caption.trigger {
            case .when(let op, let moment): whens[op.index, default: []].append((moment, index))
            case .at: timed.append(index)
            }
        }
        whenCaptions = whens
        timedCaptions = timed.sorted {
            let (a, b) = (scenario.captions[$0].time!, scenario.captions[$1].time!)
            return a != b ? a < b : $0 < $1
        }
        pausesAtCaptions = options.pausesAtCaptions
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
        initialAdds = scenario.addedAtStart.map { Int32($0.index) }
        var batchAt: [Int32: Int] = [:]
        for (op, b) in scenario.startBatchBeginning { batchAt[Int32(op.index)] = b }
        startBatchAt = batchAt
        // Roughly six events an operation.
        log = EventLog(
            capacity: min(specs.count * 6 + scenario.queues.count * 4 + 64, 4_000_000),
            keepsHistory: options.keepsHistory)
        for (i, spec) in specs.enumerated() where !spec.isBarrier {
            records[i].unfinishedDeps = Int32(graph.dependencies(of: i).count)
            if let p = spec.priority {
                records[i].priority = p
                records[i].explicitPriority = p
            }
        }
        dispatchOrders = Array(repeating: DispatchOrder(), count: scenario.queues.count)
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
        if !whenCaptions.isEmpty, case .operation(let op, let key, _, .bool(true)) = kind {
            captions(for: op.index, key, t)
        }
    }

    @inline(__always) mutating func emitOp(_ i: Int, _ key: OperationKey, _ old: Bool?, _ new: Bool, _ t: Double) {
        emit(.operation(OperationID(i), key, old: old.map(KeyValue.bool), new: .bool(new)), t)
    }

    /// Operation `i` is started by hand: in no queue, it counts in none.
    @inline(__always) func isByHand(_ i: Int) -> Bool { !byHand.isEmpty && byHand[i] }

    /// The `when` captions of operation `i` whose moment `key` becoming
    /// true is, in file order.
    private mutating func captions(for i: Int, _ key: OperationKey, _ t: Double) {
        guard let captions = whenCaptions[i] else { return }
        let moment: CaptionMoment
        switch key {
        case .isReady: moment = .ready
        case .isExecuting: moment = .starts
        case .isFinished: moment = .finishes
        case .isCancelled: moment = .cancelled
        case .queuePriority: return
        }
        for entry in captions where entry.moment == moment { caption(entry.caption, t) }
    }

    /// Announces caption `index`; in lesson mode, scenario time pauses here.
    mutating func caption(_ index: Int, _ t: Double) {
        // Never while the main thread waits: no key resumes the run then.
        let pause = pausesAtCaptions && !clock.isPaused && mainWait == nil
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
                && mainWaitsOpen == 0 && handStartsOpen == 0 && leftoversPending == 0
        else { return }
        if nextTimedAction < scenario.actions.count && scenario.actions[nextTimedAction].time.seconds <= t {
            return
        }
        end(.completed, t)
    }

    /// Timed actions the run did not wait for (its end came first).
    var timedActionsNotPerformed: Int { scenario.actions.count - nextTimedAction }
}
