import Board
import ScenarioKit

/// The keys of the graph view (`G`): up and down go through the selected
/// operation's layer; left goes to what it waits for, right to what waits
/// for it (the one nearest its row); `t` puts the board area `t` chose back.
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
        default: return nil
        }
        guard let op = state.selectedOperation else { return refuse("no operation to select", &state, frame) }
        let layout = (frame.memo?.graph(of: board.scenario) ?? GraphDrawing(board.scenario)).layout
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
}
