import Foundation

// A right answer to opscope's kata "cancellable-task".

class JobOperation: Operation, @unchecked Sendable {
    let seconds: Double
    private let lock = NSLock()
    private var job: SlowJob?
    private var executing = false
    private var finished = false

    init(seconds: Double) {
        self.seconds = seconds
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
        let job = SlowJob(seconds: seconds) { [weak self] _ in self?.finish() }
        lock.withLock { self.job = job }
        job.resume()
        // A cancel that came before the job was kept found nothing to cancel.
        if isCancelled { job.cancel() }
    }

    override func cancel() {
        super.cancel()
        lock.withLock { job }?.cancel()
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
