import Foundation

// A wrong answer to `opscope kata result-passing`: the doubler takes its
// producer's result for granted, and a cancelled producer made none.
class Producer: Operation, @unchecked Sendable {
    let value: Int
    private let lock = NSLock()
    private var stored: Int?
    var result: Int? { lock.withLock { stored } }

    init(value: Int) {
        self.value = value
        super.init()
    }

    override func main() {
        if isCancelled { return }
        lock.withLock { stored = value }
    }
}

class Doubler: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    var result: Int? { lock.withLock { stored } }

    override func main() {
        let producer = dependencies.first as! Producer
        let input = producer.result!
        lock.withLock { stored = 2 * input }
    }
}
