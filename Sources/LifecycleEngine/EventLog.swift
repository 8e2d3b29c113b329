import RunEvents

/// The run's stream as it is recorded: each event stamped with the next
/// sequence number, in one total order. A plain value; the run's shell
/// keeps it under its lock. Once closed (the run ended or was stopped)
/// nothing more is recorded.
///
/// A log that keeps its history holds every event for the whole run (the
/// interface steps back through it). One that does not lets go of the
/// events its consumer took, so a run that is only printed (`trace`) holds
/// no more than what was recorded since the last take.
struct EventLog {
    /// The events held: all of them, or (without history) those not taken.
    private(set) var events: [LifecycleEvent] = []
    private(set) var seq = 0
    /// Scenario time of the last event recorded (0 before any).
    private(set) var lastTime = 0.0
    private(set) var isClosed = false
    /// How many events the consumer has taken (`takeNew()`).
    private(set) var taken = 0
    /// Events let go of: `events[0]` is the event numbered `dropped` (0-based).
    private var dropped = 0
    let keepsHistory: Bool

    /// `capacity`: events to reserve room for, so that a large run's log is
    /// not copied while operations wait for the lock.
    init(capacity: Int, keepsHistory: Bool = true) {
        self.keepsHistory = keepsHistory
        events.reserveCapacity(keepsHistory ? capacity : min(capacity, Self.batchCapacity))
    }

    /// Room reserved after each take by a log without history.
    static let batchCapacity = 4096

    @inline(__always) mutating func append(_ kind: LifecycleEvent.Kind, at t: Double, thread: ThreadTag? = nil) {
        if isClosed { return }
        seq &+= 1
        lastTime = t
        events.append(LifecycleEvent(seq: seq, time: t, kind: kind, thread: thread))
    }

    mutating func close() { isClosed = true }

    /// Every event recorded so far, those let go of included: a position in
    /// the stream for `recorded(from:)`.
    var count: Int { dropped + events.count }

    /// The events recorded from position `first` (a `count` read earlier,
    /// under the same lock, so never one let go of since).
    func recorded(from first: Int) -> ArraySlice<LifecycleEvent> { events[(first - dropped)...] }

    /// Events recorded and not taken yet.
    var hasNew: Bool { taken < count }

    /// Removes and returns the events recorded since the last call.
    mutating func takeNew() -> [LifecycleEvent] {
        guard taken < count else { return [] }
        if keepsHistory {
            let out = Array(events[(taken - dropped)...])
            taken = count
            return out
        }
        var out: [LifecycleEvent] = []
        out.reserveCapacity(Self.batchCapacity)
        swap(&out, &events)
        dropped += out.count
        taken = dropped
        return out
    }
}
