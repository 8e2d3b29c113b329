extension Kata {
    /// The program that runs `cancellable-task`'s checks (its `main.swift`),
    /// compiled with the user's file. It gives the file `SlowJob`, whose
    /// every job notes when it was made, resumed, cancelled and completed;
    /// an operation's finish is seen as Foundation saw it, by a dependent
    /// starting. The last check cancels the operation from another thread
    /// at the moment its start() makes (or resumes) its job, and holds that
    /// moment until the cancel has returned (or has waited 0.2 s, on a lock
    /// of the file's, say).
    static let cancellableTaskHarness = #"""
        import Foundation

        // The checks of opscope's kata "cancellable-task", run on this Foundation's
        // own OperationQueue against the file's `JobOperation`, and the job class
        // the file uses, `SlowJob`.

        /// A job like a URLSessionTask: nothing happens until `resume()`; its
        /// completion runs once, on another thread, with true after its seconds or
        /// false soon after `cancel()`.
        final class SlowJob: @unchecked Sendable {
            private let lock = NSLock()
            private let seconds: Double
            private var completion: ((Bool) -> Void)?
            let log = KataLog()

            init(seconds: Double, completion: @escaping (Bool) -> Void) {
                self.seconds = seconds
                self.completion = completion
                kataJobs.add(self)
                log.note("made")
                kataJobs.holdIfArmed()
            }

            func resume() {
                kataJobs.holdIfArmed()
                let first = lock.withLock { () -> Bool in
                    guard log["resumed"] == nil, log["cancelled"] == nil else { return false }
                    log.note("resumed")
                    return true
                }
                guard first else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.complete(true) }
            }

            func cancel() {
                lock.withLock { log.note("cancelled") }
                DispatchQueue.global().async { self.complete(false) }
            }

            private func complete(_ completed: Bool) {
                let call = lock.withLock { () -> ((Bool) -> Void)? in
                    defer { completion = nil }
                    return completion
                }
                guard let call else { return }
                log.note(completed ? "completed" : "completed cancelled")
                call(completed)
            }
        }

        /// Every job made, and the operation whose start the next job event
        /// answers with a cancel from another thread (the last check's).
        final class KataJobs: @unchecked Sendable {
            private let lock = NSLock()
            private var all: [SlowJob] = []
            private var armed: Operation?
            private var startBegan = false
            private var heldAt: Double?

            func add(_ job: SlowJob) { lock.withLock { all.append(job) } }
            var jobs: [SlowJob] { lock.withLock { all } }
            func jobs(since index: Int) -> [SlowJob] { lock.withLock { Array(all.dropFirst(index)) } }

            func arm(_ operation: Operation) { lock.withLock { armed = operation } }
            func started(_ operation: Operation) { lock.withLock { if armed === operation { startBegan = true } } }
            var cancelledAt: Double? { lock.withLock { heldAt } }

            /// On the armed operation's first job event after its start began:
            /// cancels it from another thread and holds this thread until that
            /// cancel returned, or for 0.2 s.
            func holdIfArmed() {
                let operation = lock.withLock { () -> Operation? in
                    guard startBegan, let armed else { return nil }
                    self.armed = nil
                    heldAt = kataSeconds()
                    return armed
                }
                guard let operation else { return }
                let returned = KataLog()
                Thread {
                    operation.cancel()
                    returned.note("cancel returned")
                }.start()
                _ = kataWait(0.2) { returned["cancel returned"] != nil }
            }
        }

        let kataJobs = KataJobs()

        /// The file's class, its start() noted for the last check.
        final class KataJobOperation: JobOperation, @unchecked Sendable {
            override func start() {
                kataJobs.started(self)
                super.start()
            }
        }

        /// An operation of `seconds` and a dependent that notes when it starts,
        /// on a fresh queue; the operation is cancelled first when `cancelled`.
        func kataRun(_ seconds: Double, cancelled: Bool = false, armed: Bool = false) -> (KataJobOperation, KataLog) {
            let log = KataLog()
            let operation = KataJobOperation(seconds: seconds)
            let dependent = BlockOperation { log.note("dependent started") }
            dependent.addDependency(operation)
            if cancelled { operation.cancel() }
            if armed { kataJobs.arm(operation) }
            OperationQueue().addOperations([operation, dependent], waitUntilFinished: false)
            return (operation, log)
        }

        var kataCancelReachesJobs = true

        // 1. A job of 0.3 s: it completes, and the operation finishes after it.
        do {
            let start = kataSeconds()
            let before = kataJobs.jobs.count
            let (_, log) = kataRun(0.3)
            if !kataWait(2, { kataJobs.jobs(since: before).contains { $0.log["resumed"] != nil } }) {
                kataReport("runs", "noJob")
            } else if !kataWait(3, { log["dependent started"] != nil || kataJobs.jobs(since: before).contains { $0.log["completed"] != nil } }) {
                kataReport("runs", "neverFinished")
            } else if let early = log["dependent started"],
                kataJobs.jobs(since: before).allSatisfy({ ($0.log["completed"] ?? .infinity) > early })
            {
                kataReport("runs", "early", at: early, since: start)
            } else if kataWait(2, { log["dependent started"] != nil }), let at = log["dependent started"] {
                kataReport("runs", "pass", at: at, since: start)
            } else {
                kataReport("runs", "neverFinished")
            }
        }

        // 2. A job of 5 s, cancelled 0.2 s after it was resumed: the job is
        // cancelled, and the operation finishes within a second.
        do {
            let before = kataJobs.jobs.count
            let (operation, log) = kataRun(5)
            if !kataWait(2, { kataJobs.jobs(since: before).contains { $0.log["resumed"] != nil } }) {
                kataReport("cancelDuring", "noJob")
                kataCancelReachesJobs = false
            } else {
                usleep(200_000)
                let cancelAt = kataSeconds()
                operation.cancel()
                if !kataWait(1, { kataJobs.jobs(since: before).contains { $0.log["cancelled"] != nil } }) {
                    kataReport("cancelDuring", "jobGoesOn")
                    kataCancelReachesJobs = false
                } else if kataWait(1, { log["dependent started"] != nil }), let at = log["dependent started"] {
                    kataReport("cancelDuring", "pass", at: at, since: cancelAt)
                } else {
                    kataReport("cancelDuring", "neverFinished", at: kataSeconds(), since: cancelAt)
                }
            }
        }

        // 3. Cancelled before it is added: it finishes, and no job of its is
        // resumed.
        do {
            let start = kataSeconds()
            let before = kataJobs.jobs.count
            let (_, log) = kataRun(0.5, cancelled: true)
            let finished = kataWait(2) { log["dependent started"] != nil }
            if kataJobs.jobs(since: before).contains(where: { $0.log["resumed"] != nil }) {
                kataReport("cancelBefore", "jobRan")
            } else if finished, let at = log["dependent started"] {
                kataReport("cancelBefore", "pass", at: at, since: start)
            } else {
                kataReport("cancelBefore", "neverFinished", at: kataSeconds(), since: start)
            }
        }

        // 4. Cancelled from another thread at the moment its start() makes (or
        // resumes) its 3 s job: the cancel still reaches the job.
        do {
            let before = kataJobs.jobs.count
            let (_, log) = kataRun(3, armed: true)
            if !kataWait(2, { kataJobs.cancelledAt != nil }) {
                kataReport("cancelWhileStarting", "noJob")
            } else if let cancelAt = kataJobs.cancelledAt {
                let reached = kataWait(1.5) { kataJobs.jobs(since: before).contains { $0.log["cancelled"] != nil } }
                if !reached {
                    kataReport("cancelWhileStarting", kataCancelReachesJobs ? "missed" : "notReached")
                } else if kataWait(1.5, { log["dependent started"] != nil }), let at = log["dependent started"] {
                    kataReport("cancelWhileStarting", "pass", at: at, since: cancelAt)
                } else {
                    kataReport("cancelWhileStarting", "neverFinished", at: kataSeconds(), since: cancelAt)
                }
            }
        }

        """#
}
