import Foundation

// A right answer to `opscope kata group-operation`.

class GroupOperation: Operation, @unchecked Sendable {
    private let children: [Operation]
    private let queue = OperationQueue()
    private let lock = NSLock()
    private var executing = false
    private var finished = false

    init(children: [Operation]) {
        self.children = children
        super.init()
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    private func set(executing e: Bool, finished f: Bool) {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock { (executing, finished) = (e, f) }
        didChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
    }

    override func start() {
        if isCancelled {
            set(executing: false, finished: true)
            return
        }
        set(executing: true, finished: false)
        let done = BlockOperation { [weak self] in self?.finish() }
        for child in children { done.addDependency(child) }
        queue.addOperations(children + [done], waitUntilFinished: false)
    }

    override func cancel() {
        super.cancel()
        for child in children { child.cancel() }
    }

    private func finish() {
        let first = lock.withLock { () -> Bool in !finished }
        if first { set(executing: false, finished: true) }
    }
}
