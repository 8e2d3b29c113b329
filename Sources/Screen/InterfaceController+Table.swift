import Board
import ScenarioKit

/// The keys over the table (`BoardArea.table`): ↑ ↓ select the row above
/// or below in the table's order, PgUp PgDn a page of rows (the log
/// scrolls with the wheel meanwhile); `o` (and →) sorts by the next column
/// shown, ← by the one before, file order between the last and the
/// first; `O` reverses; a new order selects its first row. The selection is the one the board, the timeline
/// and the inspector share.
extension InterfaceController {
    /// nil: the command means what it always does.
    static func inTable(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        switch command {
        case .selectUp: return moveRow(-1, state: &state, board: board, frame: frame)
        case .selectDown: return moveRow(1, state: &state, board: board, frame: frame)
        case .logOlder, .logNewer:
            let rect = InterfaceRenderer.layout(board: board, state: state, frame: frame)?.boardArea
            let page = max(1, TableView.capacity(rect ?? Rect(size: frame.size)) - 1)
            return moveRow(command == .logOlder ? -page : page, state: &state, board: board, frame: frame)
        case .selectLeft: return cycleSort(-1, state: &state, board: board, frame: frame)
        case .selectRight, .sortTable: return cycleSort(1, state: &state, board: board, frame: frame)
        case .reverseTable:
            state.tableView.sort.descending.toggle()
            return sorted(state: &state, board: board, frame: frame)
        default: return nil
        }
    }

    /// Up / down by `delta` rows in the table's order; no wrap-around.
    static func moveRow(
        _ delta: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let table = TableView.table(board: board, state: state, frame: frame)
        guard !table.rows.isEmpty else { return refuse(ScreenWords.noOperationToSelect, &state, frame) }
        let here = state.selectedOperation.flatMap(table.row)
        let next = min(max(0, (here ?? 0) + (here == nil ? 0 : delta)), table.rows.count - 1)
        guard next != here else { return .none }
        selectLane(table.rows[next], state: &state, board: board, frame: frame)
        return .redraw
    }

    /// The sort column `step` columns on among those the table shows at
    /// this width, file order between the last and the first; a new
    /// column starts in its own direction (`Column.startsDescending`).
    static func cycleSort(
        _ step: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let width = InterfaceRenderer.layout(board: board, state: state, frame: frame)?.boardArea.width ?? 0
        let sort = state.tableView.sort
        let shown = OperationTable.placed(width: width, scenario: board.scenario, sort: sort.column).map(\.column)
        let cycle: [OperationTable.Column?] = [nil] + shown
        let here = cycle.firstIndex(of: sort.column) ?? 0
        let next = cycle[((here + step) % cycle.count + cycle.count) % cycle.count]
        state.tableView.sort = OperationTable.Sort(column: next, descending: next?.startsDescending ?? false)
        return sorted(state: &state, board: board, frame: frame)
    }

    /// A click on a column's title: the table sorts by it in its own
    /// direction (`Column.startsDescending`), or, already sorted by it,
    /// reverses (as `O` does).
    static func sortByTitle(
        _ column: OperationTable.Column, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        if state.tableView.sort.column == column {
            state.tableView.sort.descending.toggle()
        } else {
            state.tableView.sort = OperationTable.Sort(column: column, descending: column.startsDescending)
        }
        return sorted(state: &state, board: board, frame: frame)
    }

    /// A new order shows its top, its first row selected: a sort asks
    /// "which waited longest?", and the inspector answers why at once.
    private static func sorted(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        state.tableView.scroll = 0
        if let first = TableView.table(board: board, state: state, frame: frame).rows.first {
            selectLane(first, state: &state, board: board, frame: frame)
        } else {
            state.settleScroll(board: board, frame: frame)
        }
        return .redraw
    }
}
