import Board
import ScenarioKit

/// The keys of the graph view (`G`): up and down go through the selected
/// operation's layer; left goes to what it waits for, right to what waits
/// for it (the one nearest its row); PgUp and PgDn go a screen up or down
/// the layer, Home and End to the graph's first and last operation (in
/// history they keep going to its start and its end); `t` puts the board
/// area `t` chose back; `e` folds and unfolds, `H` marks the critical path
/// or takes it away.
extension InterfaceController {
    static func graph(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        let move: (dx: Int, dy: Int)
        if state.criticalPathShown, let op = state.selectedOperation,
            [.logOlder, .logNewer, .scrollHome, .scrollEnd].contains(command)
        {
            return scrollBand(command, op: op, state: &state, board: board, frame: frame)
        }
        switch command {
        case .selectUp: move = (0, -1)
        case .selectDown: move = (0, 1)
        case .selectLeft: move = (-1, 0)
        case .selectRight: move = (1, 0)
        case .cycleBoardArea:
            state.graphShown = false
            state.settleScroll(board: board, frame: frame)
            return .redraw
        case .foldGraph:
            return fold(state: &state, board: board, frame: frame)
        case .markCriticalPath:
            guard state.selectedOperation != nil else { return refuse(ScreenWords.noOperationSelected, &state, frame) }
            state.criticalPathShown.toggle()
            state.criticalPathScroll = .init()
            return .redraw
        case .logOlder, .logNewer:
            let rows = InterfaceRenderer.layout(board: board, state: state, frame: frame)?.boardArea.height ?? 3
            // A screen of the body under the title, one row kept in sight.
            let page = max(1, rows - 2)
            return pageGraph(command == .logOlder ? -page : page, state: &state, board: board, frame: frame)
        case .scrollHome, .scrollEnd:
            return graphEnd(first: command == .scrollHome, state: &state, board: board, frame: frame)
        default: return nil
        }
        guard let selected = state.selectedOperation else {
            return refuse(ScreenWords.noOperationToSelect, &state, frame)
        }
        let drawing = GraphView.drawing(board: board, state: state, frame: frame)
        guard let op = drawing.node(for: selected) else {
            return refuse("\(board.scenario.opName(selected)) is hidden by the filter", &state, frame)
        }
        let layout = drawing.layout
        guard let next = GraphView.neighbour(of: op, dx: move.dx, dy: move.dy, layout: layout) else {
            let why =
                move.dx < 0
                ? "\(board.scenario.opName(op)) waits for nothing"
                : move.dx > 0
                    ? "nothing waits for \(board.scenario.opName(op))" : "no other operation in this layer that way"
            return refuse(why, &state, frame)
        }
        state.selectedOperation = next
        state.inspectsQueue = false
        state.reconcile(with: board, frame: frame)
        return .redraw
    }

    /// PgUp / PgDn, Home / End while `H`'s band shows: a page of its lines
    /// up or down, its first or its last (the band is the open pane, as
    /// the log's keys say; the graph pages again once `H` hides it).
    static func scrollBand(
        _ command: InterfaceCommand, op: OperationID, state: inout InterfaceState, board: BoardState,
        frame: FrameInput
    ) -> InterfaceOutcome {
        guard let area = InterfaceRenderer.layout(board: board, state: state, frame: frame)?.boardArea else {
            return .none
        }
        let body = area.inset(top: 1)
        let held = GraphView.heldBack(op, board: board, frame: frame)
        let shape = GraphView.bandShape(held, width: body.width, height: body.height)
        guard shape.scrolls else { return refuse("the whole chain is in the band", &state, frame) }
        let current =
            state.criticalPathScroll.op == op
            ? GraphView.clampedScroll(state.criticalPathScroll.line, held, window: shape.window) : 0
        let page = max(1, shape.window - 1)
        let target: Int
        switch command {
        case .logOlder: target = current - page
        case .logNewer: target = current + page
        case .scrollHome: target = 0
        default: target = held.lineCount
        }
        let next = GraphView.clampedScroll(target, held, window: shape.window)
        guard next != current else {
            return refuse(next == 0 ? "the chain's first link" : "the chain's last link", &state, frame)
        }
        state.criticalPathScroll = .init(op: op, line: next)
        return .redraw
    }

    /// PgUp / PgDn: `delta` rows up or down the selected operation's layer,
    /// to the nearest operation there (the view follows the selection).
    static func pageGraph(
        _ delta: Int, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        let drawing = GraphView.drawing(board: board, state: state, frame: frame)
        let layout = drawing.layout
        guard let selected = state.selectedOperation.flatMap(drawing.node) else {
            return graphEnd(first: delta < 0, state: &state, board: board, frame: frame)
        }
        let slots = layout.layers[Int(layout.layerOf[selected.index])]
        let place = Int(layout.placeOf[selected.index])
        let target = min(max(0, place + delta), slots.count - 1)
        // The operation nearest the target, not past the selection.
        let toward =
            delta < 0
            ? Array(stride(from: target, through: place, by: 1)) : Array(stride(from: target, through: place, by: -1))
        guard
            let next = toward.lazy.compactMap({ p -> OperationID? in
                if case .operation(let op) = slots[p] { return op }
                return nil
            }).first, next != selected
        else {
            return refuse(delta < 0 ? "the top of this column" : "the bottom of this column", &state, frame)
        }
        return selectInGraph(next, state: &state, board: board, frame: frame)
    }

    /// Home / End: the graph's first operation (the first column's top) or
    /// its last (the last column's bottom).
    static func graphEnd(first: Bool, state: inout InterfaceState, board: BoardState, frame: FrameInput)
        -> InterfaceOutcome
    {
        let layout = GraphView.drawing(board: board, state: state, frame: frame).layout
        let layers = layout.layers.indices
        for l in first ? Array(layers) : layers.reversed() {
            let places = layout.layers[l].indices
            for p in first ? Array(places) : places.reversed() {
                guard case .operation(let op) = layout.layers[l][p] else { continue }
                guard op != state.selectedOperation else { return .none }
                return selectInGraph(op, state: &state, board: board, frame: frame)
            }
        }
        return refuse(ScreenWords.noOperationToSelect, &state, frame)
    }

    private static func selectInGraph(
        _ op: OperationID, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome {
        state.selectedOperation = op
        state.inspectsQueue = false
        state.reconcile(with: board, frame: frame)
        return .redraw
    }

    /// `e`: folds what waits for the selected operation's node alone into it,
    /// or unfolds the node when it is folded.
    static func fold(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let selected = state.selectedOperation else {
            return refuse(ScreenWords.noOperationSelected, &state, frame)
        }
        let drawing = GraphView.drawing(board: board, state: state, frame: frame)
        let name = board.scenario.opName
        guard let node = drawing.node(for: selected) else {
            return refuse("\(name(selected)) is hidden by the filter", &state, frame)
        }
        if state.graphFolds.remove(node) != nil {
            state.selectedOperation = node
            return .redraw
        }
        guard drawing.layout.outgoing[node.index].isEmpty == false else {
            return refuse("nothing waits for \(name(node)): nothing to fold into it", &state, frame)
        }
        state.graphFolds.insert(node)
        state.selectedOperation = node
        return .redraw
    }
}
