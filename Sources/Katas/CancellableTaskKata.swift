extension Kata {
    /// `cancellable-task`: an operation that holds a task it started, and
    /// whose cancel reaches that task at any moment, even while start() is
    /// still making it.
    static let cancellableTask = Kata(
        name: "cancellable-task",
        title: "A cancel that reaches the task it started, at any moment",
        task: """
            Declare `class JobOperation: Operation` (not final) with `init(seconds: Double)`.
            Started, it makes a `SlowJob(seconds: seconds) { completed in … }` (the checks
            give that class: like a URLSessionTask, it does nothing until `resume()`, and its
            completion runs once, on another thread, with true after its seconds or false
            soon after `cancel()`), resumes it, and finishes when the job's completion runs
            (it is asynchronous). Its cancel() reaches the job: cancelled before its start, it
            makes no job run; cancelled while the job runs, the job is cancelled and the
            operation finishes promptly; and a cancel that comes while start() is still
            making the job is not lost.
            """,
        className: "JobOperation",
        requirement: "it must declare `class JobOperation: Operation` (not final) with `init(seconds: Double)`",
        starter: cancellableTaskStarter,
        harness: cancellableTaskHarness,
        raceHarness: nil,
        checks: cancellableTaskChecks,
        timeLimit: 60,
        concepts: ["async", "cancellation"])

    private static let reachIt = """
        Operation's cancel() only sets isCancelled: what the operation started goes on unless \
        its cancel() reaches it. Override cancel(): call super.cancel(), then cancel the job \
        it holds.
        """

    static let cancellableTaskChecks: [KataCheck] = [
        KataCheck(
            id: "runs", title: "its job runs its 0.3s, and it finishes after the job completed",
            outcomes: [
                "pass": .pass("its job completed, and a dependent started at {at}"),
                "noJob": .fail(
                    "no job of its was resumed within 2s of its being added",
                    rule: "Started, it makes a SlowJob and calls resume(): a job does nothing until then."),
                "early": .fail(
                    "a dependent started at {at}, before its job completed",
                    rule: """
                        It is asynchronous: start() resumes the job and returns, and the job's \
                        completion finishes the operation. Finishing when start() returns lets \
                        what depends on it run before the work is done.
                        """),
                "neverFinished": .fail(
                    "its job completed, but no dependent had started 2s later", rule: finishTold),
            ]),
        KataCheck(
            id: "cancelDuring",
            title: "cancelled while its 5s job runs, the job is cancelled and it finishes within a second",
            outcomes: [
                "pass": .pass("its job was cancelled, and a dependent started {at} after the cancel"),
                "noJob": .fail(
                    "no job of its was resumed within 2s of its being added, so no cancel was tried",
                    rule: "Started, it makes a SlowJob and calls resume(): a job does nothing until then."),
                "jobGoesOn": .fail(
                    "its job went on: nothing cancelled it within 1s of the operation's cancel", rule: reachIt),
                "neverFinished": .fail(
                    "its job was cancelled, but no dependent had started {at} after the cancel",
                    rule: """
                        A cancelled job still ends with its completion (completed false): finish \
                        there, with KVO, as after a job that ran out.
                        """),
            ]),
        KataCheck(
            id: "cancelBefore", title: "cancelled before it starts, it finishes and makes no job run",
            outcomes: [
                "pass": .pass("no job was resumed, and a dependent started at {at}"),
                "jobRan": .fail(
                    "a job of its was resumed though it was cancelled before it started",
                    rule: """
                        start() looks at isCancelled first: cancelled before its start, the \
                        operation finishes at once and starts nothing.
                        """),
                "neverFinished": .fail(
                    "no dependent had started {at} after it was added",
                    rule: """
                        Cancelled or not, a started operation must finish: the queue calls \
                        start() on a cancelled operation too, and waits for its isFinished, \
                        told with KVO.
                        """),
            ]),
        KataCheck(
            id: "cancelWhileStarting", title: "a cancel that comes while start() is making the job still reaches it",
            outcomes: [
                "pass": .pass(
                    "the cancel came while start() was making its job, and reached it: it finished {at} after"),
                "missed": .fail(
                    "the cancel came while start() was making its job and never reached it: the job ran on",
                    rule: """
                        Between start()'s look at isCancelled and the moment the job is kept, a \
                        cancel finds no job to cancel. Look at isCancelled again once the job is \
                        kept (or hold one lock across keeping the job and cancelling it), so that \
                        a cancel at any moment reaches it.
                        """),
                "notReached": .fail("its cancel() does not reach its job at any moment (see above)", rule: reachIt),
                "noJob": .fail(
                    "no job of its was made within 2s of its being added, so no cancel was tried",
                    rule: "Started, it makes a SlowJob and calls resume(): a job does nothing until then."),
                "neverFinished": .fail(
                    "its job was cancelled, but no dependent had started {at} after the cancel", rule: finishTold),
            ]),
    ]

    static let cancellableTaskStarter = """
        import Foundation

        // opscope kata cancellable-task
        //
        // An operation that starts a job and whose cancel reaches it. The
        // checks give the job's class, SlowJob, which behaves like a
        // URLSessionTask:
        //
        //   let job = SlowJob(seconds: 2) { completed in … }
        //   job.resume()   // it does nothing until resumed
        //   job.cancel()   // its completion then runs soon, with false
        //
        // Its completion runs once, on another thread: true after its seconds,
        // false after a cancel. Check this file with:
        //   opscope kata cancellable-task
        //
        // What the checks ask:
        // - its job runs, and it finishes after the job completed;
        // - cancelled while the job runs, the job is cancelled and it finishes
        //   within a second;
        // - cancelled before it starts, it finishes and makes no job run;
        // - a cancel that comes while start() is making the job is not lost.

        class JobOperation: Operation, @unchecked Sendable {
            let seconds: Double

            init(seconds: Double) {
                self.seconds = seconds
                super.init()
            }

            override var isAsynchronous: Bool { true }

            // TODO: isExecuting and isFinished, with KVO, safe across threads.

            override func start() {
                // TODO: make a SlowJob of `seconds`, resume it, and finish when
                // its completion runs.
            }

            override func cancel() {
                super.cancel()
                // TODO: cancel the job this operation holds.
            }
        }

        """
}
