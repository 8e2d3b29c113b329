/// `Operation.QueuePriority` as the scenario language spells it.
///
/// Kept free of Foundation so every module that reasons about a run stays
/// pure; the engine maps each case to the real `Operation.QueuePriority`.
public enum PriorityLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    case veryLow
    case low
    case normal
    case high
    case veryHigh

    /// What "bucket" means, said where a text first uses the word: a queue
    /// orders its ready operations by priority level (barriers before
    /// all), and within a level by the order they entered it
    /// (ENGINE-NOTES, Scheduling).
    public static let bucketGloss =
        "a bucket: the ready operations of one queuePriority; the highest bucket starts first, each in the order added"

    /// Foundation's raw value (`veryLow` is −8 … `veryHigh` is 8).
    public var rawPriority: Int {
        switch self {
        case .veryLow: -8
        case .low: -4
        case .normal: 0
        case .high: 4
        case .veryHigh: 8
        }
    }

    public static func < (lhs: PriorityLevel, rhs: PriorityLevel) -> Bool {
        lhs.rawPriority < rhs.rawPriority
    }
}

/// `QualityOfService` as the scenario language spells it.
public enum QoSLevel: String, Sendable, Hashable, CaseIterable {
    case userInteractive
    case userInitiated
    case `default`
    case utility
    case background

    /// The priority bucket swift-corelibs-foundation files an operation
    /// under when it has no explicit `queuePriority` and its queue's cap is
    /// not 1 when it is added (`PriorityRule.filing` says when).
    public var impliedPriority: PriorityLevel {
        switch self {
        case .userInteractive: .veryHigh
        case .userInitiated: .high
        case .default: .normal
        case .utility: .low
        case .background: .veryLow
        }
    }
}
