import FoundationRules

/// What the parser understood of a file, before names are resolved.
///
/// Names stay strings with their positions here; the validator turns them
/// into `QueueID`/`OperationID` and reports unknown ones. Every element
/// keeps the positions of the tokens a later diagnostic may point at.
struct SyntaxTree: Sendable {
    var titles: [TitleSyntax] = []
    var notes: [String] = []
    var queues: [QueueSyntax] = []
    /// Operations and barriers in file order.
    var operations: [OperationSyntax] = []
    var actions: [ActionSyntax] = []
    var expectations: [ExpectationSyntax] = []
    /// Every `quiz` statement (the validator reports all but the first).
    var quizzes: [QuizSyntax] = []
    /// Every `speed` statement (the validator reports all but the first).
    var speeds: [SpeedSyntax] = []
    /// `at TIME say` and `when OP MOMENT say`, in file order.
    var captions: [CaptionSyntax] = []
    /// `add A, B, …` at the top level, in file order.
    var startAdds: [StartAddSyntax] = []
    /// `code "FILE.swift"`: the path as written, at its `code` keyword.
    var codeFiles: [Located<String>] = []
}

/// `add A, B, …` at the top level: one `addOperations` call at the start.
struct StartAddSyntax: Sendable {
    var names: [Name]
    /// The `add` keyword.
    var location: SourceLocation
}

/// A name as written, with where it was written.
struct Name: Sendable, Hashable {
    var text: String
    var location: SourceLocation
}

/// A value with the position of the token (or keyword) that gave it.
struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    var value: Value
    var location: SourceLocation
}

struct TitleSyntax: Sendable {
    var text: String
    var location: SourceLocation
}

struct QueueSyntax: Sendable {
    var name: Name
    /// `max N`, `serial` or `default`, at the option's keyword.
    var cap: Located<ConcurrencyCap>?
    var qos: Located<QoSLevel>?
    /// Position of `suspended`, when given.
    var suspended: SourceLocation?
    /// Position of `main`, when given.
    var main: SourceLocation?
}

/// A file of a million operations holds a million of these at once, so
/// the clauses most operations lack (`completion`, `priority`, `qos`,
/// `never-finishes`) are kept out of line, in an array that stays empty
/// (a pointer, no allocation) until one is given, and the rest are in the
/// order that packs them: 88 bytes, where all in line took 136.
struct OperationSyntax: Sendable {
    var name: Name
    var queue: Name?
    var dependencies: [Name] = []
    /// nil only when the statement had an error (already reported).
    var body: OperationBody?
    /// `barrier NAME …` rather than `op NAME …`.
    var isBarrier: Bool
    var ignoresCancel = false
    private var rare: [RareClauses] = []

    /// The clauses few operations have.
    private struct RareClauses: Sendable {
        var completion: CompletionSyntax?
        var priority: Located<PriorityLevel>?
        var qos: Located<QoSLevel>?
        var neverFinishes: SourceLocation?
        var leaves: Located<Duration>?
        var onlyIfCancelled = false
        var classAt: SourceLocation?
    }

    init(name: Name, isBarrier: Bool) {
        self.name = name
        self.isBarrier = isBarrier
    }

    /// `completion [ACTION]`, when given.
    var completion: CompletionSyntax? {
        get { rare.first?.completion }
        set { setRare(newValue) { $0.completion = $1 } }
    }

    var priority: Located<PriorityLevel>? {
        get { rare.first?.priority }
        set { setRare(newValue) { $0.priority = $1 } }
    }

    var qos: Located<QoSLevel>? {
        get { rare.first?.qos }
        set { setRare(newValue) { $0.qos = $1 } }
    }

    /// Position of `never-finishes`, when given.
    var neverFinishes: SourceLocation? {
        get { rare.first?.neverFinishes }
        set { setRare(newValue) { $0.neverFinishes = $1 } }
    }

    /// `never-finishes if-cancelled`: it forgets only when cancelled
    /// before it starts.
    var neverFinishesOnlyIfCancelled: Bool {
        get { rare.first?.onlyIfCancelled ?? false }
        set { setRare(newValue ? true : nil) { $0.onlyIfCancelled = $1 ?? false } }
    }

    /// Position of the type's name in `class TYPE`, when given.
    var classAt: SourceLocation? {
        get { rare.first?.classAt }
        set { setRare(newValue) { $0.classAt = $1 } }
    }

    /// `leaves DURATION`, when given.
    var leaves: Located<Duration>? {
        get { rare.first?.leaves }
        set { setRare(newValue) { $0.leaves = $1 } }
    }

    private mutating func setRare<Value>(_ value: Value?, _ set: (inout RareClauses, Value?) -> Void) {
        if rare.isEmpty {
            guard value != nil else { return }
            rare = [RareClauses()]
        }
        set(&rare[0], value)
    }
}

/// `completion` and the action its block performs, if any.
struct CompletionSyntax: Sendable {
    /// The `completion` keyword.
    var location: SourceLocation
    /// `cancel OP`, `cancel-all QUEUE`, `suspend QUEUE` or `resume QUEUE`.
    var action: ActionSyntax.Kind?
    /// The action's keyword, where diagnostics about the action point.
    var keyword: Token?
}

/// `quiz "QUESTION" answer KIND`.
struct QuizSyntax: Sendable {
    var question: String
    var kind: QuizKind
    /// `together A, B`: the two names; `completions before OP`: the one.
    var operands: [Name] = []
    /// `columns at TIME`: the moment.
    var moment: Duration?
    /// The `quiz` keyword.
    var location: SourceLocation
}

/// `speed X`, X already checked to be within `Scenario.speedRange`.
struct SpeedSyntax: Sendable {
    var value: Double
    /// `up to Y`, Y checked to be within `Scenario.promisedRange` and at
    /// least `value`.
    var promisedUpTo: Double?
    /// The `speed` keyword.
    var location: SourceLocation
}

/// `at TIME say "TEXT"` or `when OP MOMENT say "TEXT"`.
struct CaptionSyntax: Sendable {
    enum Trigger: Sendable {
        case at(Duration)
        /// The operation's name as written, and the moment with its word's position.
        case when(Name, Located<CaptionMoment>)
    }

    var trigger: Trigger
    var text: String
    /// The statement's first keyword (`at` or `when`).
    var location: SourceLocation
}

/// `at TIME ACTION`.
struct ActionSyntax: Sendable {
    enum Kind: Sendable, Hashable {
        case cancel(Name)
        case cancelAll(Name)
        case suspend(Name)
        case resume(Name)
        case setCap(Name, Located<ConcurrencyCap>)
        case setPriority(Name, PriorityLevel)
        case add(Name)
        /// `add A, B, …`: two or more names, one `addOperations` call.
        case addBatch([Name])
        case wait(Name)
        case waitAll(Name)
        case start(Name)
    }

    var time: Duration
    var kind: Kind
    /// The action's keyword (`cancel`, `suspend`, …): where diagnostics
    /// about the action as a whole point.
    var keyword: Token
    /// The `at` keyword.
    var location: SourceLocation
}

/// `expect CLAIM`.
struct ExpectationSyntax: Sendable {
    enum Claim: Sendable, Hashable {
        case before(Name, Name)
        case order([Name])
        case concurrent([Name])
        case peak(Name, Int)
        case peakAtMost(Name, Int)
        case peakAtLeast(Name, Int)
        case finished(Name)
        case cancelled(Name)
        case skipped(Name)
        case stuck(Name)
        case dependsOn(Name, Name)
        case neverTogether([Name])
        case completionBefore(Name, Name)
        case onMain(Name, Bool)
        /// `main never blocked over DURATION`.
        case mainNeverBlockedOver(Duration)
        /// `OP finished by TIME`.
        case finishedBy(Name, Duration)
    }

    var claim: Claim
    /// The claim's tokens joined by single spaces (commas hug the word before).
    var text: String
    /// The `expect` keyword.
    var location: SourceLocation
}
