import FoundationRules

/// A validated scenario: what `ScenarioKit` hands to the engine.
///
/// Every name in it has been resolved: queues and operations are referred
/// to by index (`QueueID`, `OperationID`) so the engine and the board never
/// look names up on a hot path. Indices follow file order.
public struct Scenario: Sendable, Hashable {
    public var title: String?
    public var notes: [String]
    /// Declared queues in file order; one implicit `default` queue when the
    /// file declares none.
    public var queues: [QueueSpec]
    /// Operations and barriers in file order (file order is insertion order).
    public var operations: [OperationSpec]
    /// Timed actions sorted by time; equal times keep file order.
    public var actions: [TimedAction]
    public var expectations: [Expectation]
    /// The file's `quiz`, if it has one (at most one per file).
    public var quiz: Quiz?
    /// The teacher's script (`at TIME say`, `when OP MOMENT say`) in file
    /// order. Timed captions are not in `actions`: they change nothing in
    /// the run; whoever shows them merges them with the actions by (time,
    /// source line).
    public var captions: [Caption]
    /// The pace the interactive view opens the scenario at when the user
    /// gives no `--speed` (scenario seconds per real second, always within
    /// `Scenario.speedRange`); nil when the file says nothing. `trace` and
    /// `quiz` ignore it.
    public var speed: Double?
    /// The fastest speed at which the file promises its expectations
    /// (`speed 1 up to 4`), for a scenario whose outcome depends on real
    /// time (a thread pool that grows once a real second); nil: any speed.
    public var promisedUpTo: Double?
    /// `work D leaves D2`: per operation whose `main()` starts work of its
    /// own and returns without waiting for it, how long that work runs on
    /// after `main()` returned. Few operations have one: a table aside, not
    /// a field of every operation.
    public var leftovers: [OperationID: Duration] = [:]
    /// `never-finishes if-cancelled`: asynchronous operations whose
    /// `start()`, when it finds them cancelled before they started,
    /// returns without posting `isFinished` (or `isExecuting`); otherwise
    /// they finish as usual.
    public var forgetsIfCancelled: Set<OperationID> = []
    /// `add A, B, …` at the top level: operations the start adds to their
    /// queue in one `addOperations([A, B, …], waitUntilFinished: false)`
    /// call, in file order of the statements. Each holds two or more
    /// operations of one queue, none a barrier, each added nowhere else.
    public var startBatches: [AddBatch] = []
    /// `code "FILE.swift"`: the Swift files whose `Operation` subclasses
    /// `class TYPE` names, as written (relative to the scenario's file),
    /// in file order.
    public var code: [CodeFile] = []
    /// `class TYPE`: where each such operation's type was written, for a
    /// diagnostic about the type (missing, not an `Operation`, `final`).
    public var classLocations: [OperationID: SourceLocation] = [:]

    /// The operations made from a class of the user's own.
    public var customOperations: [OperationID] {
        operations.indices.filter { operations[$0].body.customClass != nil }.map(OperationID.init)
    }

    /// The work operation `op`'s `main()` leaves running when it returns
    /// (`work D leaves D2`), if any.
    public func leftover(of op: OperationID) -> Duration? { leftovers.isEmpty ? nil : leftovers[op] }

    /// The speeds `trace` and `quiz` run at: slow enough to watch a
    /// millisecond, fast enough to rush a long scenario; past these the
    /// clock's arithmetic would lose the run's own precision or never
    /// finish.
    public static let traceSpeedRange: ClosedRange<Double> = 0.01...1000

    /// The speeds an `up to` may name: from the slowest a `speed` may ask
    /// for to the fastest `trace` runs.
    public static let promisedRange: ClosedRange<Double> = speedRange.lowerBound...traceSpeedRange.upperBound

    /// The speeds a `speed` statement may ask for: the interactive view's
    /// own range.
    public static let speedRange: ClosedRange<Double> = 0.125...64

    public init(
        title: String? = nil, notes: [String] = [], queues: [QueueSpec],
        operations: [OperationSpec], actions: [TimedAction] = [],
        expectations: [Expectation] = [], quiz: Quiz? = nil,
        captions: [Caption] = [], speed: Double? = nil, promisedUpTo: Double? = nil
    ) {
        self.title = title
        self.notes = notes
        self.queues = queues
        self.operations = operations
        self.actions = actions
        self.expectations = expectations
        self.quiz = quiz
        self.captions = captions
        self.speed = speed
        self.promisedUpTo = promisedUpTo
    }

    public func queueID(named name: String) -> QueueID? {
        queues.firstIndex { $0.name == name }.map(QueueID.init)
    }

    public func operationID(named name: String) -> OperationID? {
        operations.firstIndex { $0.name == name }.map(OperationID.init)
    }

    // Inlinable, so that reading one field (`scenario[operation: op].queue`,
    // on every event of a run) reads that field, not a copy of the whole spec.
    @inlinable public subscript(queue id: QueueID) -> QueueSpec { queues[id.index] }
    @inlinable public subscript(operation id: OperationID) -> OperationSpec { operations[id.index] }

    /// The operations (and barriers) that some `add` action adds later
    /// instead of at time 0.
    public var addedLater: Set<OperationID> {
        var ids = Set<OperationID>()
        for timed in actions {
            for op in timed.action.addedOperations { ids.insert(op) }
        }
        return ids
    }

    /// The operations some `start` action names: the main thread calls
    /// their `start()` by hand, and they are never added to a queue (their
    /// `queue` is only where the file put them, which no queue holds).
    public var startedByHand: Set<OperationID> {
        var ids = Set<OperationID>()
        for timed in actions {
            if case .start(let op) = timed.action { ids.insert(op) }
        }
        return ids
    }

    /// The operations the run adds at time 0, in file order: every one that
    /// neither an `add` action adds later nor a `start` action starts by hand.
    /// The operations of a start batch (`startBatches`) come together, in
    /// the order its statement lists them, where the first of them in file
    /// order would come: the start makes one `addOperations` call there
    /// (`startBatchBeginning`).
    public var addedAtStart: [OperationID] {
        var later = addedLater
        later.formUnion(startedByHand)
        var ids: [OperationID] = []
        ids.reserveCapacity(operations.count - later.count)
        if startBatches.isEmpty {
            for index in operations.indices where later.isEmpty || !later.contains(OperationID(index)) {
                ids.append(OperationID(index))
            }
            return ids
        }
        var batchOf: [OperationID: Int] = [:]
        for (b, batch) in startBatches.enumerated() {
            for op in batch.operations { batchOf[op] = b }
        }
        var added = Set<Int>()
        for index in operations.indices where later.isEmpty || !later.contains(OperationID(index)) {
            guard let b = batchOf[OperationID(index)] else {
                ids.append(OperationID(index))
                continue
            }
            if added.insert(b).inserted { ids += startBatches[b].operations }
        }
        return ids
    }

    /// The start batch (index into `startBatches`) whose `addOperations`
    /// call begins with `op`, its first listed operation, if any.
    public var startBatchBeginning: [OperationID: Int] {
        var first: [OperationID: Int] = [:]
        for (b, batch) in startBatches.enumerated() {
            if let op = batch.operations.first { first[op] = b }
        }
        return first
    }
}

/// Index of a queue in `Scenario.queues`.
public struct QueueID: Sendable, Hashable, Comparable {
    public var index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: QueueID, b: QueueID) -> Bool { a.index < b.index }
}

/// Index of an operation or barrier in `Scenario.operations`.
public struct OperationID: Sendable, Hashable, Comparable {
    public var index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: OperationID, b: OperationID) -> Bool { a.index < b.index }
}

/// `maxConcurrentOperationCount` as declared.
public enum ConcurrencyCap: Sendable, Hashable {
    /// `OperationQueue.defaultMaxConcurrentOperationCount` (−1): the system decides.
    case systemDefault
    /// A fixed cap, always ≥ 1 (0 would stall the queue silently; the
    /// language rejects it).
    case limit(Int)

    /// The value Foundation's property takes.
    public var foundationValue: Int {
        switch self {
        case .systemDefault: -1
        case .limit(let n): n
        }
    }
}

public struct QueueSpec: Sendable, Hashable {
    public var name: String
    public var cap: ConcurrencyCap
    public var qos: QoSLevel?
    public var startsSuspended: Bool
    /// This queue is `OperationQueue.main`.
    public var isMain: Bool
    public var location: SourceLocation

    public init(
        name: String, cap: ConcurrencyCap = .systemDefault, qos: QoSLevel? = nil,
        startsSuspended: Bool = false, isMain: Bool = false,
        location: SourceLocation = SourceLocation(line: 0, column: 0)
    ) {
        self.name = name
        self.cap = cap
        self.qos = qos
        self.startsSuspended = startsSuspended
        self.isMain = isMain
        self.location = location
    }

    /// The most of its operations that may hold a slot at once, as it is
    /// declared (`CapRule.limit`): nil when the system decides.
    public var limit: Int? { CapRule.limit(foundationValue: cap.foundationValue, isMainQueue: isMain) }

    /// It runs one operation at a time, as declared (`CapRule.isSerial`).
    public var isSerial: Bool { CapRule.isSerial(limit: limit) }
}

/// What an operation does when it runs. All durations are scenario time.
public enum OperationBody: Sendable, Hashable {
    /// `work D`: an `Operation` subclass overriding `main()`.
    case work(Duration)
    /// `blocks …`: a real `BlockOperation`, one execution block per duration.
    case blocks([Duration])
    /// `async D`: overrides `start()` and `isAsynchronous`, finishes D after it starts.
    case async(Duration)
    /// `barrier NAME on Q [work D]`: `addBarrierBlock`; `.zero` when instant.
    case barrier(Duration)
    /// `class TYPE`: an instance of the user's own `Operation` subclass,
    /// declared in a file the scenario names with `code`, made by `TYPE()`.
    /// What it does is its own code's; opscope does not model it.
    case custom(String)

    public var isBarrier: Bool {
        if case .barrier = self { return true }
        return false
    }

    public var isAsync: Bool {
        if case .async = self { return true }
        return false
    }

    /// The user's class, for `class TYPE`.
    public var customClass: String? {
        if case .custom(let name) = self { return name }
        return nil
    }

    /// Total simulated work, the sum of the blocks for `blocks`.
    public var totalDuration: Duration {
        switch self {
        case .work(let d), .async(let d), .barrier(let d): d
        case .blocks(let ds): ds.reduce(.zero, +)
        case .custom: .zero
        }
    }
}

/// `code "FILE.swift"`: a file of the user's own Swift code.
public struct CodeFile: Sendable, Hashable {
    /// As written: relative to the scenario's file unless absolute.
    public var path: String
    /// The `code` keyword.
    public var location: SourceLocation

    public init(path: String, location: SourceLocation) {
        self.path = path
        self.location = location
    }
}

/// The fields are in the order that packs them (72 bytes, not 88): a run
/// of a million operations holds a million of these from its read to its
/// end.
public struct OperationSpec: Sendable, Hashable {
    public var name: String
    public var queue: QueueID
    /// `addDependency` targets, in the order written.
    public var dependencies: DependencyList
    /// nil: no completion block. Otherwise the block runs these actions
    /// (empty: it only reports that it ran). The language writes at most
    /// one (`completion cancel-all QUEUE`), and only `cancel`, `cancelAll`,
    /// `suspend` or `resume`.
    public var completion: [Action]?
    public var location: SourceLocation
    public var body: OperationBody
    /// Explicit `queuePriority`; nil leaves Foundation's default (and lets
    /// QoS pick the bucket, see `PriorityRule.filing`).
    public var priority: PriorityLevel?
    public var qos: QoSLevel?
    public var ignoresCancel: Bool
    public var neverFinishes: Bool

    public init(
        name: String, queue: QueueID, body: OperationBody, dependencies: DependencyList = [],
        priority: PriorityLevel? = nil, qos: QoSLevel? = nil, completion: [Action]? = nil,
        ignoresCancel: Bool = false, neverFinishes: Bool = false,
        location: SourceLocation = SourceLocation(line: 0, column: 0)
    ) {
        self.name = name
        self.queue = queue
        self.body = body
        self.dependencies = dependencies
        self.priority = priority
        self.qos = qos
        self.completion = completion
        self.ignoresCancel = ignoresCancel
        self.neverFinishes = neverFinishes
        self.location = location
    }

    public var isBarrier: Bool { body.isBarrier }
}
