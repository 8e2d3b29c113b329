/// The fixed part of the programs `GCDProgramPrinter` writes: the step an
/// operation becomes, a queue's suspension kept balanced, and the wait for
/// the end with the report of how each step ended.
extension GCDProgramPrinter {
    static let support = #"""
        // MARK: - Asynchronous work

        /// Asynchronous work: `then(true)` at `end`, or `then(false)` as soon as
        /// `shouldStop` says so, looked at every 10 ms. No thread is held
        /// meanwhile: each look is a timer on the global queue.
        func asynchronousWork(
            until end: DispatchTime, shouldStop: @escaping @Sendable () -> Bool,
            then: @escaping @Sendable (Bool) -> Void
        ) {
            if DispatchTime.now() >= end { return then(true) }
            if shouldStop() { return then(false) }
            DispatchQueue.global().asyncAfter(deadline: min(end, .now() + 0.01)) {
                asynchronousWork(until: end, shouldStop: shouldStop, then: then)
            }
        }

        // MARK: - Steps

        /// One operation of the scenario as GCD work: its work item, and a
        /// group entered until the work has ended, which its dependents and
        /// the end wait for. It ends once: when its work returned (or its
        /// asynchronous callback came), or, cancelled before it ran, when its
        /// queue reached it.
        final class Step: @unchecked Sendable {
            let name: String
            let done = DispatchGroup()
            /// Set once, before the step is submitted.
            var item: DispatchWorkItem!
            let started = StartRecord()
            /// Its queue's cap, when it has one, and the serial queue where a
            /// slot is waited for before the block is submitted.
            private let slots: DispatchSemaphore?
            private let gate: DispatchQueue?
            private let lock = NSLock()
            private var ended = false
            private var whole = false
            private var holdsSlot = false

            init(_ name: String, slots: DispatchSemaphore? = nil, gate: DispatchQueue? = nil) {
                self.name = name
                self.slots = slots
                self.gate = gate
                done.enter()
            }

            /// Gives its slot back, once: when its work has ended, or when a
            /// block that took one was cancelled before it ran.
            func giveSlot() {
                let held = lock.withLock { () -> Bool in
                    defer { holdsSlot = false }
                    return holdsSlot
                }
                if held { slots?.signal() }
            }

            /// Submits its item to `queue`: at once, or, for a capped queue, once
            /// a slot is free (waited for on the gate, not on a worker thread).
            func enqueue(to queue: DispatchQueue) {
                guard let slots, let gate else { return queue.async(execute: item) }
                gate.async {
                    slots.wait()
                    self.lock.withLock { self.holdsSlot = true }
                    queue.async(execute: self.item)
                }
            }

            /// Its work begins: `start NAME`.
            func began() { started.mark(name) }

            /// Its work returned: whole, or stopped early because it was cancelled.
            func ran(_ whole: Bool) {
                lock.withLock { self.whole = whole }
                say(whole ? "finish \(name)" : "stop \(name) (cancelled while it ran)")
            }

            /// Leaves its group, once.
            func end() {
                let first = lock.withLock { () -> Bool in
                    defer { ended = true }
                    return !ended
                }
                if first { done.leave() }
            }

            /// The item's notify: a block that never ran ends the step here, and
            /// gives back the slot it took.
            func endIfNeverRan() {
                guard started.startTime == nil else { return }
                giveSlot()
                end()
            }

            /// Submits its item to `queue` once every step of `after` has ended:
            /// until then it is in no queue.
            func submit(to queue: DispatchQueue, after steps: [Step] = []) {
                let waits = DispatchGroup()
                for step in steps {
                    waits.enter()
                    step.done.notify(queue: .global()) { waits.leave() }
                }
                waits.notify(queue: .global()) { self.enqueue(to: queue) }
            }

            /// How it ended, in opscope's four words, with why.
            var ending: (String, String) {
                let over = lock.withLock { ended }
                let ran = started.startTime != nil
                let cancelled = item.isCancelled
                if over && !ran { return ("skipped", "cancelled before it ran: its block never did") }
                if over { return lock.withLock { whole } || !cancelled ? ("finished", "") : ("cancelled", "cancelled while it ran") }
                if ran { return ("stuck", "its work never ended") }
                return ("stuck", "never submitted: a step it waits for never ended, or its queue never ran it")
            }
        }

        /// A queue's suspension: DispatchQueue.suspend() and resume() must
        /// balance (a resume too many stops the program), so a resume of a
        /// queue that is not suspended does nothing, as on an OperationQueue.
        final class QueueHold: @unchecked Sendable {
            private let queue: DispatchQueue
            private let lock = NSLock()
            private var suspended = false

            init(_ queue: DispatchQueue) { self.queue = queue }

            func suspend() {
                lock.withLock {
                    guard !suspended else { return }
                    suspended = true
                    queue.suspend()
                }
            }

            func resume() {
                lock.withLock {
                    guard suspended else { return }
                    suspended = false
                    queue.resume()
                }
            }
        }

        // MARK: - The end

        /// Serves the main queue on the main thread (its run loop) until every
        /// step has ended or `timeout` seconds have passed, then prints how each
        /// ended and exits. A thread of its own ends the program if the main
        /// thread is still blocked in a wait by then.
        func waitForTheSteps(_ steps: [Step], timeout: Double) -> Never {
            let deadline = Date().addingTimeInterval(timeout)
            let all = DispatchGroup()
            for step in steps {
                all.enter()
                step.done.notify(queue: .global()) { all.leave() }
            }
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: timeout + 1)
                say("the main thread is still blocked in a wait after \(timeout)s: it never returned")
                report(steps)
            }
            while all.wait(timeout: .now()) == .timedOut && Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
            }
            let over = all.wait(timeout: .now()) == .success
            say(over ? "the scenario is over" : "the scenario stalled: after \(timeout)s some work never ended")
            report(steps)
        }

        /// Prints each step's ending and exits.
        func report(_ steps: [Step]) -> Never {
            for step in steps {
                let (how, why) = step.ending
                print("  \(step.name): \(how)\(why.isEmpty ? "" : " (\(why))")")
            }
            exit(0)
        }
        """#
}
