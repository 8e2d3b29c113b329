import TextKit

/// The diagnostics of `at TIME start OP`: what Foundation would do with a
/// `start()` called by hand, where the file lets opscope tell before the
/// run (docs/SCENARIO-LANGUAGE.md, "`at TIME ACTION`").
extension Diagnostic {
    /// `start` of an operation that an `add` action also adds.
    public static func startedAndAdded(_ name: String, addLine: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(name)' is started by hand and added to a queue", at: location,
            notes: [
                "it is added on line \(addLine); Foundation stops the program either way: start() of an operation "
                    + "in a queue stops it (something is trying to start the receiver simultaneously from more than "
                    + "one thread), and so does adding one that start() finished",
                "an operation started by hand belongs to no queue: leave out the 'add' or the 'start'",
            ])
    }

    /// `start` of a barrier.
    public static func startBarrier(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(name)' is a barrier: it cannot be started by hand", at: location,
            notes: ["addBarrierBlock gives no operation to call start() on: its queue runs the block"])
    }

    /// The first `start` of an operation that has `after` dependencies: it
    /// is refused unless they all finished by then.
    public static func startMayComeBeforeDependencies(
        _ name: String, dependencies: [String], isAsync: Bool, at location: SourceLocation
    ) -> Diagnostic {
        let waits = Spelling.list(dependencies.map { "'\($0)'" })
        let why =
            isAsync
            ? "'\(name)' is asynchronous: its own start() does not look at isReady, and would begin before "
                + "\(waits) finished"
            : "Foundation's start() stops the program on an operation that is not ready (receiver is not yet ready "
                + "to execute)"
        return .warning(
            "'\(name)' is started by hand but waits for \(waits)", at: location,
            notes: [why, "opscope does not call start() before then: the run says so where it refuses the call"])
    }

    /// A `start` of an asynchronous operation that an earlier `start`
    /// already started: while it still executes the call is refused.
    public static func asyncStartedAgain(_ name: String, firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .warning(
            "'\(name)' is started by hand again (first on line \(firstLine)), and it is asynchronous", at: location,
            notes: [
                "while it still executes, its own start() would begin its work a second time: opscope does not "
                    + "call it then, and says so",
                "once it finished, start() does nothing",
            ])
    }

    /// `on QUEUE` on an operation that a `start` action starts by hand.
    public static func queueOfStartedByHand(_ name: String, queue: String, at location: SourceLocation)
        -> Diagnostic
    {
        .warning(
            "'on \(queue)' has no effect: '\(name)' is started by hand", at: location,
            notes: ["an operation started by hand is never added to a queue: the main thread calls its start()"])
    }
}
