/// Asked now and then, by a read of a file, whether the read is still
/// wanted: `--watch` gives up the read of a save once a newer save came,
/// so that a file of millions of lines does not hold up the small one
/// saved over it.
///
/// The read looks at it between statements (every `statementsBetween`)
/// and between the validator's passes, so a read given up stops within a
/// few thousand statements' work, however large the file.
public struct ReadCancellation: Sendable {
    private let cancelled: @Sendable () -> Bool

    /// `cancelled` is called from the reading threads (two, for a large
    /// file), and must be cheap: an atomic load.
    public init(_ cancelled: @escaping @Sendable () -> Bool) {
        self.cancelled = cancelled
    }

    public var isCancelled: Bool { cancelled() }

    /// Statements (or operations, in the validator's passes) between two
    /// looks.
    static let statementsBetween = 4096

    /// Bytes between two looks in a pass over the raw file.
    static let bytesBetween = 1 << 20
}

extension ReadCancellation? {
    /// Whether a read with this cancellation (none: never) is given up.
    var isCancelled: Bool { self?.isCancelled ?? false }
}
