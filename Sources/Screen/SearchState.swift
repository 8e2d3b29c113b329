import Board
import ScenarioKit

/// `/`: the search being typed and the one kept after Enter, part of
/// `InterfaceState`.
public struct SearchState: Sendable, Hashable {
    /// The query being typed; nil while the prompt is closed.
    public var entry: String?
    /// The selection before `/`, given back by Esc.
    public var origin: OperationID?
    /// The last query Enter kept: what Ctrl-N and Ctrl-P step through.
    public var query: String?

    public init() {}
}

/// `F`: the filter being typed, and the one in force, part of
/// `InterfaceState`.
public struct FilterState: Sendable, Hashable {
    /// The terms being typed; nil while the prompt is closed.
    public var entry: String?
    /// Why Enter refused the terms typed (the prompt stays open).
    public var error: FilterError?
    /// The filter in force; nil: every operation shows.
    public var active: OperationFilter?

    public init() {}

    /// The operations that show on `board`; nil when no filter is on
    /// (every one shows), so the views can skip asking.
    public func shown(on board: BoardState) -> OperationMask? {
        active?.shown(on: board)
    }
}

extension InterfaceState {
    /// The cards of the columns as this state shows them: those the filter
    /// lets through (all without one). Every view and key asks this, so
    /// the selection moves only among the cards that show.
    func columns(_ board: BoardState) -> BoardColumns {
        BoardColumns(board, shown: filter.shown(on: board))
    }
}

extension FilterState {
    /// What the title bar says while a filter is on: `filter hides 12:
    /// queue:net`, the count first so that a narrow title cuts the terms.
    func titleNote(board: BoardState) -> String? {
        active.map { "filter hides \($0.hiddenCount(on: board)): \($0.text)" }
    }
}

/// `D`: "does the selected operation wait for …?", the name being typed
/// and the last answer, part of `InterfaceState`. The inspector shows the
/// answer while its operation is selected.
public struct WaitsForState: Sendable, Hashable {
    /// The operation asked about while the name is typed.
    public var asking: OperationID?
    /// The name being typed; nil while the prompt is closed.
    public var entry: String?
    /// The last question answered: does `x` wait for `y`.
    public var answered: Question?

    public struct Question: Sendable, Hashable {
        public var x: OperationID
        public var y: OperationID
    }

    public init() {}

    /// The inspector's line for `op`, when the last answer is about it.
    func answerLine(about op: OperationID, in scenario: Scenario) -> InspectorLine? {
        guard let asked = answered, asked.x == op, scenario.contains(asked.x), scenario.contains(asked.y) else {
            return nil
        }
        return InspectorLine("D: " + WhyAnswer.waitsFor(asked.x, asked.y, in: scenario).0, .heading)
    }
}
