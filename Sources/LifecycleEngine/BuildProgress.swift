import TextKit

/// How far a run's start is in handing its operations to Foundation (each
/// made, given its dependencies and added): a million take seconds, which
/// a terminal shows as they go.
public struct BuildProgress: Sendable, Hashable {
    /// Operations handed over so far.
    public var handedOver: Int
    /// Operations the start adds (those no `add` action adds later).
    public var total: Int

    public init(handedOver: Int, total: Int) {
        self.handedOver = handedOver
        self.total = total
    }

    public var isComplete: Bool { handedOver >= total }

    /// Whole percent done: 100 only once complete.
    public var percent: Int {
        guard total > 0, !isComplete else { return 100 }
        return min(99, max(0, handedOver) * 100 / total)
    }

    /// `building 2,550,000 operations… 40%`.
    public var text: String {
        "building \(Spelling.grouped(total)) operations\u{2026} \(percent)%"
    }
}
