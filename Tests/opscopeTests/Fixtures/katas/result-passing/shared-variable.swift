import Foundation

// A wrong answer to `opscope kata result-passing`: the value goes through a
// shared variable, not through the dependency.
nonisolated(unsafe) var lastProduced: Int?
let lastProducedLock = NSLock()

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
        lock.withLock { stored = value }
        lastProducedLock.withLock { lastProduced = value }
    }
}

class Doubler: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    var result: Int? { lock.withLock { stored } }

    override func main() {
        guard let input = lastProducedLock.withLock({ lastProduced }) else { return }
        lock.withLock { stored = 2 * input }
    }
}
