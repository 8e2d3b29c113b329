import RunEvents

/// The run's stream as it is recorded: each event stamped with the next
/// sequence number, in one total order. A plain value; the run's shell
/// keeps it under its lock. Once closed (the run ended or was stopped)
/// nothing more is recorded.
struct EventLog {
    private(set) var events: [LifecycleEvent] = []
    private(set) var seq = 0
    private(set) var isClosed = false
    /// How many events the consumer has taken (`takeNew()`).
    private(set) var taken = 0

    /// `capacity`: events to reserve room for, so that a large run's log is
    /// not copied while operations wait for the lock.
    init(capacity: Int) {
        events.reserveCapacity(capacity)
    }

    @inline(__always) mutating func append(_ kind: LifecycleEvent.Kind, at t: Double, thread: ThreadTag? = nil) {
        if isClosed { return }
        seq &+= 1
        events.append(LifecycleEvent(seq: seq, time: t, kind: kind, thread: thread))
    }

    mutating func close() { isClosed = true }

    /// Events recorded and not taken yet.
    var hasNew: Bool { taken < events.count }

    /// Removes and returns the events recorded since the last call.
    mutating func takeNew() -> [LifecycleEvent] {
        guard taken < events.count else { return [] }
        let out = Array(events[taken...])
        taken = events.count
        return out
    }
}
