extension Kata {
    /// The program that runs `group-operation`'s checks (its `main.swift`),
    /// compiled with the user's file. The children are the harness's own
    /// `BlockOperation`s, each noting when it started and ended and whether
    /// it saw a cancel; the group's `start()` is timed through a subclass.
    static let groupOperationHarness = #"""
        import Foundation

        // The checks of opscope's kata "group-operation", run on this Foundation's
        // own OperationQueue against the file's `GroupOperation`. Each check prints
        // one line, "opscope-kata " and a JSON object, once it is decided.

        /// A child of `seconds` that notes its start and end, and stops early,
        /// noting it, when cancelled.
        func kataChild(_ name: String, _ seconds: Double, _ log: KataLog) -> BlockOperation {
            let child = BlockOperation()
            child.addExecutionBlock { [unowned child] in
                log.note("\(name) started")
                let end = kataSeconds() + seconds
                while kataSeconds() < end {
                    if child.isCancelled {
                        log.note("\(name) saw the cancel")
                        return
                    }
                    usleep(1000)
                }
                log.note("\(name) ended")
            }
            return child
        }

        /// A group's start() timed: a subclass of the file's class.
        final class KataGroup: GroupOperation, @unchecked Sendable {
            private let kataLock = NSLock()
            private var startTook: Double?
            override func start() {
                let began = kataSeconds()
                super.start()
                let took = kataSeconds() - began
                kataLock.withLock { startTook = took }
            }
            var startDuration: Double? { kataLock.withLock { startTook } }
        }

        // 1. Five children (0.1-0.5 s): a dependent of the group starts only once
        // every child ended; the group's start() does not wait for them.
        do {
            let start = kataSeconds()
            let log = KataLog()
            let children = (1...5).map { kataChild("c\($0)", Double($0) * 0.1, log) }
            let group = KataGroup(children: children)
            let dependent = BlockOperation { log.note("dependent started") }
            dependent.addDependency(group)
            OperationQueue().addOperations([group, dependent], waitUntilFinished: false)
            let ran = kataWait(5) { log["dependent started"] != nil }
            let lastChild = (1...5).compactMap { log["c\($0) ended"] }.max()
            if let took = group.startDuration, took >= 0.3 {
                kataReport("afterChildren", "startWaits", at: took)
            } else if !ran {
                kataReport("afterChildren", group.isFinished ? "notTold" : "neverFinished", at: kataSeconds(), since: start)
            } else if let at = log["dependent started"], let last = lastChild,
                (1...5).allSatisfy({ log["c\($0) ended"] != nil }), at >= last
            {
                kataReport("afterChildren", "pass", at: at, since: start)
            } else {
                let unended = (1...5).filter { log["c\($0) ended"] == nil }.count
                kataReport("afterChildren", "early", at: log["dependent started"], since: start, count: unended)
            }
        }

        // 2. No children: it finishes at once.
        do {
            let start = kataSeconds()
            let group = KataGroup(children: [])
            let dependent = BlockOperation {}
            dependent.addDependency(group)
            OperationQueue().addOperations([group, dependent], waitUntilFinished: false)
            if kataWait(2, { dependent.isFinished }) {
                kataReport("empty", "pass", at: kataSeconds(), since: start)
            } else {
                kataReport("empty", group.isFinished ? "notTold" : "neverFinished", at: kataSeconds(), since: start)
            }
        }

        // 3. Cancelled 0.2 s after it started, with children of 2 s and one that
        // waits on another: the running see the cancel, the waiting never start,
        // and the group finishes within a second.
        do {
            let log = KataLog()
            let first = kataChild("a", 2, log)
            let second = kataChild("b", 2, log)
            let after = kataChild("late", 0.1, log)
            after.addDependency(first)
            let group = KataGroup(children: [first, second, after])
            let dependent = BlockOperation { log.note("dependent started") }
            dependent.addDependency(group)
            OperationQueue().addOperations([group, dependent], waitUntilFinished: false)
            if !kataWait(3, { log["a started"] != nil }) {
                kataReport("cancel", "neverStarted")
            } else {
                usleep(200_000)
                let cancelAt = kataSeconds()
                group.cancel()
                let ran = kataWait(5) { log["dependent started"] != nil }
                if log["late started"] != nil {
                    kataReport("cancel", "waitingStarted")
                } else if log["a saw the cancel"] == nil || log["b saw the cancel"] == nil {
                    kataReport("cancel", "childrenNotCancelled")
                } else if !ran {
                    kataReport("cancel", group.isFinished ? "notTold" : "neverFinished", at: kataSeconds(), since: cancelAt)
                } else if let at = log["dependent started"], at - cancelAt <= 1 {
                    kataReport("cancel", "pass", at: at, since: cancelAt)
                } else {
                    kataReport("cancel", "slow", at: log["dependent started"], since: cancelAt)
                }
            }
        }

        // 4. Nothing keeps it alive once its queue is done with it.
        do {
            weak var released: GroupOperation?
            var drained = false
            do {
                let queue = OperationQueue()
                let group = GroupOperation(children: [BlockOperation {}])
                released = group
                queue.addOperation(group)
                drained = kataWait(3) { queue.operationCount == 0 }
            }
            if !drained {
                kataReport("released", "neverFinished")
            } else if kataWait(2, { released == nil }) {
                kataReport("released", "pass")
            } else {
                kataReport("released", "alive")
            }
        }

        """#
}
