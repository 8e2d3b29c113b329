/// A one-line message under the board ("OperationQueue.main ignores
/// isSuspended"), shown until `expiresAt` (real seconds, see
/// `FrameInput.wallClock`).
public struct TransientMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// What a key did ("cancelled fetch while it runs: …").
        case info
        /// Why a key did nothing ("cannot cancel save: it already finished").
        case refusal
    }

    public var text: String
    public var kind: Kind
    public var expiresAt: Double

    /// How long a message stays, in real seconds.
    public static let lifetime = 4.0

    public init(_ text: String, kind: Kind = .info, expiresAt: Double) {
        self.text = text
        self.kind = kind
        self.expiresAt = expiresAt
    }
}
