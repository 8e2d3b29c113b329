import Foundation

// Wrong: main() waits for the main thread with DispatchQueue.main.sync. On a
// background queue the work runs on the main thread, but a cancel that comes
// while it waits is never looked at, and on OperationQueue.main the sync
// waits for the very thread it runs on.

class MainThreadOperation: Operation, @unchecked Sendable {
    let work: () -> Void

    init(work: @escaping () -> Void) {
        self.work = work
        super.init()
    }

    override func main() {
        DispatchQueue.main.sync { work() }
    }
}
