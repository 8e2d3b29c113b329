import Foundation

/// A synchronous operation that works for three seconds, a step at a time,
/// and stops at the first step after a cancel: time enough to act on it
/// from the board.
class Crawl: Operation, @unchecked Sendable {
    override func main() {
        for _ in 0..<60 {
            if isCancelled { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}

/// A synchronous operation that prints as it works: its lines are the
/// user's, never a line of the run's recording.
class Chatty: Operation, @unchecked Sendable {
    override func main() {
        print("hello from main()")
        print("{\"kind\":\"not a line of the recording\"}")
    }
}
