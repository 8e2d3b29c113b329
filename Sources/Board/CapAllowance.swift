import ScenarioKit

/// How many operations of one queue may be executing at once, as far as
/// the event stream can tell.
///
/// Foundation never stops running operations when the cap is lowered, and
/// it may already have handed up to the old cap's worth of operations to
/// dispatch (they wait for a worker thread, see ENGINE-NOTES.md "The
/// thread pool ramps slowly"). So after a lowering from `a` to `b` up to
/// `max(b, a − stops since the lowering)` operations may execute, where a
/// stop is an executing operation leaving the executing state. The main
/// queue is serial whatever its events say.
struct CapAllowance: Sendable, Hashable {
    let isMain: Bool
    /// The cap in force; nil is "the system decides" (no limit in the stream).
    private(set) var cap: Int?
    /// What was allowed just before the last change of the cap.
    private var overhang: Int?
    private var stopsSinceChange = 0
    /// The queue's operations executing now, in the order they started.
    private(set) var executing: [OperationID] = []

    init(spec: QueueSpec) {
        isMain = spec.isMain
        cap = spec.isMain ? 1 : Self.capValue(spec.cap.foundationValue)
    }

    /// Foundation's `maxConcurrentOperationCount` (−1 is the default) as a limit.
    static func capValue(_ foundationValue: Int) -> Int? {
        foundationValue < 0 ? nil : foundationValue
    }

    /// The most operations that may be executing now; nil when unlimited.
    var allowed: Int? {
        if isMain { return 1 }
        guard let cap else { return nil }
        guard let overhang else { return cap }
        return max(cap, overhang - stopsSinceChange)
    }

    /// A change of `maxConcurrentOperationCount`. `dispatchable` bounds what
    /// an unlimited queue may have dispatched already: its executing plus
    /// its ready, not started operations.
    mutating func setCap(_ foundationValue: Int, dispatchable: Int) {
        guard !isMain else { return }
        overhang = allowed ?? dispatchable
        stopsSinceChange = 0
        cap = Self.capValue(foundationValue)
    }

    /// Records a start; returns true when it exceeds what is allowed.
    mutating func start(_ op: OperationID) -> Bool {
        executing.append(op)
        guard let allowed else { return false }
        return executing.count > allowed
    }

    /// Records that `op` is no longer executing (it stopped or finished).
    mutating func stop(_ op: OperationID) {
        guard let i = executing.firstIndex(of: op) else { return }
        executing.remove(at: i)
        stopsSinceChange += 1
    }
}
