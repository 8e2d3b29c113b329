/// Turns the file events of saves into reloads: a burst of events (an
/// editor's write, rename and attribute change; a script's three appends)
/// is taken once, `quiet` seconds after its last event, so the file is
/// read whole and only once.
///
/// A stream of events that never pauses (a generator writing for minutes)
/// still reloads, at most `longest` seconds after its first event: the
/// file may be half written then, and the next reload, after the stream
/// pauses, reads it whole.
///
/// Pure: the caller passes the time (monotonic seconds) to each call, so a
/// test drives it with a made-up clock.
package struct SaveDebouncer: Sendable, Equatable {
    /// Seconds without an event before a burst counts as over.
    package let quiet: Double
    /// Seconds from a burst's first event after which it reloads anyway.
    package let longest: Double
    /// The first and the last event of the burst not taken yet; nil when
    /// none waits.
    private var first: Double?
    private var last: Double?

    package init(quiet: Double = 0.1, longest: Double = 1) {
        self.quiet = quiet
        self.longest = max(quiet, longest)
    }

    /// An event of the file came at `now`.
    package mutating func changed(at now: Double) {
        if first == nil { first = now }
        last = max(last ?? now, now)
    }

    /// Whether an event waits to be taken.
    package var isPending: Bool { last != nil }

    /// When the burst waiting is taken if no event comes meanwhile; nil
    /// when nothing waits.
    package var deadline: Double? {
        guard let first, let last else { return nil }
        return min(last + quiet, first + longest)
    }

    /// True, once per burst, when its deadline has come at `now`: the
    /// caller reloads the file then.
    package mutating func take(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        first = nil
        last = nil
        return true
    }
}
