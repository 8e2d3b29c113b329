/// One of the lists a queue keeps its ready operations in: barriers, then
/// one per priority. `_schedule` walks them in this order, and each in the
/// order operations were filed there.
public enum DispatchBucket: Int, Sendable, Hashable, CaseIterable, Comparable {
    case barrier, veryHigh, high, normal, low, veryLow

    public init(_ level: PriorityLevel) {
        switch level {
        case .veryHigh: self = .veryHigh
        case .high: self = .high
        case .normal: self = .normal
        case .low: self = .low
        case .veryLow: self = .veryLow
        }
    }

    /// Its priority; nil for the barriers' list.
    public var level: PriorityLevel? {
        switch self {
        case .barrier: nil
        case .veryHigh: .veryHigh
        case .high: .high
        case .normal: .normal
        case .low: .low
        case .veryLow: .veryLow
        }
    }

    /// Earlier in the walk: the queue looks here first.
    public static func < (lhs: DispatchBucket, rhs: DispatchBucket) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which ready operation a queue hands out next, and when it may.
public enum DispatchRule {
    /// A ready operation's place in its queue's walk: its bucket, and when
    /// it was filed there (any number that grows with each filing; a
    /// priority change that moves it files it again).
    public struct Place: Sendable, Hashable {
        public var bucket: DispatchBucket
        public var filed: Int

        public init(bucket: DispatchBucket, filed: Int) {
            self.bucket = bucket
            self.filed = filed
        }
    }

    /// Whether a queue dispatches `a` before `b`, both ready: the earlier
    /// bucket, then the one filed there first. Priority orders only what is
    /// ready: it never overtakes a dependency. Probes `batch` and
    /// `onebyone` (the order of a batch and of single adds), `batchbusy`
    /// (behind a running operation), `serial` and `mainq` (one at a time).
    public static func precedes(_ a: Place, _ b: Place) -> Bool {
        a.bucket != b.bucket ? a.bucket < b.bucket : a.filed < b.filed
    }

    /// Whether a queue may hand out one more ready operation: it is not
    /// suspended, and fewer than its limit hold a slot (`CapRule.holdsSlot`).
    /// Probes `ramp` (a cap of 4 hands out 4 at once), `suspend` (a
    /// suspended queue hands out nothing more) and `capraise`.
    public static func mayDispatch(holding: Int, limit: Int?, suspended: Bool) -> Bool {
        guard !suspended else { return false }
        guard let limit else { return true }
        return holding < limit
    }
}
