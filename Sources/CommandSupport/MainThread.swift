import Foundation

/// Hands the main thread over to the main dispatch queue for good.
package enum MainThread {
    /// Serves the main dispatch queue on the main thread until the process
    /// exits.
    ///
    /// Not `dispatchMain()`: on Linux it parks the main thread and drains
    /// the main queue on a worker thread, so `OperationQueue.main`'s
    /// operations would not run on the main thread (`Thread.isMainThread`
    /// is false there). The main run loop drains the main queue on the main
    /// thread itself, and sleeps while there is nothing to do.
    package static func serveForever() -> Never {
        while true {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }
}
