import FoundationRules
import ScenarioKit

/// One reason an operation that has not started is not executing, for the
/// inspector. Several may hold at once (a suspended queue at its cap).
public enum NotRunningReason: Sendable, Hashable {
    /// Not yet added to its queue (an `add` action adds it later).
    case notAdded
    /// In no queue: only the main thread's `start()` by hand runs it (a
    /// `start` action names it), and none has run it yet.
    case startsByHand
    /// Dependencies (or, on its queue, a barrier ordering) not finished yet,
    /// in file order.
    case waitingFor([OperationID])
    /// Its queue is suspended (never said of the main queue, which ignores it).
    case queueSuspended(QueueID)
    /// Its queue's cap is taken: `executing` of its operations run and
    /// `dispatched` more were dispatched and wait for a thread.
    case queueAtCap(executing: Int, dispatched: Int, cap: ConcurrencyCap)
    /// `count` ready operations of its queue will get the free slots first:
    /// a higher bucket, or the same bucket added earlier. `bucket` is the
    /// one it is filed under; `fromQoS` says its QoS chose that bucket
    /// because it has no explicit priority (docs/SCENARIO-LANGUAGE.md), which the inspector should say.
    case behindHigherPriority(count: Int, bucket: PriorityLevel, fromQoS: Bool)
    /// Its queue dispatched it (observed: its `dispatched` event) and no
    /// thread has called its `start()` yet: the worker threads are all
    /// busy (docs/SCENARIO-LANGUAGE.md), or, on the main
    /// queue, the main thread is.
    case dispatchedWaitingForThread
    /// Its queue dispatched it (observed) while the barrier `barrier` of its
    /// queue runs (observed): it was added after Foundation had dispatched
    /// that barrier, so it waits on the queue's dispatch queue until the
    /// barrier's block returns (a dispatch barrier holds what comes after
    /// it; checked with plain Foundation, `.ci/probes` "barrier").
    case dispatchedBehindBarrier(OperationID)

    /// Dispatched, and not started yet: either dispatched reason.
    public var isDispatched: Bool {
        switch self {
        case .dispatchedWaitingForThread, .dispatchedBehindBarrier: true
        default: false
        }
    }
}
