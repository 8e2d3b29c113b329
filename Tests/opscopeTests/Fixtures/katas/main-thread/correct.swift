import Foundation

// A right answer to opscope's kata "main-thread".

class MainThreadOperation: Operation, @unchecked Sendable {
    private let work: () -> Void
    private let lock = NSLock()
    private var executing = false
    private var finished = false

    init(work: @escaping () -> Void) {
        self.work = work
        super.init()
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        if isCancelled {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.main.async { [self] in
            // A cancel may have come on the way here.
            if !isCancelled { work() }
            finish()
        }
    }

    private func finish() {
        let wasExecuting = lock.withLock { executing }
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        willChangeValue(forKey: "isFinished")
        lock.withLock {
            executing = false
            finished = true
        }
        didChangeValue(forKey: "isFinished")
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
    }
}
