/// The fixed parts of the programs `SwiftProgramPrinter` writes for
/// barriers: the barrier itself and, for a queue whose barriers a
/// cancel-all may cancel, what sees such a barrier really finish.
extension SwiftProgramPrinter {
    static let barrier = #"""
        /// A barrier (`addBarrierBlock`): its block runs once everything added
        /// to the queue before it has finished, alone, and everything added
        /// after it waits for it. `addBarrierBlock` gives no `Operation` to
        /// depend on, so when another operation must wait for the barrier it
        /// depends on `done`: an operation that is never added to a queue and
        /// that the barrier starts by hand when it is over.
        ///
        /// `cancelAllOperations()` cancels a barrier whose block has not begun:
        /// the block never runs, and the barrier is over only when Foundation
        /// finishes it (`finishCancelled`).
        final class Barrier: Reported, @unchecked Sendable {
            private enum State { case notAdded, waiting, running, over }

            let name: String
            let seconds: Double
            let done: Operation?
            private let lock = NSLock()
            private var state = State.notAdded
            private var cancelled = false
            private var began: Double?

            init(_ name: String, seconds: Double, done: Operation? = nil) {
                self.name = name
                self.seconds = seconds
                self.done = done
            }

            /// `queue.addBarrierBlock` with this barrier's block.
            func add(to queue: OperationQueue) {
                lock.lock()
                state = .waiting
                lock.unlock()
                queue.addBarrierBlock { self.run() }
            }

            private func run() {
                let now = Clock.now
                lock.lock()
                // Over already: cancelled, and Foundation finished it.
                guard state == .waiting else {
                    lock.unlock()
                    return
                }
                state = .running
                began = now
                lock.unlock()
                say("start \(name) (barrier)", at: now)
                _ = simulateWork(seconds: seconds)
                say("finish \(name)")
                lock.lock()
                state = .over
                lock.unlock()
                done?.start()
            }

            /// Marks the barrier cancelled if it waits (added, its block not
            /// begun), as `cancelAllOperations()` is about to; true if it did.
            func cancelIfWaiting() -> Bool {
                lock.lock()
                defer { lock.unlock() }
                guard state == .waiting && !cancelled else { return false }
                cancelled = true
                return true
            }

            /// Cancelled, and not finished yet.
            var awaitsItsFinish: Bool {
                lock.lock()
                defer { lock.unlock() }
                return cancelled && state == .waiting
            }

            /// Foundation finished the cancelled barrier without running its block.
            func finishCancelled() {
                lock.lock()
                guard state == .waiting else {
                    lock.unlock()
                    return
                }
                state = .over
                lock.unlock()
                say("\(name) is over without running: it was cancelled")
                done?.start()
            }

            var reportedName: String { name }

            var isOver: Bool {
                lock.lock()
                defer { lock.unlock() }
                return state == .over
            }

            var startTime: Double? {
                lock.lock()
                defer { lock.unlock() }
                return began
            }

            var ending: (Ending, String) {
                lock.lock()
                defer { lock.unlock() }
                switch (state, cancelled) {
                case (.over, false): return (.finished, "")
                case (.over, true) where began != nil: return (.cancelled, "cancelled while its block ran")
                case (.over, true): return (.skipped, "cancelled before its block began: it never ran")
                case (.waiting, true): return (.skipped, "cancelled, but its queue never finished it")
                case (.running, _): return (.stuck, "its block never returned")
                case (.waiting, false): return (.stuck, "what it waits for never finished")
                case (.notAdded, _): return (.stuck, "it was never added to its queue")
                }
            }
        }
        """#

    static let barrierCancellation = #"""
        /// A queue whose barriers a cancel-all may cancel. Foundation finishes
        /// a cancelled barrier only when the queue dispatches it: as a dispatch
        /// barrier on the dispatch queue the queue runs its operations on,
        /// behind every block already dispatched there, that is the operations
        /// still running (cancelled or not, until they return). Until then the
        /// barrier is not over, and what waits for it waits. A dispatch barrier
        /// of the program's own, put on that dispatch queue just before
        /// Foundation's, runs at that very moment: there the barrier is over.
        /// On a suspended queue that moment comes with the resume.
        final class BarrierCancellation: @unchecked Sendable {
            let queue: OperationQueue
            let barriers: [Barrier]
            /// Foundation names it nowhere in public: swift-corelibs-foundation
            /// keeps it in its `__backingQueue`, read here (only read) with
            /// Mirror. Nil on a Foundation without it.
            private let dispatchQueue: DispatchQueue?

            init(_ queue: OperationQueue, barriers: [Barrier]) {
                self.queue = queue
                self.barriers = barriers
                // An empty barrier block on the still empty queue goes straight to
                // that dispatch queue, which Foundation makes for it now.
                queue.addBarrierBlock {}
                var mirror: Mirror? = Mirror(reflecting: queue)
                var found: DispatchQueue?
                while let m = mirror, found == nil {
                    found = m.children.first { $0.label == "__backingQueue" }?.value as? DispatchQueue
                    mirror = m.superclassMirror
                }
                dispatchQueue = found
            }

            /// `queue.cancelAllOperations()`: cancel() on each operation still in
            /// the queue, waiting barriers included.
            func cancelAllOperations() {
                let cancelled = barriers.filter { $0.cancelIfWaiting() }
                if !queue.isSuspended { watch(cancelled) }
                queue.cancelAllOperations()
            }

            /// `queue.isSuspended = false`.
            func resume() {
                if queue.isSuspended { watch(barriers.filter(\.awaitsItsFinish)) }
                queue.isSuspended = false
            }

            private func watch(_ cancelled: [Barrier]) {
                for barrier in cancelled {
                    if let dispatchQueue {
                        dispatchQueue.async(flags: .barrier) { barrier.finishCancelled() }
                    } else {
                        // No way to see the moment here: say it is now.
                        barrier.finishCancelled()
                    }
                }
            }
        }
        """#
}
