import Foundation

/// An asynchronous operation written the usual way: start() begins work
/// on another thread and returns; the work's end finishes it, telling
/// Foundation with willChangeValue/didChangeValue for both flags.
class Download: Operation, @unchecked Sendable {
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
        if isCancelled {
            finish(wasExecuting: false)
            return
        }
        willChangeValue(forKey: "isExecuting")
        lock.lock()
        executing = true
        lock.unlock()
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { self.finish(wasExecuting: true) }
    }

    private func finish(wasExecuting: Bool) {
        willChangeValue(forKey: "isFinished")
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        lock.lock()
        executing = false
        finished = true
        lock.unlock()
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}

/// A synchronous operation: Foundation's start() runs main() and finishes it.
class Parse: Operation, @unchecked Sendable {
    override func main() {
        guard !isCancelled else { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
}
