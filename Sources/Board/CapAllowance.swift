import FoundationRules
import ScenarioKit

/// How many operations of one queue may hold a slot of its cap at once, as
/// far as the event stream can tell.
///
/// An operation holds a slot from its dispatch (its `dispatched` event, or
/// its start in a stream without them) until its `isFinished`: Foundation
/// counts it against the cap from the moment it hands it to its dispatch
/// queue, also while it waits for a thread, and it never takes a dispatch
/// back. Lowering the cap stops nothing that was dispatched: those still
/// start once a thread is free, above the new cap, and only when enough of
/// them finished does the queue dispatch again (docs/SCENARIO-LANGUAGE.md, "For
/// facts"). So after a lowering from `a` to `b` up to `max(b, a − finishes
/// since the lowering)` operations may hold a slot. The main queue is
/// serial whatever its events say.
struct CapAllowance: Sendable, Hashable {
    let isMain: Bool
    /// The cap in force; nil is "the system decides" (no limit in the stream).
    private(set) var cap: Int?
    /// What was allowed just before the last change of the cap.
    private var overhang: Int?
    private var finishesSinceChange = 0
    /// The queue's operations holding a slot now, in the order they took it.
    private(set) var holding: [OperationID] = []

    init(spec: QueueSpec) {
        isMain = spec.isMain
        cap = CapRule.limit(foundationValue: spec.cap.foundationValue, isMainQueue: spec.isMain)
    }

    /// The most operations that may hold a slot now (`CapRule.allowed`);
    /// nil when unlimited.
    var allowed: Int? {
        if isMain { return 1 }
        return CapRule.allowed(limit: cap, before: overhang, finishedSince: finishesSinceChange)
    }

    /// A change of `maxConcurrentOperationCount`. An unlimited queue may
    /// have dispatched all it holds now and all its ready operations.
    mutating func setCap(_ foundationValue: Int, dispatchable: Int) {
        guard !isMain else { return }
        overhang = allowed ?? (holding.count + dispatchable)
        finishesSinceChange = 0
        cap = CapRule.limit(foundationValue: foundationValue)
    }

    /// `op` takes a slot (once; a second call does nothing); returns true
    /// when that holds more than is allowed.
    mutating func take(_ op: OperationID) -> Bool {
        guard !holding.contains(op) else { return false }
        holding.append(op)
        guard let allowed else { return false }
        return holding.count > allowed
    }

    /// `op` finished: its slot is free.
    mutating func finish(_ op: OperationID) {
        guard let i = holding.firstIndex(of: op) else { return }
        holding.remove(at: i)
        finishesSinceChange += 1
    }
}
