import Foundation

/// Sets its flag when its work ends, but never tells Foundation: no
/// willChangeValue/didChangeValue(forKey: "isFinished").
class ForgetsToTell: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var executing = false
    private var finished = false

    override var isAsynchronous: Bool { true }

    override var isExecuting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return executing
    }

    override var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        lock.lock()
        executing = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            self.lock.lock()
            self.executing = false
            self.finished = true
            self.lock.unlock()
        }
    }
}

/// Stops the program with Foundation's own fatal error: it starts by hand
/// an operation that waits for another.
class StartsTooSoon: Operation, @unchecked Sendable {
    override func main() {
        Thread.sleep(forTimeInterval: 0.2)
        let first = BlockOperation {}
        let second = BlockOperation {}
        second.addDependency(first)
        second.start()
    }
}

/// Never looks at isCancelled: cancelled before it starts, it goes
/// executing and does its work all the same (then finishes properly).
class IgnoresEarlyCancel: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var executing = false
    private var finished = false

    override var isAsynchronous: Bool { true }

    override var isExecuting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return executing
    }

    override var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        lock.lock()
        executing = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            self.willChangeValue(forKey: "isFinished")
            self.willChangeValue(forKey: "isExecuting")
            self.lock.lock()
            self.executing = false
            self.finished = true
            self.lock.unlock()
            self.didChangeValue(forKey: "isExecuting")
            self.didChangeValue(forKey: "isFinished")
        }
    }
}
