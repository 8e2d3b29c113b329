import Board
import ScenarioKit

/// The keys of the graph view (`G`): up and down go through the selected
/// operation's layer; left goes to what it waits for, right to what waits
/// for it (the one nearest its row); `t` puts the board area `t` chose back;
/// `e` folds and unfolds, `H` marks the critical path or takes it away.
extension InterfaceController {
    static func graph(
        _ command: InterfaceCommand, state: inout InterfaceState, board: BoardState, frame: FrameInput
    ) -> InterfaceOutcome? {
        let move: (dx: Int, dy: Int)
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
            guard state.selectedOperation != nil else { return refuse("no operation selected", &state, frame) }
            state.criticalPathShown.toggle()
            return .redraw
        default: return nil
        }
        guard let selected = state.selectedOperation else {
            return refuse("no operation to select", &state, frame)
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

    /// `e`: folds what waits for the selected operation's node alone into it,
    /// or unfolds the node when it is folded.
    static func fold(state: inout InterfaceState, board: BoardState, frame: FrameInput) -> InterfaceOutcome {
        guard let selected = state.selectedOperation else { return refuse("no operation selected", &state, frame) }
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
