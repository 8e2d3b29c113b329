/// One broken rule of the event stream, found by `InvariantChecker`.
///
/// A value, like a diagnostic: the sequence number of the event where the
/// rule broke (0 when the rule concerns the stream as a whole and no event
/// can be blamed) and a lower-case message naming the operations and queues
/// involved, without a trailing period.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
    /// `LifecycleEvent.seq` of the offending event.
    public var seq: Int
    public var message: String

    public init(seq: Int, message: String) {
        self.seq = seq
        self.message = message
    }

    public var description: String { "seq \(seq): \(message)" }
}
