import FoundationRules
import ScenarioKit

/// One observer notification (or action, or the end of the run), stamped
/// by the engine with a global sequence number and the scenario time at
/// the moment it was announced.
///
/// Events name operations and queues by index into the `Scenario`, so that
/// recording one costs no reference counting on the engine's hot path.
/// The stream of a run is a total order consistent with causality (see
/// docs/SCENARIO-LANGUAGE.md, "For contributors").
public struct LifecycleEvent: Sendable, Hashable {
    /// Strictly increasing within a run, from 1.
    public var seq: Int
    /// Scenario seconds since the start of the run.
    public var time: Double
    public var kind: Kind
    /// For `isExecuting` becoming true: the thread the operation runs on
    /// (its `main()`, an asynchronous operation's `start()`, a barrier's
    /// block). nil for every other event.
    public var thread: ThreadTag?

    public init(seq: Int, time: Double, kind: Kind, thread: ThreadTag? = nil) {
        self.seq = seq
        self.time = time
        self.kind = kind
        self.thread = thread
    }

    public enum Kind: Sendable, Hashable {
        /// A key of an operation changed. `old` is nil for the initial
        /// notification made when observation starts (the operation was
        /// added to its queue): KVO's `.initial` has no old value.
        case operation(OperationID, OperationKey, old: KeyValue?, new: KeyValue)
        /// A key of a queue changed.
        case queue(QueueID, QueueKey, old: KeyValue?, new: KeyValue)
        /// The operation's queue handed it to its dispatch queue (Foundation's
        /// own state for it went from `enqueued` to `dispatching`): from now
        /// on it counts against the queue's cap, and a worker thread (the
        /// main thread, on the main queue) will call its `start()`. Seen by
        /// reading that state right after each call that lets the queue
        /// dispatch, or at the latest when `start()` is called; never
        /// announced twice, always before the operation starts. Not a key:
        /// `Operation` has no property for it.
        case dispatched(OperationID)
        /// One execution block of a `blocks` operation started or returned,
        /// on `thread`.
        case block(OperationID, index: Int, phase: BlockPhase, thread: ThreadTag)
        /// The operation's completion block ran, on `thread`.
        case completion(OperationID, thread: ThreadTag)
        /// The main thread called (`started`) or came back from
        /// (`returned`) the wait an `at` line asked of it (`Action.wait`,
        /// `Action.waitAll`): Foundation's `waitUntilFinished()` or
        /// `waitUntilAllOperationsAreFinished()`, announced by the main
        /// thread itself just before the call and just after it returned.
        /// In between, the main thread runs nothing else: no operation of
        /// the main queue starts.
        case mainThreadWait(Action, phase: BlockPhase)
        /// The main thread called (`started`) or came back from
        /// (`returned`) the operation's `start()`, by hand, for an `at`
        /// line (`Action.start`): just after the action, and just after the
        /// call returned. The operation is in no queue: a synchronous one
        /// runs its `main()` on the main thread in between (its `isExecuting`
        /// and `isFinished` come there), and the main thread runs nothing
        /// else; an asynchronous one begins and the call returns at once. A
        /// refused call (the action's `ignored`) has neither.
        case startCall(OperationID, phase: BlockPhase)
        /// The work a synchronous operation's `main()` started and did not
        /// wait for (`work D leaves D2`): `started` as `main()` returns
        /// (just before its `isExecuting` false: Foundation then takes the
        /// operation for finished), `returned` when that work ends, after
        /// the operation finished and its dependents were let go.
        case leftover(OperationID, phase: BlockPhase)
        /// An asynchronous operation's `start()` found it cancelled before
        /// it started and returned without posting `isFinished` (nor
        /// `isExecuting`): `never-finishes if-cancelled`. Foundation's queue
        /// counts it as running from then on, for good: it holds a slot of
        /// its queue, and its dependents never become ready.
        case stranded(OperationID)
        /// An action was performed (from an `at` line, a completion block
        /// or the user). `ignored` says why the engine ignored it, if it did.
        case action(Action, origin: ActionOrigin, ignored: ActionRefusal?)
        /// The run reached a caption of the scenario (`Scenario.captions`
        /// index): an `at` caption's time, or the moment a `when` caption
        /// waits for (announced right after that moment's event).
        /// `paused`: lesson mode paused scenario time here.
        case caption(Int, paused: Bool)
        /// Nothing can progress until someone acts: each unfinished
        /// operation with its reason. Only in runs whose `StallPolicy` is
        /// `.waitsForUser` (the interface); the run goes on, and the next
        /// stall, if any, is announced again. Under `.endsRun` a stall is
        /// `.end(.stalled)` instead.
        case stall([OperationID: StuckReason])
        /// Last event of a run.
        case end(RunOutcome)
    }
}

extension LifecycleEvent {
    /// The latest moment a run can stamp, in scenario seconds: the longest
    /// duration the language writes (`Duration`, Int64.max nanoseconds:
    /// 9223372036.854775807 s, about 292 years), to the millisecond a
    /// recording writes. No run gets there (at `trace`'s fastest speed it
    /// would take over a hundred days), so a recording that says more is
    /// refused (`RecordingDecoder`), and every time within it converts to
    /// whole nanoseconds, microseconds and columns without a trap.
    public static let latestTime = 9_223_372_036.854

    /// What a view of a run that observed no moment of dispatch says (the
    /// run had no state reader: `RunOptions.stateReader`, a recording's
    /// `"dispatches":"at-start"`): the text trace's first line, the
    /// interface's notes.
    public static let unobservedDispatchesNote =
        "dispatch moments are not observed (the state reader is off, or cannot be trusted on this Foundation): "
        + "an operation shows as dispatched when it starts"

    /// `latestTime` as the recording decoder's messages and the docs write it.
    package static let latestTimeText = "9223372036.854"
}

public enum OperationKey: String, Sendable, Hashable, CaseIterable {
    case isReady
    case isExecuting
    case isFinished
    case isCancelled
    case queuePriority
}

public enum QueueKey: String, Sendable, Hashable, CaseIterable {
    case isSuspended
    case maxConcurrentOperationCount
    case operationCount
}

public enum KeyValue: Sendable, Hashable {
    case bool(Bool)
    case int(Int)
    case priority(PriorityLevel)

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var intValue: Int? {
        if case .int(let n) = self { return n }
        return nil
    }
}

public enum BlockPhase: String, Sendable, Hashable {
    case started
    case returned
}

/// A small, stable name for a thread: 0 is the main thread, others are
/// numbered 1, 2, … in the order the run first sees them.
public struct ThreadTag: Sendable, Hashable, CustomStringConvertible {
    public var number: Int
    public init(_ number: Int) { self.number = number }
    public static let main = ThreadTag(0)
    public var isMain: Bool { number == 0 }
    public var description: String { isMain ? "main" : "#\(number)" }
}

public enum ActionOrigin: Sendable, Hashable {
    /// `at TIME ACTION`: the index into `Scenario.actions`.
    case timed(Int)
    /// A completion block of this operation.
    case completion(OperationID)
    /// A key pressed in the interface.
    case user
    /// The file's top-level `add A, B, …` (the index into
    /// `Scenario.startBatches`): the start's one `addOperations` call.
    case startBatch(Int)
}

public enum RunOutcome: Sendable, Hashable {
    case completed
    /// Nothing can progress; each unfinished operation with its reason.
    case stalled([OperationID: StuckReason])
}

/// Why an unfinished operation can never finish (its words:
/// `StuckReason.clause`).
public enum StuckReason: Sendable, Hashable {
    /// It waits (directly or through others) for `root`, which never finishes.
    /// Only a dependency (or what the barrier rule orders before it): never
    /// a slot of its queue, which is `waitsForSlot`.
    case waitsFor(OperationID, root: OperationID)
    /// It is ready, and every slot of its queue is held, for good, by the
    /// operations that started there and never finished (`holders`, in
    /// scenario order); `cap` is the queue's cap then.
    case waitsForSlot(QueueID, cap: Int, holders: [OperationID])
    /// Its queue is suspended and nothing will resume it.
    case queueSuspended(QueueID)
    /// An asynchronous operation that never posted `isFinished`.
    case neverPostedFinish
    /// It is on the main queue, and the main thread, the one thread that
    /// runs the main queue's operations, is blocked in a wait
    /// (`LifecycleEvent.Kind.mainThreadWait`) that nothing can end.
    case mainThreadBlocked
    /// It is in no queue (a `start` action names it), and no `start()` by
    /// hand is left to run it: none is to come, or the last was refused.
    case notStartedByHand
    /// The run cannot tell: the operation is unfinished and none of the
    /// reasons above holds. Said as such rather than guessed.
    case unknown
}
