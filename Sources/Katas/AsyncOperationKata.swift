extension Kata {
    /// `async-operation`: the interview question "write an asynchronous
    /// Operation subclass", graded by running it.
    static let asyncOperation = Kata(
        name: "async-operation",
        title: "An asynchronous Operation subclass: its flags, their KVO, cancel before and during the work",
        task: """
            Declare `class AsyncDownload: Operation` (not final) with `init(seconds: Double)`.
            Its start() returns at once; its work waits `seconds` off the calling thread
            (a timer, `asyncAfter`, a task) and then finishes the operation. Override
            isAsynchronous, isExecuting and isFinished, and post
            willChangeValue/didChangeValue(forKey:) around each change of the last two.
            Cancelled before it starts, it finishes without going executing; cancelled
            during its work, it finishes within a second. Once its queue is done with
            it, nothing keeps it alive. Its flags are safe to read from any thread.
            """,
        className: "AsyncDownload",
        requirement: "it must declare `class AsyncDownload: Operation` (not final) with `init(seconds: Double)`",
        starter: asyncOperationStarter,
        harness: asyncOperationHarness,
        raceHarness: asyncOperationRaceHarness,
        checks: asyncOperationChecks + [asyncOperationRaceCheck],
        timeLimit: 90,
        concepts: ["async", "cancellation", "cap", "completion-blocks"],
        board: asyncOperationBoard)

    private static let told = """
        Post willChangeValue(forKey: "isFinished") and didChangeValue(forKey: "isFinished") \
        around the change: this Foundation learns of a finish only from didChangeValue, once \
        the getter already says true; until then the operation holds its queue's slot and its \
        dependents wait.
        """
    private static let finishes = """
        Every path of start() ends in a finish: isExecuting false and isFinished true, each \
        change between willChangeValue and didChangeValue.
        """
    private static let finishesAndTold = """
        Each one ends in a finish Foundation is told of: isFinished true, between \
        willChangeValue(forKey: "isFinished") and didChangeValue(forKey: "isFinished"). Until \
        then it holds its queue's slot and nothing that waits on it goes on.
        """

    static let asyncOperationChecks: [KataCheck] = [
        KataCheck(
            id: "runs", title: "it runs and finishes, and Foundation is told",
            outcomes: [
                "pass": .pass("its dependent started at {at}, after it finished"),
                "startWaits": .fail(
                    "start() returned only at {at}: it waited for the work on the calling thread",
                    rule: """
                        An asynchronous operation's start() returns at once; the work goes on \
                        elsewhere and finishes the operation later.
                        """),
                "neverExecuting": .fail(
                    "it finished (its dependent started at {at}), but isExecuting never said true",
                    rule: """
                        Between start() and the finish, isExecuting returns true; post \
                        willChangeValue/didChangeValue(forKey: "isExecuting") around each change.
                        """),
                "notTold": .fail(
                    "isFinished is true since {at}, but Foundation was never told: its dependent never started",
                    rule: told),
                "neverFinished": .fail("it never finished: isFinished was still false at {at}", rule: finishes),
            ]),
        KataCheck(
            id: "cancelBeforeStart", title: "cancelled before it starts, it finishes without its work",
            outcomes: [
                "pass": .pass("it finished at {at} without going executing"),
                "wentExecuting": .fail(
                    "isExecuting said true at {at} though it was cancelled before it started",
                    rule: """
                        start() looks at isCancelled first: when set, it finishes at once (isFinished \
                        true, with its KVO), without going executing or starting the work.
                        """),
                "ranWork": .fail(
                    "start() ran its work though the operation was cancelled before it started: "
                        + "it finished only at {at} (its work takes 2s)",
                    rule: """
                        start() looks at isCancelled first: when set, it finishes at once, without \
                        starting the work.
                        """),
                "notTold": .fail(
                    "isFinished is true since {at}, but Foundation was never told: its dependent never started",
                    rule: told),
                "neverFinished": .fail(
                    "it never finished: isFinished was still false at {at}",
                    rule: """
                        Foundation calls start() on a cancelled operation too, and the operation must \
                        finish there: isFinished true, with its KVO.
                        """),
            ]),
        KataCheck(
            id: "cancelDuring", title: "cancelled during its work, it finishes within a second",
            outcomes: [
                "pass": .pass("it finished {at} after the cancel"),
                "slow": .fail(
                    "it finished {at} after the cancel: more than a second",
                    rule: """
                        cancel() reaches the work it started (the timer, the task) and finishes the \
                        operation promptly; Foundation's cancel() only sets the flag.
                        """),
                "ranToEnd": .fail(
                    "cancel() did not reach the work: it ran its 4s and finished {at} after the cancel",
                    rule: """
                        Foundation's cancel() only sets isCancelled. Override cancel() (calling \
                        super) to stop the work it started and finish the operation, or have the work \
                        look at isCancelled.
                        """),
                "neverExecuting": .fail(
                    "isExecuting never said true within 3s of it being added, so no cancel was tried",
                    rule: finishes),
                "notTold": .fail(
                    "isFinished said true {at} after the cancel, but Foundation was never told: "
                        + "its dependent never started",
                    rule: told),
                "neverFinished": .fail(
                    "it never finished: isFinished was still false {at} after the cancel",
                    rule: """
                        A cancel during the work ends in a finish too: isExecuting false and \
                        isFinished true, with their KVO.
                        """),
            ]),
        KataCheck(
            id: "cap", title: "on a queue with a cap of 4, no more than 4 of 100 say they are executing",
            outcomes: [
                "pass": .pass("at most {count} said isExecuting at once, and all 100 finished"),
                "overCap": .fail(
                    "{count} said isExecuting at once on a queue with a cap of 4",
                    rule: """
                        isExecuting goes back to false when the operation finishes. The queue counts \
                        its cap by what it was told, so a flag left true says more run than do.
                        """),
                "neverFinished": .fail(
                    "{count} of the 100 said isFinished, then none for 2s: the queue went no further",
                    rule: finishesAndTold),
            ]),
        KataCheck(
            id: "released", title: "nothing keeps it alive once its queue is done with it",
            outcomes: [
                "pass": .pass("it was released"),
                "capturedByCompletion": .fail(
                    "it is still alive after the run: its completion block captures it",
                    rule: """
                        A completion block that uses the operation captures it weakly ([weak self]): \
                        the block and the operation otherwise keep each other alive, and this \
                        Foundation does not clear completionBlock after running it.
                        """),
                "alive": .fail(
                    "it is still alive after the run: something it holds holds it",
                    rule: """
                        Nothing the operation keeps (a closure, a timer, a task) may hold the \
                        operation strongly after it finished.
                        """),
                "neverFinished": .fail(
                    "its queue was never done with it (still there at {at}), so its release could not be tried",
                    rule: finishesAndTold),
            ]),
    ]

    static let asyncOperationStarter = """
        import Foundation

        // opscope kata async-operation
        //
        // Write an asynchronous Operation: start() returns at once, the work
        // waits `seconds` off the calling thread and then finishes the
        // operation. Check it with:  opscope kata async-operation
        //
        // What the checks ask of it:
        // - it runs, finishes, and Foundation is told (a dependent starts);
        // - cancelled before it starts, it finishes without going executing;
        // - cancelled during its work, it finishes within a second;
        // - on a queue with a cap of 4, no more than 4 say isExecuting;
        // - once its queue is done with it, nothing keeps it alive;
        // - its flags are safe to read from any thread (checked with the
        //   thread sanitizer).
        //
        // This Foundation has no key-value observing: didChangeValue(forKey:)
        // is how the queue learns that isExecuting or isFinished changed.

        class AsyncDownload: Operation, @unchecked Sendable {
            let seconds: Double

            init(seconds: Double) {
                self.seconds = seconds
                super.init()
            }

            override var isAsynchronous: Bool { true }

            // TODO: isExecuting and isFinished, backed by state that is safe
            // to read from any thread, each change between
            // willChangeValue(forKey:) and didChangeValue(forKey:).

            override func start() {
                // TODO: if cancelled, finish at once; otherwise go executing,
                // wait `seconds` off this thread, then finish.
            }

            // TODO: cancel() that reaches the work and finishes promptly.
        }

        """
}
