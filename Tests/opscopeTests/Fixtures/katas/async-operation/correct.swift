import Foundation

// A right answer to `opscope kata async-operation`.
class AsyncDownload: Operation, @unchecked Sendable {
    let seconds: Double
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private var work: DispatchWorkItem?

    init(seconds: Double) {
        self.seconds = seconds
        super.init()
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    private func set(executing newExecuting: Bool, finished newFinished: Bool) {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock {
            executing = newExecuting
            finished = newFinished
        }
        didChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
    }

    override func start() {
        if isCancelled {
            set(executing: false, finished: true)
            return
        }
        set(executing: true, finished: false)
        let item = DispatchWorkItem { [weak self] in self?.finish() }
        lock.withLock { work = item }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    override func cancel() {
        super.cancel()
        let (item, running) = lock.withLock { (work, executing) }
        if running {
            item?.cancel()
            finish()
        }
    }

    /// Finishes once, whoever comes first: the work's end or a cancel.
    private func finish() {
        let first = lock.withLock { () -> Bool in
            guard !finished, executing else { return false }
            return true
        }
        if first { set(executing: false, finished: true) }
    }
}
