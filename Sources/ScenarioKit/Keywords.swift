import FoundationRules

/// The words of the language, in one place, so that the parser and the
/// "did you mean" suggestions agree.
enum Keywords {
    static let statements = [
        "title", "note", "speed", "queue", "op", "barrier", "add", "at", "when", "expect", "quiz",
        "code",
    ]
    static let queueOptions = ["max", "serial", "default", "qos", "suspended", "main"]
    /// At most 16: the parser marks the clauses of a statement in a fixed
    /// row of that size.
    static let operationClauses = [
        "on", "work", "blocks", "async", "after", "priority", "qos", "completion",
        "ignores-cancel", "never-finishes", "leaves", "class",
    ]
    static let barrierClauses = ["on", "work"]
    static let bodyClauses = ["work", "blocks", "async", "class"]
    static let actions = [
        "cancel", "cancel-all", "suspend", "resume", "max", "priority", "add", "wait", "wait-all", "start",
    ]
    /// What may follow `at TIME`: an action, or `say` for a caption.
    static let afterTime = actions + ["say"]
    static let captionMoments = CaptionMoment.allCases.map(\.rawValue)
    /// The actions a completion block can perform (`completion cancel-all q`).
    static let completionActions = ["cancel", "cancel-all", "suspend", "resume"]
    static let quizKinds = QuizKind.allCases.map(\.rawValue)
    static let claims = [
        "before", "order", "concurrent", "peak", "finished", "cancelled", "skipped", "stuck", "never", "completion",
        "main",
    ]
    static let priorities = PriorityLevel.allCases.map(\.rawValue)
    static let qualities = QoSLevel.allCases.map(\.rawValue)

    /// The most execution blocks one `blocks N x D` may ask for: each is a
    /// real closure and a card row, and a typo like `blocks 3000000 x 1ms`
    /// must not exhaust memory.
    static let maximumBlockCount = 1000
}
