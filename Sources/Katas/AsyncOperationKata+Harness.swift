extension Kata {
    /// The program that runs `async-operation`'s checks (its `main.swift`),
    /// compiled with the user's file. Each check uses a fresh queue, and an
    /// operation that never finishes is left where it is: the next check
    /// does not depend on it. Times are generous (the machine may be busy):
    /// a check waits seconds for what takes milliseconds.
    static let asyncOperationHarness = #"""
        import Foundation

        // The checks of opscope's kata "async-operation", run on this
        // Foundation's own OperationQueue against the file's `AsyncDownload`.
        // Each check prints one line, "opscope-kata " and a JSON object, once it
        // is decided; the program ends when every check has.

        /// The file's class, its calls of `start()` timed. Not final: that is why
        /// the kata asks for a class that is not.
        final class KataObserved: AsyncDownload, @unchecked Sendable {
            private let kataLock = NSLock()
            private var startCalls: [(began: Double, returned: Double)] = []

            override func start() {
                let began = kataSeconds()
                super.start()
                let returned = kataSeconds()
                kataLock.lock()
                startCalls.append((began, returned))
                kataLock.unlock()
            }

            var starts: [(began: Double, returned: Double)] {
                kataLock.lock()
                defer { kataLock.unlock() }
                return startCalls
            }
        }

        /// What the getters of some operations said, read every millisecond on a
        /// thread of its own, and when a dependent of the first one started.
        final class KataWatch: @unchecked Sendable {
            private let lock = NSLock()
            private let operations: [Operation]
            private var stopped = false
            private var firstExecutingAt: Double?
            private var firstFinishedAt: Double?
            private var mostExecuting = 0
            private var dependentAt: Double?
            private var dependentSawFinished = true
            private(set) var dependent = BlockOperation()

            init(_ operations: [Operation]) {
                self.operations = operations
                let first = operations[0]
                dependent = BlockOperation { [unowned self] in
                    let finished = first.isFinished
                    lock.lock()
                    dependentAt = kataSeconds()
                    dependentSawFinished = finished
                    lock.unlock()
                }
                for operation in operations { dependent.addDependency(operation) }
                let thread = Thread { [self] in
                    while true {
                        // One look at each is no snapshot: one may finish and
                        // the next start during the look. Those that still say
                        // so at a second look said so together, between the two.
                        let executing = operations.filter(\.isExecuting)
                        let together = executing.filter(\.isExecuting).count
                        let finished = operations[0].isFinished
                        let now = kataSeconds()
                        lock.lock()
                        if !executing.isEmpty && firstExecutingAt == nil { firstExecutingAt = now }
                        if finished && firstFinishedAt == nil { firstFinishedAt = now }
                        mostExecuting = max(mostExecuting, together)
                        let done = stopped
                        lock.unlock()
                        if done { return }
                        usleep(1000)
                    }
                }
                thread.start()
            }

            func stop() {
                lock.lock()
                stopped = true
                lock.unlock()
            }

            private func read<T>(_ value: () -> T) -> T {
                lock.lock()
                defer { lock.unlock() }
                return value()
            }
            var executingAt: Double? { read { firstExecutingAt } }
            var finishedAt: Double? { read { firstFinishedAt } }
            var most: Int { read { mostExecuting } }
            var dependentStartedAt: Double? { read { dependentAt } }
            var dependentFoundItFinished: Bool { read { dependentSawFinished } }
        }

        /// The outcome of a check whose dependent never started: the getter said
        /// finished (Foundation was not told) or it never finished.
        func kataUnfinished(_ check: String, _ watch: KataWatch, since start: Double) {
            if let finished = watch.finishedAt {
                kataReport(check, "notTold", at: finished, since: start)
            } else {
                kataReport(check, "neverFinished", at: kataSeconds(), since: start)
            }
        }

        // 1. It runs, finishes, and Foundation is told: a dependent starts.
        do {
            let start = kataSeconds()
            let op = KataObserved(seconds: 1)
            let watch = KataWatch([op])
            OperationQueue().addOperations([op, watch.dependent], waitUntilFinished: false)
            let ran = kataWait(5) { watch.dependentStartedAt != nil }
            watch.stop()
            if let slow = op.starts.first(where: { $0.returned - $0.began >= 0.5 }) {
                kataReport("runs", "startWaits", at: slow.returned, since: start)
            } else if ran, let at = watch.dependentStartedAt {
                kataReport("runs", watch.executingAt == nil ? "neverExecuting" : "pass", at: at, since: start)
            } else {
                kataUnfinished("runs", watch, since: start)
            }
        }

        // 2. Cancelled before it starts: it finishes without its work and without
        // going executing (its work would take 2 s).
        do {
            let start = kataSeconds()
            let op = KataObserved(seconds: 2)
            op.cancel()
            let watch = KataWatch([op])
            OperationQueue().addOperations([op, watch.dependent], waitUntilFinished: false)
            let ran = kataWait(5) { watch.dependentStartedAt != nil }
            watch.stop()
            if let executing = watch.executingAt {
                kataReport("cancelBeforeStart", "wentExecuting", at: executing, since: start)
            } else if ran, let at = watch.dependentStartedAt {
                kataReport("cancelBeforeStart", at - start < 1 ? "pass" : "ranWork", at: at, since: start)
            } else {
                kataUnfinished("cancelBeforeStart", watch, since: start)
            }
        }

        // 3. Cancelled during its work (of 4 s), 0.2 s after it went executing:
        // it finishes within a second of the cancel.
        do {
            let start = kataSeconds()
            let op = KataObserved(seconds: 4)
            let watch = KataWatch([op])
            OperationQueue().addOperations([op, watch.dependent], waitUntilFinished: false)
            if kataWait(3, { watch.executingAt != nil }), let executing = watch.executingAt {
                usleep(200_000)
                let cancelAt = kataSeconds()
                op.cancel()
                let ran = kataWait(7) { watch.dependentStartedAt != nil }
                watch.stop()
                if ran, let at = watch.dependentStartedAt {
                    let outcome = at - cancelAt <= 1 ? "pass" : at - executing >= 3.5 ? "ranToEnd" : "slow"
                    kataReport("cancelDuring", outcome, at: at, since: cancelAt)
                } else {
                    kataUnfinished("cancelDuring", watch, since: cancelAt)
                }
            } else {
                watch.stop()
                kataReport("cancelDuring", "neverExecuting", at: kataSeconds(), since: start)
            }
        }

        // 4. A queue with a cap of 4 never runs more than 4 of 100 (0.02 s each).
        do {
            let ops = (0..<100).map { _ in KataObserved(seconds: 0.02) }
            let watch = KataWatch(ops)
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            queue.addOperations(ops + [watch.dependent], waitUntilFinished: false)
            // Until the dependent starts, or 2 s pass without one more finishing.
            var finished = 0
            var progressAt = kataSeconds()
            let ran = kataWait(30) {
                let now = ops.filter(\.isFinished).count
                if now > finished { (finished, progressAt) = (now, kataSeconds()) }
                return watch.dependentStartedAt != nil || kataSeconds() - progressAt > 2
            } && watch.dependentStartedAt != nil
            watch.stop()
            if watch.most > 4 {
                kataReport("cap", "overCap", count: watch.most)
            } else if ran {
                kataReport("cap", "pass", count: watch.most)
            } else {
                kataReport("cap", "neverFinished", count: ops.filter(\.isFinished).count)
            }
        }

        // 5. Nothing keeps it alive once its queue is done with it.
        do {
            let start = kataSeconds()
            weak var released: AsyncDownload?
            var drained = false
            do {
                let queue = OperationQueue()
                let op = AsyncDownload(seconds: 0.05)
                released = op
                queue.addOperation(op)
                drained = kataWait(3) { queue.operationCount == 0 }
            }
            if !drained {
                kataReport("released", "neverFinished", at: kataSeconds(), since: start)
            } else if kataWait(2, { released == nil }) {
                kataReport("released", "pass")
            } else {
                kataReport("released", released?.completionBlock != nil ? "capturedByCompletion" : "alive")
            }
        }

        """#
}
