/// The validator's messages: names, references, the graph, and warnings
/// (see `Diagnostic+Messages.swift` for the rules every message follows).
// MARK: - Names and meaning (validator)

extension Diagnostic {
    public static func duplicateName(
        _ name: String, firstKind: String, firstLine: Int, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            "'\(name)' is already declared", at: location,
            notes: [
                "'\(name)' is first declared as \(firstKind) on line \(firstLine)",
                "queues and operations share one namespace",
            ])
    }

    public static func unknownQueue(name: String, suggestion: String?, at location: SourceLocation) -> Diagnostic {
        .error("unknown queue '\(name)'", at: location, notes: didYouMean(suggestion))
    }

    public static func unknownOperation(name: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error("unknown operation '\(name)'", at: location, notes: didYouMean(suggestion))
    }

    public static func notAQueue(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' is an operation, not a queue", at: location)
    }

    public static func notAnOperation(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' is a queue, not an operation", at: location)
    }

    public static func selfDependency(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' cannot depend on itself", at: location)
    }

    public static func duplicateDependency(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' is listed twice after 'after'", at: location)
    }

    /// `path` starts and ends with the same name: `a → b → c → a`, where
    /// `x → y` reads "x waits for y".
    public static func dependencyCycle(path: [String], at location: SourceLocation) -> Diagnostic {
        .error(
            "dependency cycle: \(path.joined(separator: " → "))", at: location,
            notes: ["every operation in a cycle waits forever"])
    }

    /// A cycle that an `at TIME cancel OP` breaks: OP, cancelled, is ready
    /// whatever it waits for.
    public static func dependencyCycleBroken(
        path: [String], by name: String, at time: String, line: Int, location: SourceLocation
    ) -> Diagnostic {
        .warning(
            "dependency cycle: \(path.joined(separator: " → ")), broken by 'at \(time) cancel \(name)' (line \(line))",
            at: location,
            notes: [
                "until then every operation in it waits; cancelled, '\(name)' is ready whatever it waits for: it "
                    + "finishes without running, and what waits for it runs"
            ])
    }

    public static func duplicateTitle(firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .error("a scenario has at most one title", at: location, notes: ["the first title is on line \(firstLine)"])
    }

    public static func secondMainQueue(first: String, firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            "only one queue can be 'main'", at: location,
            notes: ["'\(first)' is already the main queue (line \(firstLine))"])
    }

    public static func addedTwice(_ name: String, firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(name)' is added twice", at: location,
            notes: [
                "it is first added on line \(firstLine); Foundation stops the program when an operation is added twice"
            ])
    }

    public static func cancelBarrier(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(name)' is a barrier: it cannot be cancelled on its own", at: location,
            notes: ["'cancel-all QUEUE' cancels a barrier that has not started"])
    }

    public static func duplicateQuiz(firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .error("a scenario has at most one quiz", at: location, notes: ["the first quiz is on line \(firstLine)"])
    }

    public static func priorityOfBarrier(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' is a barrier: it has no priority to change", at: location)
    }

    public static func repeatedInClaim(_ name: String, claim: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' appears twice in '\(claim)'", at: location)
    }

    // MARK: Warnings

    public static func unusedQueue(_ name: String, at location: SourceLocation) -> Diagnostic {
        .warning("queue '\(name)' has no operations", at: location)
    }

    public static func priorityOnMainQueue(_ name: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "'priority' on '\(name)' only picks which ready operation of the main queue runs next: it runs one at a time",
            at: location)
    }

    /// `dependency` is the direct dependency; `root` the `never-finishes`
    /// operation it waits for (the same when the dependency is the root).
    public static func waitsForNeverFinishing(
        _ name: String, dependency: String, root: String, at location: SourceLocation
    ) -> Diagnostic {
        if dependency == root {
            return .warning("'\(name)' can never start: its dependency '\(root)' never finishes", at: location)
        }
        return .warning(
            "'\(name)' can never start: its dependency '\(dependency)' waits for '\(root)', which never finishes",
            at: location)
    }

    public static func mainQueueIgnoresAction(_ action: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "the main queue ignores '\(action)'", at: location,
            notes: ["OperationQueue.main ignores \(mainQueueProperty(action)) on this Foundation"])
    }

    public static func cancelsItselfOnCompletion(_ name: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "'\(name)' cancels itself in its own completion block", at: location,
            notes: ["the completion block runs after '\(name)' finished: cancel() does nothing then"])
    }

    /// The note under a queue that is never resumed.
    static let neverResumedNote = "its operations will stall"

    public static func startsSuspendedNeverResumed(_ queue: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "queue '\(queue)' starts suspended and is never resumed", at: location,
            notes: [neverResumedNote])
    }

    public static func suspendedNeverResumed(_ queue: String, at location: SourceLocation) -> Diagnostic {
        .warning(
            "queue '\(queue)' is suspended here and never resumed afterwards", at: location,
            notes: [neverResumedNote])
    }
}
