import Board
import ScenarioKit

/// The cards of the five columns, left to right, as the views show them.
///
/// Operations not added yet have no phase column of their own; they sit at
/// the bottom of Pending (drawn dim, "not added yet") so that they can be
/// selected and the inspector can say so. Before the first event every
/// card is there.
struct BoardColumns: Sendable, Hashable {
    static let phases = Phase.columns
    /// Operation ids per column, in `Phase.columns` order.
    let ids: [[OperationID]]
    /// Cards per column before a filter (`F`) left some out; `ids`' counts without one.
    let totals: [Int]

    /// `shown`: the cards a filter lets through (nil: all).
    init(_ board: BoardState, shown: OperationMask? = nil) {
        let all = Phase.columns.map { phase in
            phase == .pending
                ? board.operations(in: .pending) + board.operations(in: .notAdded) : board.operations(in: phase)
        }
        totals = all.map(\.count)
        ids = shown.map { shown in all.map { $0.filter(shown.contains) } } ?? all
    }

    /// The column and row index of `op`, if it is on the board.
    func locate(_ op: OperationID) -> (column: Int, index: Int)? {
        for (c, column) in ids.enumerated() {
            if let i = column.firstIndex(of: op) { return (c, i) }
        }
        return nil
    }

    /// The first card of the first non-empty column.
    var first: OperationID? { ids.first { !$0.isEmpty }?.first }

    /// The nearest non-empty column strictly left (`step` −1) or right (+1)
    /// of `column`.
    func nearestNonEmpty(from column: Int, step: Int) -> Int? {
        var c = column + step
        while c >= 0 && c < ids.count {
            if !ids[c].isEmpty { return c }
            c += step
        }
        return nil
    }
}

/// The scroll rule of a column, shared by the renderer and the controller so
/// that both agree on which cards are visible.
enum ColumnScroll {
    /// The first visible index of a column of `count` cards showing
    /// `capacity` at once: `stored` moved just enough to show `selected`,
    /// and never past the end (no empty space under the last card).
    static func offset(stored: Int, count: Int, capacity: Int, selected: Int?) -> Int {
        guard capacity > 0, count > capacity else { return 0 }
        var offset = min(max(0, stored), count - capacity)
        if let selected {
            if selected < offset { offset = selected }
            if selected >= offset + capacity { offset = selected - capacity + 1 }
        }
        return offset
    }
}
