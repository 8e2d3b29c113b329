import RunEvents
import ScenarioKit

/// What the board knows about one operation (or barrier): its phase, its
/// flags as last announced, and the times and facts the views show.
///
/// Only `BoardState.apply` changes a card. Times are scenario seconds.
public struct OperationCard: Sendable, Hashable {
    public let id: OperationID
    public let name: String
    public let queue: QueueID
    public let isBarrier: Bool

    public internal(set) var phase: Phase = .notAdded
    /// `seq` of the event that moved the card into `phase` (0 before any):
    /// orders a column by arrival.
    public internal(set) var phaseSeq = 0

    public internal(set) var isReady = false
    public internal(set) var isExecuting = false
    public internal(set) var isFinished = false
    public internal(set) var isCancelled = false
    /// `cancel()` arrived while it ran: Foundation only sets the flag, the
    /// card stays in Executing until the work notices (or never does).
    public internal(set) var cancelRequestedWhileExecuting = false

    /// The explicit `queuePriority` (the scenario's, then any announced
    /// change); nil while Foundation's default applies.
    public internal(set) var queuePriority: PriorityLevel?
    /// The bucket the queue actually files it under (ENGINE-NOTES "QoS
    /// becomes priority"); settled when the operation is added.
    public internal(set) var effectivePriority: PriorityLevel = .normal
    /// `effectivePriority` came from the operation's QoS, not from `queuePriority`.
    public internal(set) var priorityFromQoS = false
    /// Added without explicit priority to a serial queue: a later priority
    /// change is announced but lost (ENGINE-NOTES "QoS becomes priority").
    public internal(set) var priorityChangesLost = false

    /// `seq` and time of the initial notification (the add); nil before.
    public internal(set) var addedSeq: Int?
    public internal(set) var addedAt: Double?
    /// First `isExecuting` true.
    public internal(set) var startedAt: Double?
    /// `isFinished` true.
    public internal(set) var finishedAt: Double?

    /// Execution blocks of a `blocks` operation started / returned so far.
    public internal(set) var blocksStarted = 0
    public internal(set) var blocksReturned = 0
    /// When the block now running started; nil between blocks.
    public internal(set) var currentBlockStartedAt: Double?
    /// The thread it ran on, from its `isExecuting` event (and, for
    /// `blocks`, the block events); nil until it started.
    public internal(set) var thread: ThreadTag?
    /// `seq` of its first `isCancelled` true; nil while not cancelled.
    public internal(set) var cancelledSeq: Int?
    public internal(set) var completionRan = false
    public internal(set) var completionThread: ThreadTag?

    init(id: OperationID, spec: OperationSpec) {
        self.id = id
        name = spec.name
        queue = spec.queue
        isBarrier = spec.isBarrier
        queuePriority = spec.priority
        effectivePriority = spec.priority ?? .normal
    }

    /// Cancelled before it started: finished without ever executing.
    public var wasSkipped: Bool { phase == .cancelled && startedAt == nil }

    /// The phase the flags say, given the phase so far (a final phase stays).
    var derivedPhase: Phase {
        if phase == .finished || phase == .cancelled { return phase }
        if isFinished { return isCancelled ? .cancelled : .finished }
        // Between isExecuting false and isFinished true (two notifications
        // as main() returns; forever when an asynchronous operation forgets
        // the second) it is no longer executing and not yet finished, and
        // never ready again: it stays in Executing, where its queue still
        // counts it against the cap.
        if isExecuting || startedAt != nil { return .executing }
        if addedSeq == nil { return .notAdded }
        return isReady ? .ready : .pending
    }

    /// Rank among the ready operations of a queue: barriers first, then
    /// the priority buckets (ENGINE-NOTES "Scheduling").
    public var schedulingRank: Int { isBarrier ? Int.max : effectivePriority.rawPriority }
}
