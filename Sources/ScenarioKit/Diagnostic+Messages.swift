import TextKit

/// Every message of the language, as named factories.
///
/// Messages are lower-case without a trailing period; names are quoted
/// with single quotes exactly as written. Notes follow the same rules.
/// Each factory is pinned by a test in `DiagnosticTests`.
extension Diagnostic {
    static func error(_ message: String, at location: SourceLocation, notes: [String] = []) -> Diagnostic {
        Diagnostic(.error, at: location, message, notes: notes)
    }

    static func warning(_ message: String, at location: SourceLocation, notes: [String] = []) -> Diagnostic {
        Diagnostic(.warning, at: location, message, notes: notes)
    }

    /// The "did you mean" note, when there is a suggestion.
    static func didYouMean(_ suggestion: String?) -> [String] {
        suggestion.map { [Suggestion.didYouMean($0)] } ?? []
    }

    // MARK: Lexical

    /// The note under a byte that is not text.
    static let utf8Note = "a scenario file must be UTF-8 text"

    public static func invalidUTF8(_ byte: UInt8, at location: SourceLocation) -> Diagnostic {
        let hex = String(byte, radix: 16, uppercase: true)
        return .error(
            "invalid UTF-8 byte 0x\(hex.count == 1 ? "0" : "")\(hex)", at: location,
            notes: [utf8Note])
    }

    public static func nulByte(at location: SourceLocation) -> Diagnostic {
        .error("NUL byte in source", at: location, notes: [utf8Note])
    }

    public static func statementTooLong(_ limit: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            "statement too long: more than \(Spelling.grouped(limit)) words", at: location,
            notes: ["a statement holds at most \(Spelling.grouped(limit)) words, numbers and commas"])
    }

    public static func unexpectedCharacter(_ character: String, at location: SourceLocation) -> Diagnostic {
        .error("unexpected character '\(character)'", at: location)
    }

    public static func strayBackslash(at location: SourceLocation) -> Diagnostic {
        .error("'\\' continues a statement only at the end of a line", at: location)
    }

    public static func unterminatedString(at location: SourceLocation) -> Diagnostic {
        .error("unterminated string", at: location, notes: ["close it with '\"' on the same line"])
    }

    public static func unknownEscape(_ escape: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "unknown escape '\(escape)' in string", at: location,
            notes: ["the only escapes are '\\\"' and '\\\\'"])
    }

    public static func malformedNumber(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("malformed number '\(text)'", at: location, notes: ["write digits after the point, as in '1.5s'"])
    }

    // MARK: Numbers

    public static func missingDurationUnit(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("duration '\(text)' has no unit", at: location, notes: ["write '\(text)ms' or '\(text)s'"])
    }

    public static func unknownDurationUnit(_ unit: String, in text: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error("unknown duration unit '\(unit)' in '\(text)'", at: location, notes: ["use 'ms' or 's'"])
    }

    public static func negativeDuration(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("durations cannot be negative", at: location)
    }

    public static func durationTooPrecise(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("duration '\(text)' is finer than a nanosecond", at: location)
    }

    public static func durationTooLong(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("duration '\(text)' is too long", at: location)
    }

    public static func numberTooLarge(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("number '\(text)' is too large", at: location)
    }

    // MARK: Syntax

    /// "expected a duration after 'work', found 'fast'"; without `found`
    /// the statement ended too early.
    public static func expected(_ what: String, after: String, found: String?, at location: SourceLocation)
        -> Diagnostic
    {
        if let found {
            return .error("expected \(what) after '\(after)', found '\(found)'", at: location)
        }
        return .error("expected \(what) after '\(after)'", at: location)
    }

    /// The note that lists what a statement starts with.
    static let statementsNote =
        "a statement starts with title, note, speed, queue, op, barrier, at, when, expect or quiz"

    public static func expectedStatement(found: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "expected a statement, found '\(found)'", at: location,
            notes: [statementsNote])
    }

    public static func unknownStatement(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown statement '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? [statementsNote])
    }

    public static func unexpectedToken(_ text: String, in statement: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error("unexpected '\(text)' in '\(statement)' statement", at: location)
    }

    public static func unknownQueueOption(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error("unknown queue option '\(word)'", at: location, notes: didYouMean(suggestion))
    }

    public static func unknownClause(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error("unknown clause '\(word)'", at: location, notes: didYouMean(suggestion))
    }

    public static func unknownPriority(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown priority '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? ["priorities are veryLow, low, normal, high and veryHigh"])
    }

    public static func unknownQoS(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown quality of service '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? ["qualities of service are userInteractive, userInitiated, default, utility and background"])
    }

    public static func unknownAction(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown action '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? [
                    "actions are cancel, cancel-all, suspend, resume, max, priority and add; "
                        + "'say \"TEXT\"' shows a caption"
                ])
    }

    public static func unknownClaim(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown claim '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? [
                    "claims are A before B, A depends on B, A on main, A off main, A finished by TIME, order, "
                        + "concurrent, never together, peak, completion of A before B starts, main never blocked over "
                        + "DURATION, finished, cancelled, skipped and stuck"
                ])
    }

    public static func duplicateClause(_ word: String, first: SourceLocation, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "'\(word)' is given twice", at: location,
            notes: ["first given at line \(first.line), column \(first.column)"])
    }

    public static func conflictingCap(_ word: String, with other: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error("'\(word)' conflicts with '\(other)'", at: location, notes: ["a queue has one concurrency cap"])
    }

    public static func conflictingBody(_ word: String, with other: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error("'\(word)' conflicts with '\(other)'", at: location, notes: ["an operation has exactly one body"])
    }

    public static func missingBody(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "operation '\(name)' has no body", at: location,
            notes: [
                "add 'work DURATION', 'blocks DURATION, …', 'blocks N x DURATION', 'async DURATION' or 'class TYPE'"
            ])
    }

    public static func notASwiftTypeName(_ word: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(word)' cannot name your class", at: location,
            notes: [
                "'class TYPE' names an Operation subclass declared in a 'code' file: a Swift type name "
                    + "(letters, digits and '_'), not a keyword nor a name the program opscope writes uses "
                    + "(such as Clock, Tally or OperationQueue)"
            ])
    }

    public static func clauseNotForClass(_ word: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(word)' does not apply to 'class'", at: location,
            notes: ["what your own class does when cancelled, and whether it finishes, is its own code's"])
    }

    public static func classNotRunHere(_ type: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "opscope does not run your class \(type) here yet", at: location,
            notes: [
                "'opscope FILE' runs it on the real engine on the board, 'opscope trace FILE' in every format; "
                    + "'opscope swift FILE' writes the program that runs it on Foundation's OperationQueue"
            ])
    }

    public static func classNeedsCode(_ type: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'class \(type)' needs the file that declares it", at: location,
            notes: ["add a line 'code \"FILE.swift\"' (the path is relative to this scenario)"])
    }

    public static func neverFinishesNeedsAsync(at location: SourceLocation) -> Diagnostic {
        .error(
            "'never-finishes' needs an 'async' body", at: location,
            notes: ["only an asynchronous operation posts isFinished itself"])
    }

    public static func leavesNeedsWork(at location: SourceLocation) -> Diagnostic {
        .error(
            "'leaves' needs a 'work' body", at: location,
            notes: [
                "'work D leaves D2': a synchronous main() that starts D2 of work of its own and returns without "
                    + "waiting for it; an asynchronous operation waits for its work by posting isFinished"
            ])
    }

    public static func clauseNotAllowedOnBarrier(_ word: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(word)' is not allowed on a barrier", at: location,
            notes: ["a barrier takes only 'on QUEUE' and 'work DURATION'"])
    }

    /// Which Foundation property `OperationQueue.main` ignores, per option.
    static func mainQueueProperty(_ option: String) -> String {
        switch option {
        case "suspended", "suspend", "resume": "isSuspended"
        case "qos": "qualityOfService"
        case "cancel-all": "cancelAllOperations()"
        default: "maxConcurrentOperationCount"
        }
    }

    public static func optionIgnoredByMainQueue(_ option: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(option)' cannot be used with 'main'", at: location,
            notes: ["OperationQueue.main ignores \(mainQueueProperty(option))"])
    }

    public static func zeroCap(at location: SourceLocation) -> Diagnostic {
        .error(
            "a cap of 0 would stall the queue without saying so", at: location,
            notes: ["use 1 or more, or 'default'"])
    }

    public static func capBelowOne(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("a queue's cap must be at least 1, found '\(text)'", at: location)
    }

    public static func blockCountTooSmall(_ count: Int, at location: SourceLocation) -> Diagnostic {
        .error("'blocks' needs at least one block, found \(count)", at: location)
    }

    public static func blockCountTooLarge(_ count: Int, limit: Int, at location: SourceLocation) -> Diagnostic {
        .error("too many blocks (\(count)); an operation has at most \(limit)", at: location)
    }

    /// The note of every completion-action error: what a completion block can do.
    static let completionActionsNote =
        "a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE"

    public static func unknownCompletionAction(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown completion action '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] } ?? [completionActionsNote])
    }

    public static func actionNotAllowedInCompletion(_ word: String, at location: SourceLocation) -> Diagnostic {
        let why: [String]
        switch word {
        case "wait", "wait-all":
            why = ["'\(word)' is a wait of the main thread; a completion block runs on another thread"]
        case "start":
            why = [
                "'start' is a call of the main thread (start() by hand); a completion block runs on another thread"
            ]
        default: why = []
        }
        return .error(
            "a completion block cannot '\(word)'", at: location,
            notes: why + [completionActionsNote, "use 'at TIME \(word) …' instead"])
    }

    public static func completionTakesOneAction(at location: SourceLocation) -> Diagnostic {
        .error(
            "'completion' takes one action", at: location,
            notes: ["use 'at TIME' actions, or another operation's completion, for more"])
    }

    public static func actionOutsideCompletion(_ word: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(word)' is an action, not a clause", at: location,
            notes: ["write 'completion \(word) …' to have the completion block do it"])
    }

    public static func claimNeedsTwo(_ claim: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(claim)' needs at least two operations", at: location)
    }
}

// The `code` files and the classes in them, checked by the compiler.
extension Diagnostic {
    public static func codeFileMissing(_ path: String, at resolved: String, location: SourceLocation) -> Diagnostic {
        .error(
            "no such file '\(path)'", at: location,
            notes: ["looked for \(resolved) (a 'code' path is relative to the scenario's folder)"])
    }

    public static func codeFileUnreadable(_ path: String, why: String, location: SourceLocation) -> Diagnostic {
        .error("cannot read '\(path)': \(why)", at: location)
    }

    public static func classesUnchecked(_ why: String, location: SourceLocation) -> Diagnostic {
        .error("cannot check the classes this scenario names", at: location, notes: [why])
    }
}
