import Dispatch

/// Values a read of a large file is done with, freed on another thread.
///
/// The syntax tree and the validator's tables of 100,000 operations take
/// some 10 ms to free, each element in turn; before a run nothing else
/// uses the second core, and the reader's caller need not wait for it.
enum ReleaseLater {
    /// Files with this many operations or more are freed in the background.
    static let fromOperations = 4096

    static func release(_ value: some Sendable, operations: Int) {
        guard operations >= fromOperations else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }
}
