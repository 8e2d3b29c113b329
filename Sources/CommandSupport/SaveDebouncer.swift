/// Turns the file events of saves into reloads: a burst of events (an
/// editor's write, rename and attribute change; a script's three appends)
/// is taken once, `quiet` seconds after its last event, so the file is
/// read whole and only once.
///
/// A burst whose last event leaves the file being written (it was just
/// created, or written without being closed yet) is not taken then: the
/// writer's close (or a rename into place) ends it as usual; a writer
/// that keeps the file open without writing for `unsettled` seconds ends
/// it too. So a file caught mid-rewrite (created empty, half written) is
/// not read as the save.
///
/// A stream of events that never pauses (a script appending a line every
/// 50 ms, each closed) still reloads, at most `longest` seconds after its
/// first event; the next reload, after the stream pauses, reads it whole.
///
/// Pure: the caller passes the time (monotonic seconds) to each call, so a
/// test drives it with a made-up clock.
package struct SaveDebouncer: Sendable, Equatable {
    /// Seconds without an event before a burst counts as over.
    package let quiet: Double
    /// Seconds from a burst's first event after which it reloads anyway.
    package let longest: Double
    /// Seconds without an event after which a file left open by its
    /// writer is read anyway.
    package let unsettled: Double
    /// The first and the last event of the burst not taken yet; nil when
    /// none waits.
    private var first: Double?
    private var last: Double?
    /// The last event left the file whole.
    private var settled = true

    package init(quiet: Double = 0.1, longest: Double = 1, unsettled: Double = 2) {
        self.quiet = quiet
        self.longest = max(quiet, longest)
        self.unsettled = max(quiet, unsettled)
    }

    /// An event of the file came at `now`. `settled`: it leaves the file
    /// whole (closed after writing, renamed into place, removed, replaced
    /// by a link or a folder); false: the file is being written (created,
    /// written and not closed yet).
    package mutating func changed(at now: Double, settled: Bool = true) {
        // The longest bound counts from the first event of whole saves:
        // a file written for minutes before it is closed is read once
        // the quiet period after its close has passed.
        if first == nil || (settled && !self.settled) { first = now }
        if now >= (last ?? now) {
            last = now
            self.settled = settled
        }
    }

    /// Whether an event waits to be taken.
    package var isPending: Bool { last != nil }

    /// When the burst waiting is taken if no event comes meanwhile; nil
    /// when nothing waits.
    package var deadline: Double? {
        guard let first, let last else { return nil }
        return settled ? min(last + quiet, first + longest) : last + unsettled
    }

    /// True, once per burst, when its deadline has come at `now`: the
    /// caller reloads the file then.
    package mutating func take(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        first = nil
        last = nil
        settled = true
        return true
    }
}
