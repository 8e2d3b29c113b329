import ScenarioKit

/// What is drawn where, as the renderer laid it out: a mouse click at a
/// cell maps through this to the card, queue, timeline lane or table
/// column title under it.
public struct HitMap: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        case card(OperationID)
        case queue(QueueID)
        /// An operation's lane in the timeline, or one of its spans in the
        /// thread view.
        case lane(OperationID)
        /// The timeline's axis: a click there moves the history cursor to
        /// that column's moment.
        case timeAxis
        /// A column's title in the table view: a click there sorts by it.
        case tableColumn(OperationTable.Column)
    }

    public struct Region: Sendable, Hashable {
        public var rect: Rect
        public var target: Target
    }

    public private(set) var regions: [Region] = []

    public init() {}

    mutating func add(_ rect: Rect, _ target: Target) {
        if !rect.isEmpty { regions.append(Region(rect: rect, target: target)) }
    }

    /// The target drawn at a 0-based column and row, if any.
    public func target(column: Int, row: Int) -> Target? {
        regions.last { $0.rect.contains(Position(column: column, row: row)) }?.target
    }

    /// Where `target` was drawn, if it was.
    public func rect(of target: Target) -> Rect? {
        regions.first { $0.target == target }?.rect
    }
}
