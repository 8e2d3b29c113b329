extension Kata {
    /// The program that runs `main-thread`'s checks (its `main.swift`),
    /// compiled with the user's file. The checks run on a thread of their
    /// own while the main thread serves the main queue through its run
    /// loop (this Foundation's `dispatchMain()` would drain the main queue
    /// on a worker thread instead). The work given to each operation notes
    /// when it ran and whether on the main thread.
    static let mainThreadHarness = #"""
        import Foundation

        // The checks of opscope's kata "main-thread", run on this Foundation's own
        // OperationQueue against the file's `MainThreadOperation`.

        /// The file's class, its start() noted.
        final class KataMainThreadOperation: MainThreadOperation, @unchecked Sendable {
            let kataLog = KataLog()
            override func start() {
                kataLog.note("start called")
                super.start()
            }
        }

        /// An operation whose work notes when it ran, where, and how often, with a
        /// dependent that notes when it starts; the dependent on a background queue.
        func kataOperation(_ log: KataLog) -> (KataMainThreadOperation, BlockOperation) {
            let runs = NSLock()
            var count = 0
            let operation = KataMainThreadOperation {
                let n = runs.withLock { () -> Int in
                    count += 1
                    return count
                }
                log.note(Thread.isMainThread ? "work ran on main" : "work ran off main")
                log.note("work ran \(n)")
                usleep(20_000)
                log.note("work returned")
            }
            let dependent = BlockOperation { log.note("dependent started") }
            dependent.addDependency(operation)
            return (operation, dependent)
        }

        /// The work's run, graded: where it ran, how often, and when the
        /// dependent started.
        func kataGradeRun(_ check: String, _ log: KataLog, since start: Double) {
            if !kataWait(2, { log["work returned"] != nil }) {
                kataReport(check, log["work ran off main"] != nil ? "offMain" : "neverRan")
            } else if log["work ran off main"] != nil {
                kataReport(check, "offMain")
            } else if !kataWait(2, { log["dependent started"] != nil }) {
                kataReport(check, "neverFinished", at: kataSeconds(), since: log["work returned"] ?? start)
            } else if let at = log["dependent started"], let returned = log["work returned"], at < returned {
                kataReport(check, "early", at: at, since: start)
            } else if log["work ran 2"] != nil {
                kataReport(check, "twice", count: 2 + (3...10).filter { log["work ran \($0)"] != nil }.count)
            } else {
                kataReport(check, "pass", at: log["dependent started"], since: start)
            }
        }

        let kataChecksDone = KataLog()

        Thread {
            // 1. On a background queue: the work runs once, on the main thread, and
            // the operation finishes after it returned.
            do {
                let start = kataSeconds()
                let log = KataLog()
                let (operation, dependent) = kataOperation(log)
                OperationQueue().addOperations([operation, dependent], waitUntilFinished: false)
                kataGradeRun("onMain", log, since: start)
            }

            // 2. Cancelled before it is added: it finishes, and the work never runs.
            do {
                let start = kataSeconds()
                let log = KataLog()
                let (operation, dependent) = kataOperation(log)
                operation.cancel()
                OperationQueue().addOperations([operation, dependent], waitUntilFinished: false)
                let finished = kataWait(2) { log["dependent started"] != nil }
                usleep(100_000)
                if log["work ran 1"] != nil {
                    kataReport("cancelBefore", "workRan")
                } else if finished {
                    kataReport("cancelBefore", "pass", at: log["dependent started"], since: start)
                } else {
                    kataReport("cancelBefore", "neverFinished", at: kataSeconds(), since: start)
                }
            }

            // 3. The main thread busy until the operation, started meanwhile on a
            // background queue, was cancelled (0.1 s after its start() was called;
            // at most 5 s): its work never runs.
            do {
                let log = KataLog()
                let busy = KataLog()
                DispatchQueue.main.async {
                    busy.note("busy")
                    _ = kataWait(5) { busy["release"] != nil }
                    busy.note("free")
                }
                _ = kataWait(2) { busy["busy"] != nil }
                let (operation, dependent) = kataOperation(log)
                OperationQueue().addOperations([operation, dependent], waitUntilFinished: false)
                if !kataWait(2, { operation.kataLog["start called"] != nil }) {
                    busy.note("release")
                    kataReport("cancelOnTheWay", "notStarted")
                } else {
                    usleep(100_000)
                    operation.cancel()
                    busy.note("release")
                    _ = kataWait(6) { busy["free"] != nil }
                    let free = busy["free"] ?? kataSeconds()
                    let finished = kataWait(2) { log["dependent started"] != nil }
                    usleep(100_000)
                    if log["work ran off main"] != nil {
                        kataReport("cancelOnTheWay", "offMain")
                    } else if log["work ran 1"] != nil {
                        kataReport("cancelOnTheWay", "workRan")
                    } else if finished {
                        kataReport("cancelOnTheWay", "pass", at: log["dependent started"], since: free)
                    } else {
                        kataReport("cancelOnTheWay", "neverFinished", at: kataSeconds(), since: free)
                    }
                }
            }

            // 4. On OperationQueue.main, whose operations run on the main thread: the
            // work runs there (last: a DispatchQueue.main.sync here ends the program).
            do {
                let start = kataSeconds()
                let log = KataLog()
                let (operation, dependent) = kataOperation(log)
                OperationQueue().addOperation(dependent)
                OperationQueue.main.addOperation(operation)
                kataGradeRun("onMainQueue", log, since: start)
            }
            kataChecksDone.note("done")
        }.start()

        while kataChecksDone["done"] == nil {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }

        """#
}
