import ScenarioKit

/// What the board knows about one queue, as its observers announced it.
public struct QueueRow: Sendable, Hashable {
    public let id: QueueID
    public let name: String
    /// `OperationQueue.main`: serial whatever its properties say.
    public let isMain: Bool

    /// `maxConcurrentOperationCount` (`.systemDefault` for −1). Starts as
    /// declared; the main queue shows `.limit(1)`, the cap it really has.
    public internal(set) var cap: ConcurrencyCap
    public internal(set) var isSuspended: Bool
    /// Foundation's `operationCount` as last announced (barriers excluded).
    public internal(set) var operationCount = 0
    /// Its operations (and barriers) with `isExecuting` true now.
    public internal(set) var executing = 0
    /// Its operations it dispatched that no thread has started yet: they
    /// count against its cap too (`OperationCard.isWaitingForThread`).
    public internal(set) var waitingForThread = 0
    /// Its operations whose `start()` returned without posting `isFinished`
    /// (`OperationCard.stranded`): they hold a slot of its cap for good.
    public internal(set) var stranded = 0
    /// The most that were executing at once so far.
    public internal(set) var peak = 0

    init(id: QueueID, spec: QueueSpec) {
        self.id = id
        name = spec.name
        isMain = spec.isMain
        cap = spec.isMain ? .limit(1) : spec.cap
        isSuspended = spec.isMain ? false : spec.startsSuspended
    }

    /// The cap as a number; nil when the system decides.
    public var limit: Int? {
        if case .limit(let n) = cap { return n }
        return nil
    }

    /// Slots its cap leaves for operations not yet dispatched: the cap less
    /// what executes and what waits for a thread; nil when the system decides.
    public var freeSlots: Int? { limit.map { $0 - executing - waitingForThread - stranded } }

    /// Suspension that holds its operations back (the main queue ignores it).
    public var holdsBack: Bool { isSuspended && !isMain }
}
