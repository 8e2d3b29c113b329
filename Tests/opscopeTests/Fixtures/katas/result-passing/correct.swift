import Foundation

// A right answer to `opscope kata result-passing`.

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
        guard !isCancelled, let input = dependencies.compactMap({ ($0 as? Producer)?.result }).first else { return }
        lock.withLock { stored = 2 * input }
    }
}
