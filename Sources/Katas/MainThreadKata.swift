extension Kata {
    /// `main-thread`: an operation whose work must run on the main thread,
    /// from any queue, the main queue included.
    static let mainThread = Kata(
        name: "main-thread",
        title: "Work that must run on the main thread, from any queue, the main one included",
        task: """
            Declare `class MainThreadOperation: Operation` (not final) with `init(work:
            @escaping () -> Void)`. Whatever queue runs it, a background one or
            OperationQueue.main, its work runs once, on the main thread, and the operation
            finishes after the work returned. Cancelled before the work began, even while it
            is on its way to the main thread, it finishes without running the work.
            """,
        className: "MainThreadOperation",
        requirement: """
            it must declare `class MainThreadOperation: Operation` (not final) with \
            `init(work: @escaping () -> Void)`
            """,
        starter: mainThreadStarter,
        harness: mainThreadHarness,
        raceHarness: nil,
        checks: mainThreadChecks,
        timeLimit: 60,
        concepts: ["main-thread", "async", "cancellation"])

    private static let told = """
        An operation that goes to the main thread and returns from start() is asynchronous: \
        it finishes by posting willChangeValue/didChangeValue(forKey: "isFinished") (and \
        "isExecuting") once the work returned; this Foundation learns of a finish only from \
        didChangeValue.
        """
    private static let offMain = """
        A queue's operations run on its worker threads; only OperationQueue.main's run on \
        the main thread. Send the work there (DispatchQueue.main.async) and finish once it \
        returned.
        """

    static let mainThreadChecks: [KataCheck] = [
        KataCheck(
            id: "onMain", title: "on a background queue, its work runs once, on the main thread, and it finishes after",
            outcomes: [
                "pass": .pass("the work ran on the main thread, and a dependent started at {at}"),
                "offMain": .fail("its work ran on a thread that is not the main thread", rule: offMain),
                "twice": .fail(
                    "its work ran {count} times",
                    rule: "The operation runs its work once: one hop to the main thread, one call."),
                "early": .fail(
                    "a dependent started at {at}, before the work returned",
                    rule: """
                        start() (or main()) returns before the main thread has run the work: \
                        the operation finishes when the work returned, not when start() does.
                        """),
                "neverRan": .fail(
                    "its work had not run 2s after it was added",
                    rule: "The main thread is free here: work sent to it runs at once."),
                "neverFinished": .fail("its work ran, but no dependent had started {at} after", rule: told),
            ]),
        KataCheck(
            id: "cancelBefore", title: "cancelled before it starts, it finishes without running the work",
            outcomes: [
                "pass": .pass("the work never ran, and a dependent started at {at}"),
                "workRan": .fail(
                    "its work ran though it was cancelled before it started",
                    rule: """
                        Look at isCancelled before the work: cancelled before its start, the \
                        operation finishes and runs nothing.
                        """),
                "neverFinished": .fail(
                    "no dependent had started {at} after it was added",
                    rule: """
                        Cancelled or not, a started operation must finish: the queue calls \
                        start() on a cancelled operation too, and waits for its isFinished.
                        """),
            ]),
        KataCheck(
            id: "cancelOnTheWay",
            title: "cancelled while the busy main thread has not yet run its work, it never runs the work",
            outcomes: [
                "pass": .pass("the work never ran, and a dependent started {at} after the main thread was free"),
                "workRan": .fail(
                    "its work ran on the main thread after it was cancelled",
                    rule: """
                        The way to the main thread takes time, and a cancel can come meanwhile: \
                        look at isCancelled again on the main thread, just before the work.
                        """),
                "offMain": .fail("its work ran on a thread that is not the main thread (see above)", rule: offMain),
                "notStarted": .fail(
                    "its start() had not been called 2s after it was added, so no cancel was tried",
                    rule: "A background queue starts a ready operation at once."),
                "neverFinished": .fail(
                    "no dependent had started {at} after the main thread was free", rule: told),
            ]),
        KataCheck(
            id: "onMainQueue", title: "on OperationQueue.main, where it already runs on the main thread, the work runs",
            outcomes: [
                "pass": .pass("the work ran on the main thread, and a dependent started at {at}"),
                "offMain": .fail("its work ran on a thread that is not the main thread", rule: offMain),
                "neverRan": .fail(
                    "its work had not run 2s after it was added",
                    rule: """
                        On the main queue, start() is already called on the main thread: work \
                        sent to the main thread runs once start() returned, and work waited for \
                        there never runs.
                        """),
                "neverFinished": .fail("its work ran, but no dependent had started {at} after", rule: told),
            ],
            crashRule: """
                On OperationQueue.main the operation already runs on the main thread, and a \
                DispatchQueue.main.sync called there waits for itself: this libdispatch ends the \
                program with SIGILL. Send the work with DispatchQueue.main.async, or run it at \
                once when Thread.isMainThread.
                """),
    ]

    static let mainThreadStarter = """
        import Foundation

        // opscope kata main-thread
        //
        // Work that must run on the main thread (a screen's, say), wrapped in an
        // operation that any queue may run. Check this file with:
        //   opscope kata main-thread
        //
        // What the checks ask:
        // - on a background queue, the work runs once, on the main thread, and
        //   the operation finishes after it returned;
        // - cancelled before it starts, it finishes without running the work;
        // - cancelled while the work waits for a busy main thread, the work
        //   never runs;
        // - on OperationQueue.main, where it already runs on the main thread,
        //   the work runs.

        class MainThreadOperation: Operation, @unchecked Sendable {
            let work: () -> Void

            init(work: @escaping () -> Void) {
                self.work = work
                super.init()
            }

            override func main() {
                // TODO: run `work` on the main thread, and finish only after it
                // returned.
                work()
            }
        }

        """
}
