import Foundation

// A wrong answer to `opscope kata group-operation`: main() waits for the children, holding its thread.

class GroupOperation: Operation, @unchecked Sendable {
    private let children: [Operation]
    init(children: [Operation]) {
        self.children = children
        super.init()
    }
    override func main() {
        let queue = OperationQueue()
        queue.addOperations(children, waitUntilFinished: true)
    }
}
