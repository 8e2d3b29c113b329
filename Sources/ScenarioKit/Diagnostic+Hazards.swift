import TextKit

/// The hazards `check` finds before a run (`Validator+Hazards`): warnings
/// that name the rule and every operation on the path that makes it.
extension Diagnostic {
    /// A path of operations, `setup → render`; a long one keeps its two
    /// first and two last names around a count (`a → b → … 19,996 more … →
    /// y → z`), so that a chain of thousands reads in one line.
    static func pathText(_ names: [String]) -> String {
        guard names.count > 6 else { return names.joined(separator: " → ") }
        let middle = "… \(Spelling.grouped(names.count - 4)) more …"
        return (names.prefix(2) + [middle] + names.suffix(2)).joined(separator: " → ")
    }

    /// `at TIME wait OP` or `at TIME wait-all QUEUE` whose end needs the
    /// main thread: OP (or an operation of QUEUE) is on the main queue, or
    /// depends, through `path`, on `mainOperation`, which is.
    ///
    /// - Parameters:
    ///   - wait: the action as written, `wait badge`.
    ///   - time: its `at` time as the language spells it.
    ///   - waited: the operation the wait comes down to (OP, or one of
    ///     QUEUE's), with `queueOfWaited` its queue for a `wait-all`.
    ///   - path: the operations from the one `waited` depends on to
    ///     `mainOperation` (empty when `waited` is on the main queue).
    ///   - readyFrom: the earliest moment `mainOperation` can be ready by
    ///     the file's times and durations, `later` after the wait's time.
    public static func mainThreadWaitDeadlock(
        wait: String, time: String, waited: String, queueOfWaited: String?, path: [String],
        mainOperation: String, readyFrom: String, later: String, at location: SourceLocation
    ) -> Diagnostic {
        let subject = queueOfWaited.map { "\(waited), one of \($0)'s operations," } ?? waited
        let why =
            path.isEmpty
            ? "\(subject) is on the main queue, which only the main thread runs, and the main thread is the "
                + "one that waits"
            : "\(subject) depends on \(pathText(path)), and \(mainOperation) is on the main "
                + "queue, which needs the main thread that waits"
        return .warning(
            "'\(wait)' at \(time) deadlocks the main thread: \(why)", at: location,
            notes: [
                "\(mainOperation) cannot be ready before \(readyFrom), \(later) after the wait's time: the main "
                    + "queue gets it after the wait, which never returns (nothing on the path is cancelled)"
            ])
    }

    /// A higher priority (or QoS) operation that waits, through `path`,
    /// for a lower one queued behind others on a capped queue.
    ///
    /// - Parameters:
    ///   - high: the waiting operation, `refresh (priority veryHigh)`.
    ///   - path: the operations from its dependency to `low`, `low` last.
    ///   - low: the lower one as named in the path, with its level beside.
    ///   - firstAhead: the first (in file order) of the `aheadCount`
    ///     operations of `queue` that go before `low`; `cap` the queue's cap.
    public static func priorityInversion(
        high: String, highLevel: String, path: [String], low: String, lowLevel: String, queue: String, cap: Int,
        firstAhead: [String], aheadCount: Int, at location: SourceLocation
    ) -> Diagnostic {
        let shown = firstAhead.joined(separator: ", ") + (aheadCount > firstAhead.count ? ", …" : "")
        let capText = cap == 1 ? "serial queue '\(queue)'" : "'\(queue)' (cap \(cap))"
        let through = path.count > 1 ? " through \(pathText(Array(path.dropLast())))" : ""
        return .warning(
            "priority inversion: \(high) (\(highLevel)) depends on \(low) (\(lowLevel))\(through), and \(low) is "
                + "queued behind \(Spelling.count(aheadCount, "operation")) of lower priority than \(high) on "
                + "\(capText): \(shown)",
            at: location,
            notes: [
                "Foundation does not raise a dependency's priority: \(low) waits for its turn on '\(queue)', "
                    + "and \(high) waits for \(low)"
            ])
    }

    /// A completion block that resumes a queue the operation itself
    /// waits on: it is on that queue, or depends through `path` on
    /// `onQueue`, which is; the queue stays suspended (`suspended`: how,
    /// `starts suspended` or `is suspended at 2s (line 14)`) and nothing
    /// else resumes it.
    public static func completionResumeDeadlock(
        owner: String, queue: String, path: [String], onQueue: String, suspended: String,
        at location: SourceLocation
    ) -> Diagnostic {
        let why =
            path.isEmpty
            ? "\(owner) is on '\(queue)' itself"
            : "\(owner) depends on \(pathText(path)), and \(onQueue) is on '\(queue)'"
        return .warning(
            "deadlock: \(Spelling.possessive(owner)) completion block resumes '\(queue)', but \(why), which "
                + "\(suspended) and nothing else resumes",
            at: location,
            notes: [
                "\(onQueue) never runs while '\(queue)' is suspended, so \(owner) never finishes and its "
                    + "completion block (which runs only after the finish) never runs"
            ])
    }
}
