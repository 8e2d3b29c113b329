/// The fixed part of the programs `SwiftProgramPrinter` writes that waits
/// for the end and reports how each operation ended.
extension SwiftProgramPrinter {
    static let ending = #"""
        // MARK: - The end

        /// How an operation ended, in opscope's four words.
        enum Ending: String {
            /// It finished, not cancelled.
            case finished
            /// It was cancelled while it ran: it finished with isCancelled true.
            case cancelled
            /// It was cancelled before it started: it finished without running.
            case skipped
            /// It never finished.
            case stuck
        }

        /// An operation or a barrier, as the end report sees it.
        protocol Reported: AnyObject, Sendable {
            var reportedName: String { get }
            /// Seconds since the program started when its work began; nil when
            /// it never did.
            var startTime: Double? { get }
            /// It finished (cancelled or not).
            var isOver: Bool { get }
            /// How it ended, with why in a few words.
            var ending: (Ending, String) { get }
        }

        /// An operation with the bug of never posting isFinished, on some path.
        protocol ForgetsIsFinished: AnyObject {
            /// It took the path that never posts isFinished.
            var forgotIsFinished: Bool { get }
        }

        /// An operation that records when its work began, for the report.
        protocol RecordsItsStart: Operation, Reported {
            var started: StartRecord { get }
        }

        extension RecordsItsStart {
            var reportedName: String { name ?? "?" }
            var startTime: Double? { started.startTime }
            var isOver: Bool { isFinished }

            /// From its flags and its start.
            var ending: (Ending, String) {
                let ran = startTime != nil
                if isCancelled && !ran {
                    if isFinished { return (.skipped, "cancelled before it started: it never ran") }
                    return (.skipped, "cancelled before it started, but its queue never finished it")
                }
                if isFinished { return isCancelled ? (.cancelled, "cancelled while it ran") : (.finished, "") }
                if isExecuting { return (.stuck, "still executing: it never posted isFinished") }
                if ran { return (.stuck, "its work never returned") }
                return (.stuck, isReady ? "ready, but its queue never ran it" : "pending: a dependency never finished")
            }
        }

        /// Runs the main run loop until the scenario is over, or until
        /// `timeout` seconds have passed: a stalled scenario (an operation that
        /// never finishes, a queue never resumed) must end too. Running the
        /// main run loop is also what lets `OperationQueue.main` run its
        /// operations on the main thread. Then prints how each operation ended,
        /// and exits (0 when it was over, 1 when it stalled).
        ///
        /// The scenario is over when every operation and barrier has finished
        /// and every completion block in `events` has run. A timed action still
        /// to come then could change nothing (every operation has finished), so
        /// it is not waited for; one already due is. `timedActions` are the
        /// events the timed actions mark, each with its time in seconds after
        /// `start`. `startedByHand` names the operations in no queue, whose
        /// start() only the main thread calls (`startByHand`). With
        /// `mainThreadWaits`, a wait on the main thread may never return (a
        /// deadlock): a thread of its own then reports a second after the
        /// timeout.
        func waitForTheEnd(
            _ operations: [any Reported], events: [String] = [], startedByHand: Set<String> = [],
            timedActions: [(event: String, time: Double)] = [], from start: DispatchTime = .now(), tally: Tally,
            timeout: Double, mainThreadWaits: Bool = false
        ) -> Never {
            if mainThreadWaits {
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: timeout + 1)
                    say("the main thread is still blocked in a wait after \(timeout)s: it never returned")
                    reportTheEnd(operations, events: events, startedByHand: startedByHand, tally: tally, over: false)
                }
            }
            // A timer keeps the run loop busy, so that each turn waits instead
            // of returning at once.
            let keepAlive = Timer(timeInterval: 1, repeats: true) { _ in }
            RunLoop.main.add(keepAlive, forMode: .default)
            let deadline = Date().addingTimeInterval(timeout)
            func isOver() -> Bool {
                guard operations.allSatisfy({ $0.isOver }) else { return false }
                let now = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                return events.allSatisfy { tally.contains($0) }
                    && timedActions.allSatisfy { $0.time > now || tally.contains($0.event) }
            }
            while !isOver() && Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.02))
            }
            let over = isOver()
            say(over ? "the scenario is over" : "the scenario stalled: after \(timeout)s some work never ended")
            reportTheEnd(operations, events: events, startedByHand: startedByHand, tally: tally, over: over)
        }

        /// Prints how each operation ended (and, with `--facts`, one line per
        /// fact), then exits: 0 when the scenario was over, 1 when it stalled.
        /// Called once: by the main thread, or by the thread that reports a
        /// main thread blocked for good (the lock keeps a second caller out).
        func reportTheEnd(
            _ operations: [any Reported], events: [String], startedByHand: Set<String>, tally: Tally, over: Bool
        ) -> Never {
            reporting.lock()
            let endings = operations.map { one -> (Ending, String) in
                let (ending, why) = one.ending
                // No queue runs it: only a start() by hand, which never came
                // (or was not called, as it said).
                guard startedByHand.contains(one.reportedName), !one.isOver, one.startTime == nil else {
                    return (ending, why)
                }
                return (ending, "in no queue, and its start() was never called")
            }
            for (one, (ending, why)) in zip(operations, endings) {
                print("    \(one.reportedName): \(ending.rawValue)" + (why.isEmpty ? "" : " (\(why))"))
            }
            for event in events where !tally.contains(event) {
                print("    never happened: \(event)")
            }
            if CommandLine.arguments.contains("--facts") {
                // One line per fact, for tools (opscope compares them with its own run).
                let starts = operations.compactMap { one in one.startTime.map { (one.reportedName, $0) } }
                for (name, time) in starts.sorted(by: { $0.1 < $1.1 }) {
                    print("fact start \(name) \(String(format: "%.6f", time))")
                }
                for (one, (ending, _)) in zip(operations, endings) { print("fact end \(one.reportedName) \(ending)") }
                // What holds the stalled work, as the trace's causes name it.
                for one in operations {
                    if let buggy = one as? any ForgetsIsFinished, buggy.forgotIsFinished, !one.isOver {
                        print("fact cause never-posted-isFinished \(one.reportedName)")
                    }
                }
                if let waited = tally.mainThreadWait { print("fact cause main-thread-blocked \(waited)") }
                print("fact outcome \(over ? "completed" : "stalled")")
            }
            exit(over ? 0 : 1)
        }

        /// Held by the one caller of `reportTheEnd`, which never returns.
        let reporting = NSLock()
        """#
}
