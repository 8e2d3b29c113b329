import FoundationRules
import RunEvents
import ScenarioKit

/// What the board knows about one operation (or barrier): its phase, its
/// flags as last announced, and the times and facts the views show.
///
/// Only `BoardState.apply` changes a card. Times are scenario seconds.
///
/// Kept small, because a run's history keeps many cards (its checkpoints)
/// and seeking copies a whole board of them: each optional value is held
/// as its bare value plus one bit of `held`, 8 bytes where an `Int?` or
/// `Double?` takes 16 in an array, and the one-byte fields sit together at
/// the end, where they fill no padding (168 bytes a card, where plain optionals would take 256).
/// A value that is absent is held as 0, so equal cards are equal field by
/// field.
public struct OperationCard: Sendable, Hashable {
    public let id: OperationID
    public let name: String
    public let queue: QueueID

    /// `seq` of the event that moved the card into `phase` (0 before any):
    /// orders a column by arrival.
    public internal(set) var phaseSeq = 0
    /// `seq` of the event that put it at the end of `effectivePriority`'s
    /// bucket: its add, or the last priority change that moved it there
    /// (Foundation appends a moved operation to its new bucket, behind
    /// operations added after it). 0 before the add.
    public internal(set) var bucketSeq = 0

    /// `seq` and time of the initial notification (the add); nil before.
    public internal(set) var addedSeq: Int? {
        get { held.value(.addedSeq, heldAddedSeq) }
        set { heldAddedSeq = held.keep(newValue, .addedSeq) }
    }
    public internal(set) var addedAt: Double? {
        get { held.value(.addedAt, heldAddedAt) }
        set { heldAddedAt = held.keep(newValue, .addedAt) }
    }
    /// Its queue dispatched it (its `dispatched` event): from then on it
    /// counts against the cap, and it waits for a thread to call `start()`.
    public internal(set) var dispatchedAt: Double? {
        get { held.value(.dispatchedAt, heldDispatchedAt) }
        set { heldDispatchedAt = held.keep(newValue, .dispatchedAt) }
    }
    /// First `isExecuting` true.
    public internal(set) var startedAt: Double? {
        get { held.value(.startedAt, heldStartedAt) }
        set { heldStartedAt = held.keep(newValue, .startedAt) }
    }
    /// `isFinished` true.
    public internal(set) var finishedAt: Double? {
        get { held.value(.finishedAt, heldFinishedAt) }
        set { heldFinishedAt = held.keep(newValue, .finishedAt) }
    }
    /// When the block now running started; nil between blocks.
    public internal(set) var currentBlockStartedAt: Double? {
        get { held.value(.currentBlockStartedAt, heldBlockStartedAt) }
        set { heldBlockStartedAt = held.keep(newValue, .currentBlockStartedAt) }
    }
    /// The thread it ran on, from its `isExecuting` event (and, for
    /// `blocks`, the block events); nil until it started.
    public internal(set) var thread: ThreadTag? {
        get { held.value(.thread, heldThread).map(ThreadTag.init) }
        set { heldThread = held.keep(newValue?.number, .thread) }
    }
    /// `seq` of its first `isCancelled` true; nil while not cancelled.
    public internal(set) var cancelledSeq: Int? {
        get { held.value(.cancelledSeq, heldCancelledSeq) }
        set { heldCancelledSeq = held.keep(newValue, .cancelledSeq) }
    }
    /// The action that cancelled it, as an index into its board's
    /// `actions` (`ActionLog.cancelCause`); nil when not cancelled, or when
    /// the stream does not tell.
    public internal(set) var cancelledBy: Int? {
        get { held.value(.cancelledBy, heldCancelledBy) }
        set { heldCancelledBy = held.keep(newValue, .cancelledBy) }
    }
    public internal(set) var completionThread: ThreadTag? {
        get { held.value(.completionThread, heldCompletionThread).map(ThreadTag.init) }
        set { heldCompletionThread = held.keep(newValue?.number, .completionThread) }
    }

    /// When the work its `main()` left running ended (`leaves`); nil while
    /// it runs, or when there is none.
    public internal(set) var leftoverEndedAt: Double? {
        get { held.value(.leftoverEndedAt, heldLeftoverEndedAt) }
        set { heldLeftoverEndedAt = held.keep(newValue, .leftoverEndedAt) }
    }

    private var heldAddedSeq = 0
    private var heldAddedAt = 0.0
    private var heldDispatchedAt = 0.0
    private var heldStartedAt = 0.0
    private var heldFinishedAt = 0.0
    private var heldBlockStartedAt = 0.0
    private var heldThread = 0
    private var heldCancelledSeq = 0
    private var heldCancelledBy = 0
    private var heldCompletionThread = 0
    private var heldLeftoverEndedAt = 0.0

    /// Execution blocks of a `blocks` operation started / returned so far.
    public internal(set) var blocksStarted = 0
    public internal(set) var blocksReturned = 0

    public let isBarrier: Bool
    /// The main thread starts it by hand (a `start` action names it): it
    /// is in no queue, never added nor dispatched, and counts in no
    /// queue's running (`queue` is only where the file put it).
    public let startedByHand: Bool
    public internal(set) var phase: Phase = .notAdded

    public internal(set) var isReady = false
    public internal(set) var isExecuting = false
    public internal(set) var isFinished = false
    public internal(set) var isCancelled = false
    /// `cancel()` arrived while it ran: Foundation only sets the flag, the
    /// card stays in Executing until the work notices (or never does).
    public internal(set) var cancelRequestedWhileExecuting = false

    /// The explicit `queuePriority` (the scenario's, then any change that
    /// Foundation took); nil while Foundation's default applies.
    public internal(set) var queuePriority: PriorityLevel?
    /// The bucket the queue actually files it under (docs/SCENARIO-LANGUAGE.md); settled when the operation is added, moved by a
    /// priority change that Foundation does not lose.
    public internal(set) var effectivePriority: PriorityLevel = .normal
    /// What chose `effectivePriority` (`PriorityRule.Source`): its
    /// `queuePriority`, its QoS, neither, or its QoS not asked on a queue
    /// whose cap was 1.
    public internal(set) var prioritySource: PriorityRule.Source = .normal
    /// `effectivePriority` came from the operation's QoS, not from `queuePriority`.
    public var priorityFromQoS: Bool { prioritySource == .qos }
    /// The last priority change was announced but lost: Foundation looked
    /// for the operation in another bucket than the one it is filed under
    /// (added to a serial queue without a priority, its QoS names another
    /// bucket) and left it where it was (docs/SCENARIO-LANGUAGE.md).
    public internal(set) var priorityChangesLost = false
    public internal(set) var completionRan = false
    /// Work its `main()` started and did not wait for runs on (`leaves`),
    /// though Foundation took the operation for finished.
    public internal(set) var leftoverRunning = false
    /// Its `start()` saw it cancelled and returned without posting
    /// `isFinished` (`never-finishes if-cancelled`): its queue counts it as
    /// running, for good.
    public internal(set) var stranded = false

    /// Which of the optional values are present.
    private var held: Held = []

    init(id: OperationID, spec: OperationSpec, startedByHand: Bool = false) {
        self.id = id
        name = spec.name
        queue = spec.queue
        isBarrier = spec.isBarrier
        self.startedByHand = startedByHand
        queuePriority = spec.priority
        effectivePriority = spec.priority ?? .normal
        if spec.priority != nil { prioritySource = .explicit }
    }

    /// Cancelled before it started: finished without ever executing.
    public var wasSkipped: Bool { phase == .cancelled && startedAt == nil }

    /// Dispatched by its queue and not started (nor finished) yet: waiting
    /// for a thread to call its `start()`.
    public var isWaitingForThread: Bool { dispatchedAt != nil && startedAt == nil && !isFinished && !stranded }

    /// The phase the flags say, given the phase so far (a final phase stays).
    var derivedPhase: Phase {
        if phase == .finished || phase == .cancelled { return phase }
        if isFinished { return isCancelled ? .cancelled : .finished }
        // Between isExecuting false and isFinished true (two notifications
        // as main() returns; forever when an asynchronous operation forgets
        // the second) it is no longer executing and not yet finished, and
        // never ready again: it stays in Executing, where its queue still
        // counts it against the cap.
        // A stranded one is neither, but its queue counts it as running.
        if isExecuting || startedAt != nil || stranded { return .executing }
        if addedSeq == nil { return .notAdded }
        return isReady ? .ready : .pending
    }

    /// The list of its queue it waits in while ready: barriers', or its
    /// priority's bucket.
    public var dispatchBucket: DispatchBucket { isBarrier ? .barrier : DispatchBucket(effectivePriority) }

    /// Its place in its queue's walk (`DispatchRule.Place`): its bucket,
    /// and when it was filed there (not added: after everything).
    public var dispatchPlace: DispatchRule.Place {
        DispatchRule.Place(bucket: dispatchBucket, filed: addedSeq == nil ? Int.max : bucketSeq)
    }

    /// This card gets a slot of its queue before `other`, both ready and
    /// not dispatched (`DispatchRule.precedes`; file order between cards
    /// filed at one event).
    public func isAhead(of other: OperationCard) -> Bool {
        let (mine, theirs) = (dispatchPlace, other.dispatchPlace)
        return mine != theirs ? DispatchRule.precedes(mine, theirs) : id.index < other.id.index
    }

    /// One bit per optional value of a card: set while it has one.
    private struct Held: OptionSet, Sendable, Hashable {
        let rawValue: UInt16

        static let addedSeq = Held(rawValue: 1 << 0)
        static let addedAt = Held(rawValue: 1 << 1)
        static let startedAt = Held(rawValue: 1 << 2)
        static let finishedAt = Held(rawValue: 1 << 3)
        static let currentBlockStartedAt = Held(rawValue: 1 << 4)
        static let thread = Held(rawValue: 1 << 5)
        static let cancelledSeq = Held(rawValue: 1 << 6)
        static let completionThread = Held(rawValue: 1 << 7)
        static let dispatchedAt = Held(rawValue: 1 << 8)
        static let leftoverEndedAt = Held(rawValue: 1 << 9)
        static let cancelledBy = Held(rawValue: 1 << 10)

        func value<Value>(_ bit: Held, _ stored: Value) -> Value? { contains(bit) ? stored : nil }

        /// Marks `bit` as `value` says and gives what to store: the value,
        /// or 0 when there is none.
        mutating func keep<Value: Numeric>(_ value: Value?, _ bit: Held) -> Value {
            guard let value else {
                remove(bit)
                return 0
            }
            insert(bit)
            return value
        }
    }
}
