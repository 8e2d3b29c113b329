/// The fixed parts of the programs `SwiftProgramPrinter` writes: helper
/// functions and `Operation` subclasses, each printed only when the
/// scenario uses it. They are raw strings so that `\(…)` stays literal.
extension SwiftProgramPrinter {
    static let printing = #"""
        // MARK: - Printing

        /// The moment the program started: every line it prints says how long
        /// after it, in seconds.
        enum Clock {
            static let start = Date()

            /// Seconds since the start.
            static var now: Double { Date().timeIntervalSince(start) }
        }

        /// Prints one line with the time since the start (`time`, or now).
        /// Operations call it from many threads at once; `print` writes each
        /// line whole.
        func say(_ text: String, at time: Double = Clock.now) {
            print(String(format: "[%6.3fs] ", time) + text)
        }

        /// The events the program waits for besides the operations themselves
        /// (completion blocks, timed actions). They are marked from whatever
        /// thread they happen on, hence the lock.
        final class Tally: @unchecked Sendable {
            private let lock = NSLock()
            private var events: Set<String> = []

            func mark(_ event: String) {
                lock.lock()
                events.insert(event)
                lock.unlock()
            }

            func contains(_ event: String) -> Bool {
                lock.lock()
                defer { lock.unlock() }
                return events.contains(event)
            }

            /// What the main thread is blocked waiting for (an operation's or
            /// a queue's name), nil while it waits for nothing.
            var mainThreadWait: String? {
                get {
                    lock.lock()
                    defer { lock.unlock() }
                    return waitedFor
                }
                set {
                    lock.lock()
                    waitedFor = newValue
                    lock.unlock()
                }
            }
            private var waitedFor: String?
        }

        /// When an operation's work began. Foundation's flags cannot tell an
        /// operation cancelled while it ran from one cancelled before it
        /// started (both end with isFinished and isCancelled true); this can.
        final class StartRecord: @unchecked Sendable {
            private let lock = NSLock()
            private var time: Double?

            /// Seconds since the program started when the work began; nil
            /// while it has not.
            var startTime: Double? {
                lock.lock()
                defer { lock.unlock() }
                return time
            }

            /// Marks the start (once) and prints `start NAME`.
            func mark(_ name: String) {
                let now = Clock.now
                lock.lock()
                let first = time == nil
                if first { time = now }
                lock.unlock()
                if first { say("start \(name)", at: now) }
            }
        }
        """#

    static let simulatedWork = #"""
        // MARK: - Simulated work

        /// Pretends to work for `seconds`: sleeps in slices of at most 10 ms and
        /// asks `shouldStop` between slices, the way real work checks
        /// `isCancelled` between its steps. Returns false when it stopped early.
        func simulateWork(seconds: Double, shouldStop: () -> Bool = { false }) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while true {
                let left = end.timeIntervalSinceNow
                if left <= 0 { return true }
                if shouldStop() { return false }
                Thread.sleep(forTimeInterval: min(left, 0.01))
            }
        }
        """#

    static let cooperativeOperation = #"""
        /// A synchronous operation. Its queue calls `start()`, which calls
        /// `main()` on a worker thread: the operation is executing while `main()`
        /// runs and finished when it returns, and Foundation posts `isExecuting`
        /// and `isFinished` for it.
        ///
        /// Cancelling is only a flag: `cancel()` sets `isCancelled`, nothing more.
        /// It is up to `main()` to look at the flag, as this one does between
        /// slices of its work. An operation cancelled before it starts is still
        /// started by its queue, but `start()` sees the flag and finishes it
        /// without calling `main()`.
        ///
        /// `Operation` is `Sendable` because it guards its own state; a subclass
        /// says so too (`@unchecked`) and keeps its own properties constant.
        final class SimulatedWork: Operation, RecordsItsStart, @unchecked Sendable {
            let seconds: Double
            let started = StartRecord()

            init(_ name: String, seconds: Double) {
                self.seconds = seconds
                super.init()
                self.name = name
            }

            override func main() {
                let name = self.name ?? "?"
                started.mark(name)
                if simulateWork(seconds: seconds, shouldStop: { self.isCancelled }) {
                    say("finish \(name)")
                } else {
                    say("finish \(name) (cancelled: it saw isCancelled and stopped early)")
                }
            }
        }
        """#

    static let workLeftRunning = #"""
        /// The trap of a synchronous `main()` that starts asynchronous work (a
        /// data task, a timer) and returns without waiting for it: Foundation
        /// takes the operation for finished as soon as `main()` returns, and
        /// its dependents start while that work still runs. An operation
        /// whose work ends later must be asynchronous, and post `isFinished`
        /// when that work ends.
        final class WorkLeftRunning: Operation, RecordsItsStart, @unchecked Sendable {
            let seconds: Double
            let leftRunning: Double
            let checksCancellation: Bool
            let started = StartRecord()
            private let lock = NSLock()
            private var leftWorkRunning = false

            /// Over once main() has returned and the work it left running has
            /// ended too: the program waits for that work before it reports.
            var isOver: Bool { isFinished && !lock.withLock { leftWorkRunning } }

            init(_ name: String, seconds: Double, leftRunning: Double, checksCancellation: Bool = true) {
                self.seconds = seconds
                self.leftRunning = leftRunning
                self.checksCancellation = checksCancellation
                super.init()
                self.name = name
            }

            override func main() {
                let name = self.name ?? "?"
                started.mark(name)
                guard simulateWork(seconds: seconds, shouldStop: { self.checksCancellation && self.isCancelled }) else {
                    say("finish \(name) (cancelled: it saw isCancelled and stopped early)")
                    return
                }
                lock.withLock { leftWorkRunning = true }
                DispatchQueue.global().asyncAfter(deadline: .now() + leftRunning) {
                    say("\(name): the work its main() left running ends")
                    self.lock.withLock { self.leftWorkRunning = false }
                }
                say("finish \(name) (main() returns; the work it started runs on)")
            }
        }
        """#

    static let nonCooperativeOperation = #"""
        /// The trap of a non-cooperative operation: its `main()` never looks at
        /// `isCancelled`, so `cancel()` does not stop it. It runs to the end, and
        /// still ends cancelled.
        final class NonCooperativeWork: Operation, RecordsItsStart, @unchecked Sendable {
            let seconds: Double
            let started = StartRecord()

            init(_ name: String, seconds: Double) {
                self.seconds = seconds
                super.init()
                self.name = name
            }

            override func main() {
                let name = self.name ?? "?"
                started.mark(name)
                _ = simulateWork(seconds: seconds)
                say(isCancelled ? "finish \(name) (cancelled, but it never checked)" : "finish \(name)")
            }
        }
        """#

    static let blockOperation = #"""
        /// A real `BlockOperation` with one execution block per duration; it
        /// finishes when all its blocks have returned. Apple's Foundation may run
        /// the blocks at the same time on several threads; swift-corelibs-foundation
        /// (Linux) runs them one after another on one thread, in its `main()`.
        final class SimulatedBlocks: BlockOperation, RecordsItsStart, @unchecked Sendable {
            let started = StartRecord()

            init(_ name: String, blockSeconds: [Double], checksCancellation: Bool = true) {
                super.init()
                self.name = name
                for (index, seconds) in blockSeconds.enumerated() {
                    let label = "\(name) (block \(index + 1) of \(blockSeconds.count))"
                    // `unowned`: the operation keeps its blocks alive, so a strong
                    // reference back to it would be a retain cycle.
                    addExecutionBlock { [unowned self] in
                        say("start \(label)")
                        let completed = simulateWork(seconds: seconds) { checksCancellation && self.isCancelled }
                        say(completed ? "finish \(label)" : "finish \(label) (cancelled: it stopped early)")
                    }
                }
            }

            override func main() {
                started.mark(name ?? "?")
                super.main()
            }
        }
        """#

    static let asyncOperation = #"""
        /// An asynchronous operation done right. Its queue calls `start()`, which
        /// starts the work and returns at once: no thread is held while the work
        /// is in flight. Foundation cannot tell when such an operation is done,
        /// so the operation says it itself:
        /// - `isAsynchronous` is true;
        /// - `isExecuting` and `isFinished` come from its own state, behind a lock
        ///   because the queue reads them from other threads;
        /// - every change of that state is announced with `willChangeValue` and
        ///   `didChangeValue` for "isExecuting" and "isFinished". The queue learns
        ///   that the operation finished only from
        ///   `didChangeValue(forKey: "isFinished")`: until it is posted, the
        ///   operation keeps its slot in the queue and its dependents wait;
        /// - a cancelled operation is still started by its queue and must then
        ///   finish at once; one cancelled while it runs finishes early.
        class AsyncOperation: Operation, RecordsItsStart, @unchecked Sendable {
            private enum State { case waiting, executing, finished }

            let seconds: Double
            let stopsWhenCancelled: Bool
            let started = StartRecord()
            private let lock = NSLock()
            private var state = State.waiting
            private var finishing = false
            /// Where the end of the work is scheduled: a serial queue of its own,
            /// never the global pool, which synchronous work may keep busy.
            private let timer = DispatchQueue(label: "AsyncOperation.timer")

            init(_ name: String, seconds: Double, stopsWhenCancelled: Bool = true) {
                self.seconds = seconds
                self.stopsWhenCancelled = stopsWhenCancelled
                super.init()
                self.name = name
            }

            override var isAsynchronous: Bool { true }

            override var isExecuting: Bool {
                lock.lock()
                defer { lock.unlock() }
                return state == .executing
            }

            override var isFinished: Bool {
                lock.lock()
                defer { lock.unlock() }
                return state == .finished
            }

            override func start() {
                // Finished already (a start() by hand after its end): nothing to
                // do, as Foundation's own start() does then.
                if isFinished { return }
                if isCancelled {
                    // Cancelled before it started: it finishes without running.
                    guard claimFinish() else { return }
                    postFinished(wasExecuting: false)
                    return
                }
                willChangeValue(forKey: "isExecuting")
                setState(.executing)
                didChangeValue(forKey: "isExecuting")
                started.mark(name ?? "?")
                timer.asyncAfter(deadline: .now() + seconds) { self.finish() }
            }

            override func cancel() {
                super.cancel()
                if stopsWhenCancelled && isExecuting { finish() }
            }

            /// The end of the work (or a cancel that stops it): moves to
            /// finished and posts the change, once (the timer and `cancel()`
            /// may both get here).
            func finish() {
                guard claimFinish() else { return }
                let note = stopsWhenCancelled ? " (cancelled: it finished early)" : " (cancelled, but it went on)"
                say("finish \(name ?? "?")" + (isCancelled ? note : ""))
                postFinished(wasExecuting: true)
            }

            /// True for the first caller only.
            func claimFinish() -> Bool {
                lock.lock()
                defer { lock.unlock() }
                let first = !finishing
                finishing = true
                return first
            }

            private func postFinished(wasExecuting: Bool) {
                if wasExecuting { willChangeValue(forKey: "isExecuting") }
                willChangeValue(forKey: "isFinished")
                setState(.finished)
                if wasExecuting { didChangeValue(forKey: "isExecuting") }
                didChangeValue(forKey: "isFinished")
            }

            private func setState(_ newState: State) {
                lock.lock()
                state = newState
                lock.unlock()
            }
        }
        """#

    static let forgetfulOperation = #"""
        /// THE BUG, on purpose: an asynchronous operation that forgets to post
        /// `isFinished` when its work ends. A correct `finish()` (see
        /// `AsyncOperation`) sets the state to finished and posts
        /// `didChangeValue(forKey: "isFinished")`. This one does neither.
        /// Nothing crashes and nothing is logged: once started, the operation
        /// just stays executing forever, keeps its slot in the queue, and every
        /// operation that depends on it waits forever. (Cancelled before it
        /// started, it still finishes at once: that path of `start()` is right.)
        final class ForgetfulAsyncOperation: AsyncOperation, ForgetsIsFinished, @unchecked Sendable {
            /// Executing for good: its work ended and it never said so.
            var forgotIsFinished: Bool { isExecuting }

            override func finish() {
                guard claimFinish() else { return }
                let how = isCancelled ? "is cancelled" : "is done"
                say("\(name ?? "?") \(how), but never posts isFinished: it stays executing")
            }
        }
        """#

    static let forgetsWhenCancelledOperation = #"""
        /// THE BUG, on one path only: an asynchronous operation whose `start()`,
        /// when it finds the operation cancelled before it started, returns
        /// without posting `isFinished` (nor `isExecuting`). Every other path is
        /// right. Foundation learns that an operation finished only from
        /// `didChangeValue(forKey: "isFinished")`: its queue keeps counting it
        /// (on a serial queue, nothing after it ever starts) and every operation
        /// that depends on it waits forever, though it is cancelled.
        final class ForgetsWhenCancelledAsyncOperation: AsyncOperation, ForgetsIsFinished, @unchecked Sendable {
            private let forgot = NSLock()
            private var tookTheBadPath = false

            /// Its start() found it cancelled and returned without a word.
            var forgotIsFinished: Bool {
                forgot.lock()
                defer { forgot.unlock() }
                return tookTheBadPath
            }

            override func start() {
                if isCancelled && !isFinished {
                    forgot.lock()
                    tookTheBadPath = true
                    forgot.unlock()
                    say("\(name ?? "?") is cancelled: its start() returns without posting isFinished")
                    return
                }
                super.start()
            }
        }
        """#
}
