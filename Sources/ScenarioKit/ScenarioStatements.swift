import FoundationRules

/// The statements of a scenario beside its queues and operations: the
/// actions (timed, of completion blocks, of keys), the claims of its
/// expectations, its quiz.

/// Something done to the running scenario: by an `at` line, by a
/// completion block, or (in the interface) by a key.
public enum Action: Sendable, Hashable {
    case cancel(OperationID)
    case cancelAll(QueueID)
    case suspend(QueueID)
    case resume(QueueID)
    case setCap(QueueID, ConcurrencyCap)
    case setPriority(OperationID, PriorityLevel)
    case add(OperationID)
    /// `add A, B, …`: the operations, all of one queue, in one
    /// `addOperations([A, B, …], waitUntilFinished: false)` call (the queue
    /// then picks among all of them at once: on a serial queue the highest
    /// priority starts first, where added one by one the first would).
    case addBatch([OperationID])
    /// The main thread calls the operation's `waitUntilFinished()` (only
    /// in an `at` line: a completion block runs on another thread).
    case wait(OperationID)
    /// The main thread calls the queue's `waitUntilAllOperationsAreFinished()`.
    case waitAll(QueueID)
    /// The main thread calls the operation's `start()` by hand (only in an
    /// `at` line). The operation is in no queue: `start()` runs a
    /// synchronous one's `main()` on the main thread before it returns.
    case start(OperationID)

    /// The queue an action on a queue acts on; nil for one on an operation.
    public var queue: QueueID? {
        switch self {
        case .cancelAll(let q), .suspend(let q), .resume(let q), .setCap(let q, _), .waitAll(let q): q
        case .cancel, .setPriority, .add, .addBatch, .wait, .start: nil
        }
    }

    /// The operations an `add` or a batch add adds; none for other actions.
    public var addedOperations: [OperationID] {
        switch self {
        case .add(let op): [op]
        case .addBatch(let ops): ops
        default: []
        }
    }

    /// A call the main thread makes for an `at` line (`wait`, `wait-all`,
    /// `start`): it goes to the main queue at its time, and the main thread
    /// makes it as soon as it is free, running nothing else until it returns.
    public var isMainThreadCall: Bool {
        switch self {
        case .wait, .waitAll, .start: true
        default: false
        }
    }

    /// A wait of the main thread (`wait`, `wait-all`): it changes nothing
    /// in the run, it blocks the thread that calls it.
    public var isMainThreadWait: Bool {
        switch self {
        case .wait, .waitAll: true
        default: false
        }
    }
}

/// `add A, B, …` at the top level: operations the start adds in one
/// `addOperations` call.
public struct AddBatch: Sendable, Hashable {
    /// In the order the statement lists them (the array given to
    /// `addOperations`).
    public var operations: [OperationID]
    /// The `add` keyword.
    public var location: SourceLocation

    public init(operations: [OperationID], location: SourceLocation = SourceLocation(line: 0, column: 0)) {
        self.operations = operations
        self.location = location
    }
}

public struct TimedAction: Sendable, Hashable {
    /// Scenario time from the start of the run.
    public var time: Duration
    public var action: Action
    public var location: SourceLocation

    public init(
        time: Duration, action: Action,
        location: SourceLocation = SourceLocation(line: 0, column: 0)
    ) {
        self.time = time
        self.action = action
        self.location = location
    }
}

public enum Claim: Sendable, Hashable {
    /// A posted `isFinished` before B posted `isExecuting`.
    case before(OperationID, OperationID)
    /// These started (posted `isExecuting`) in exactly this order.
    case order([OperationID])
    /// At some moment all were executing at once.
    case concurrent([OperationID])
    /// The most of QUEUE's operations executing at once was exactly N.
    case peak(QueueID, Int)
    /// `peak Q <= N` / `peak Q >= N`: the most executing at once was at
    /// most / at least N.
    case peakAtMost(QueueID, Int)
    case peakAtLeast(QueueID, Int)
    case finished(OperationID)
    case cancelled(OperationID)
    case skipped(OperationID)
    case stuck(OperationID)
    /// `A depends on B`: A waits for B, through its `after` clauses,
    /// directly or through others (a declaration, judged from the file).
    case dependsOn(OperationID, OperationID)
    /// `never together A, B, …`: no two of them ever executed at once.
    case neverTogether([OperationID])
    /// `completion of A before B starts`: A's completion block ran before
    /// B posted `isExecuting` true.
    case completionBefore(OperationID, OperationID)
    /// `A on main` (true) / `A off main` (false): the thread that called
    /// A's `start()` was, or was not, the main thread.
    case onMain(OperationID, Bool)
    /// `main never blocked over D`: no wait of the main thread (`at TIME
    /// wait OP`, `wait-all QUEUE`) lasted longer than D, from its start
    /// to its return (scenario time); one that never returned lasted for
    /// ever.
    case mainNeverBlockedOver(Duration)
    /// `OP finished by T`: OP posted `isFinished` at scenario time T at
    /// the latest, not cancelled.
    case finishedBy(OperationID, Duration)
}

public struct Expectation: Sendable, Hashable {
    public var claim: Claim
    /// The claim as written after `expect`, whitespace normalised, for reports.
    public var text: String
    public var location: SourceLocation

    public init(
        claim: Claim, text: String, location: SourceLocation = SourceLocation(line: 0, column: 0)
    ) {
        self.claim = claim
        self.text = text
        self.location = location
    }
}

/// `quiz "QUESTION" answer KIND`: a question the learner answers before
/// watching the run; the run itself gives the answer.
public struct Quiz: Sendable, Hashable {
    public var question: String
    public var kind: QuizKind
    /// The operations the question is about: the two of `together A, B`;
    /// the one of `completions before OP`; none for the other kinds (and
    /// for a plain `completions`).
    public var operands: [OperationID]
    /// `columns at TIME`: the moment asked about; nil for the other kinds.
    public var moment: Duration?
    /// The `quiz` keyword.
    public var location: SourceLocation

    public init(
        question: String, kind: QuizKind, operands: [OperationID] = [], moment: Duration? = nil,
        location: SourceLocation = SourceLocation(line: 0, column: 0)
    ) {
        self.question = question
        self.kind = kind
        self.operands = operands
        self.moment = moment
        self.location = location
    }
}

/// What kind of answer a quiz expects; the raw value is the language's word.
public enum QuizKind: String, Sendable, Hashable, CaseIterable {
    /// The order in which the operations start (post `isExecuting`).
    case startOrder = "start-order"
    /// How each operation ends: finished, cancelled, skipped or stuck.
    case finalState = "final-state"
    /// How many of each queue's operations execute at once, at most.
    case peak
    /// How many operations end each way (finished, cancelled, skipped,
    /// stuck): for a scenario of many, where a state per name is a chore.
    case counts
    /// Which operations run on the main thread.
    case mainThread = "main-thread"
    /// Whose completion blocks run (`completions`), or which run before a
    /// named operation starts (`completions before OP`).
    case completions
    /// Whether two named operations ever execute at the same time
    /// (`together A, B`): yes or no.
    case together
    /// How many operations sit in each column of the board (pending,
    /// ready, executing, finished, cancelled) at a moment
    /// (`columns at TIME`).
    case columns
}
