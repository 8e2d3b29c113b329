/// The column an operation card sits in.
///
/// Derived from the four observed flags and whether the operation was added
/// to its queue yet; `finished` and `cancelled` are final (an operation that
/// finished with `isCancelled` true ends in `cancelled`, whether it was
/// skipped or cancelled while it ran).
public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// Not yet in its queue (an `add` action will add it later).
    case notAdded
    /// In its queue, waiting for dependencies (`isReady` false).
    case pending
    /// `isReady` true, not started.
    case ready
    /// `isExecuting` true.
    case executing
    /// `isFinished` true, not cancelled.
    case finished
    /// `isFinished` true with `isCancelled` true.
    case cancelled

    /// The five columns of the board, left to right (`notAdded` has none).
    public static let columns: [Phase] = [.pending, .ready, .executing, .finished, .cancelled]
}
