/// What the board area shows: the five columns of cards, the timeline (a
/// lane per operation, grouped by queue), the threads (a lane per
/// thread, with the operations it ran) or the table (a row per operation,
/// `OperationTable`). `t` goes round the four; the queue lines, the
/// inspector and the log stay as they are.
public enum BoardArea: Sendable, Hashable, CaseIterable {
    case columns, timeline, threads, table

    /// The one `t` shows next.
    var next: BoardArea {
        switch self {
        case .columns: .timeline
        case .timeline: .threads
        case .threads: .table
        case .table: .columns
        }
    }

    /// One of the two views over time (the keys of the "Timeline" group apply).
    var isOverTime: Bool { self == .timeline || self == .threads }
}

/// A window of scenario time the timeline shows: from `start` for `span`
/// seconds, both ≥ 0.
public struct TimeWindow: Sendable, Hashable {
    public var start: Double
    public var span: Double

    public init(start: Double, span: Double) {
        self.start = start
        self.span = span
    }

    public var end: Double { start + span }

    /// The whole run so far: from 0 to the live edge, and at least a tenth
    /// of a second, so that a run just started has a scale a person reads
    /// (not microseconds that change with every frame).
    static func fit(edge: Double) -> TimeWindow {
        TimeWindow(start: 0, span: max(edge, fitMinimum))
    }

    static let fitMinimum = 0.1

    /// The finest a zoom gets, seconds per column: ticks ten columns
    /// apart are then a millisecond apart, the precision of the times the
    /// rest of the screen shows.
    static let finestStep = 0.0001

    /// The window of `span` seconds around `centre`, kept inside the run
    /// (from 0 to `edge`) as far as it fits.
    static func around(_ centre: Double, span: Double, edge: Double) -> TimeWindow {
        let start = min(max(0, centre - span / 2), max(0, edge - span))
        return TimeWindow(start: start, span: span)
    }

    /// Moved by `fraction` of its span (negative: earlier), kept inside the
    /// run; nil when it cannot move that way.
    func scrolled(by fraction: Double, edge: Double) -> TimeWindow? {
        let start = min(max(0, self.start + span * fraction), max(0, edge - span))
        guard abs(start - self.start) > span * 1e-9 else { return nil }
        return TimeWindow(start: start, span: span)
    }
}

/// The timeline's state that lasts from frame to frame: the time window
/// (nil: fit, the whole run so far, which follows the live edge as the run
/// grows; a zoom or a scroll fixes it) and the rows scrolled. The scroll
/// offsets are stored wishes, like `InterfaceState.columnScroll`: the view
/// moves them just enough to keep the selected operation's row in sight.
public struct TimelineViewState: Sendable, Hashable {
    public var window: TimeWindow?
    /// The first operation shown, as an index into the timeline's lane order.
    public var laneScroll = 0
    /// The first thread shown in the thread view.
    public var threadScroll = 0

    public init() {}
}
