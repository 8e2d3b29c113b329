import Foundation

/// The status a command that hands the main thread to the main queue ends
/// with, once something on that queue decides it.
@MainActor
package final class CommandEnd {
    private var decided: ExitStatus?
    /// A request to stop that ends the command too, before what it decides.
    private let stop: StopRequest?

    /// `stoppedBy`: a command that takes no signals of its own ends with
    /// the process's stop request (`StopRequest.process`) once one came;
    /// one that does (a trace, the interface) ends only as it decides.
    package init(stoppedBy stop: StopRequest? = nil) {
        self.stop = stop
    }

    /// nil while the command goes on.
    package var status: ExitStatus? { stop?.status ?? decided }

    package var hasEnded: Bool { status != nil }

    /// Ends the command with `status`. The first call decides: blocks
    /// already queued behind the one that ended it (a late batch, a
    /// signal) still run before the main thread returns, and must find
    /// the command ended (`hasEnded`).
    package func end(_ status: ExitStatus) {
        guard decided == nil else { return }
        decided = status
    }
}

/// Hands the main thread over to the main dispatch queue.
package enum MainThread {
    /// Serves the main dispatch queue on the main thread until `end` has a
    /// status, and returns it.
    ///
    /// Not `dispatchMain()`: on Linux it parks the main thread and drains
    /// the main queue on a worker thread, so `OperationQueue.main`'s
    /// operations would not run on the main thread (`Thread.isMainThread`
    /// is false there). The main run loop drains the main queue on the main
    /// thread itself, sleeps while there is nothing to do, and returns
    /// after each drain, when the status is looked at.
    @MainActor
    package static func serve(until end: CommandEnd) -> ExitStatus {
        while true {
            if let status = end.status { return status }
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }
}
