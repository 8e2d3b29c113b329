/// What a queue's `maxConcurrentOperationCount` is and what it counts.
public enum CapRule {
    /// The value that lets the system decide.
    public static let systemDefault = -1

    /// The most operations that may hold a slot of a queue at once, from
    /// its `maxConcurrentOperationCount`: nil when the system decides (−1);
    /// 1 for `OperationQueue.main`, whatever it is asked.
    public static func limit(foundationValue: Int, isMainQueue: Bool = false) -> Int? {
        if isMainQueue { return 1 }
        return foundationValue < 0 ? nil : foundationValue
    }

    /// Whether a cap may be set to `value`: −1 (the system decides) or at
    /// least 1. Foundation stops the program below −1, and a cap of 0 would
    /// never run anything without a word.
    public static func accepts(_ value: Int) -> Bool { value == systemDefault || value >= 1 }

    /// The limit is 1: the queue runs one operation at a time, and an add
    /// does not ask an operation's QoS for its bucket (`PriorityRule.filing`).
    public static func isSerial(limit: Int?) -> Bool { limit == 1 }

    /// Whether an operation holds a slot of its queue: from the moment the
    /// queue hands it to its dispatch queue (also while it waits for a
    /// thread) until it finishes. An operation cancelled before it was
    /// dispatched is handed out too, and holds a slot until it finishes
    /// without running. Lowering the cap takes no slot back: what was
    /// dispatched still starts, above the new cap; a suspension takes none
    /// back either: what was dispatched starts while the queue is
    /// suspended. Probes `ramp`, `lower`, `suspend`, `cancelwaiting`.
    public static func holdsSlot(dispatched: Bool, finished: Bool) -> Bool { dispatched && !finished }

    /// How many may hold a slot after the cap was lowered from `before` to
    /// `limit` and `finishedSince` of those holding one then finished: the
    /// dispatched ones keep theirs (probe `lower`).
    public static func allowed(limit: Int?, before: Int?, finishedSince: Int) -> Int? {
        guard let limit else { return nil }
        guard let before else { return limit }
        return max(limit, before - finishedSince)
    }
}
