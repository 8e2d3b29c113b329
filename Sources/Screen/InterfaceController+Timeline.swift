import Board
import ScenarioKit

/// The keys of the views over time: `t` goes round the board, the
/// timeline and the threads; up and down select the operation before or
/// after in the timeline's order (the inspector follows); left and right,
/// `,` and `.` move the window; `z` and `Z` zoom around the cursor; `x`
/// fits the whole run again. Every move of the window is computed with the
/// `TimelinePlan` the renderer draws from, so a key acts on what shows.
extension InterfaceController {
    static func timeline(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        if command == .cycleBoardArea {
            state.boardArea = state.boardArea.next
            state.settleScroll(board: board, frame: frame)
            return .redraw
        }
        let key = InterfaceKeys.firstKeyLabel(command, glyphs: frame.glyphs)
        guard state.boardArea.isOverTime else {
            return refuse("\(key) moves the timeline: t shows it", &state, frame)
        }
        guard let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame),
            let plan = TimelinePlan(state: state, frame: frame, rect: layout.boardArea, board: board)
        else { return refuse(ScreenWords.noTimeline, &state, frame) }
        let window = plan.window
        switch command {
        case .zoomIn:
            let span = window.span / 2
            guard span / Double(max(1, plan.plot.width)) >= TimeWindow.finestStep else {
                return refuse(
                    "zoomed in as far as it goes: one column is \(TimelineView.stepText(plan.step))", &state, frame)
            }
            state.timelineView.window = .around(centre(plan), span: span, edge: plan.edge)
        case .zoomOut:
            guard !plan.fits else { return refuse("the whole run shows already: z zooms in", &state, frame) }
            let span = window.span * 2
            let whole = TimeWindow.fit(edge: plan.edge)
            state.timelineView.window = span >= whole.span ? nil : .around(centre(plan), span: span, edge: plan.edge)
        case .scrollEarlier, .scrollLater:
            guard !plan.fits else { return refuse("the whole run shows: z zooms in first", &state, frame) }
            let earlier = command == .scrollEarlier
            guard let moved = window.scrolled(by: earlier ? -0.25 : 0.25, edge: plan.edge) else {
                return refuse(
                    earlier ? ScreenWords.startOfRun : "this is the end of the run so far", &state, frame)
            }
            state.timelineView.window = moved
        default:
            guard !plan.fits else { return refuse("the whole run shows already", &state, frame) }
            state.timelineView.window = nil
        }
        return .redraw
    }

    /// What a zoom keeps in place: the cursor while it shows, else the
    /// middle of the window.
    private static func centre(_ plan: TimelinePlan) -> Double {
        let window = plan.window
        return plan.cursor >= window.start && plan.cursor <= window.end ? plan.cursor : window.start + window.span / 2
    }

    /// The arrows (and h j k l) over time: up and down select, left and
    /// right move the window. nil: the command means what it always does.
    static func overTime(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        switch command {
        case .selectUp: moveLane(-1, state: &state, board: board, frame: frame)
        case .selectDown: moveLane(1, state: &state, board: board, frame: frame)
        case .selectLeft: timeline(.scrollEarlier, state: &state, board: board, frame: frame)
        case .selectRight: timeline(.scrollLater, state: &state, board: board, frame: frame)
        default: nil
        }
    }

    /// Up / down over time: the operation before or after in the
    /// timeline's order; no wrap-around.
    static func moveLane(
        _ delta: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let order = TimelinePlan.order(board.scenario, admitted: state.filter.shown(on: board), frame: frame)
        guard !order.operations.isEmpty else { return refuse(ScreenWords.noOperationToSelect, &state, frame) }
        let here = state.selectedOperation.flatMap(order.place) ?? 0
        let next = min(max(0, here + delta), order.operations.count - 1)
        guard next != here || state.selectedOperation == nil else { return .none }
        selectLane(order.operations[next], state: &state, board: board, frame: frame)
        return .redraw
    }

    /// Selects `op` from the timeline: its card's column is where the board
    /// finds it when `t` comes back round.
    static func selectLane(_ op: OperationID, state: inout InterfaceState, board: BoardState, frame: FrameInput) {
        let column = state.columns(board).locate(op)?.column ?? state.selectedColumn
        select(op, column: column, state: &state, board: board, frame: frame)
    }

    /// A click on the axis: the history cursor goes to the last
    /// notification the lanes draw in that column or before it (past the
    /// last: live).
    static func clickAxis(column: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput)
        -> InterfaceOutcome
    {
        guard let history = frame.history, history.count > 0,
            let layout = InterfaceRenderer.layout(board: board, state: state, frame: frame),
            let plan = TimelinePlan(state: state, frame: frame, rect: layout.boardArea, board: board)
        else { return .none }
        let clicked = column - plan.plot.x
        var low = 0
        var high = history.count
        while low < high {
            let mid = (low + high) / 2
            if plan.column(of: history.events[mid].time) <= clicked { low = mid + 1 } else { high = mid }
        }
        return moveHistory(to: low >= history.count ? nil : low, state: &state, frame: frame)
    }
}
