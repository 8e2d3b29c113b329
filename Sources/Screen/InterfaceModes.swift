import Board

/// What a mode reads besides the state: the board on the screen, the live
/// run's board (the keys that act on the engine check against it), and
/// the frame.
struct ModeContext {
    let board: BoardState
    let runBoard: BoardState
    let frame: FrameInput
}

/// A mode of the interface that may take a key before the board does:
/// while it is on, `InterfaceController.handle` asks it, and the first
/// mode that answers wins. Modes that read the key itself (a line being
/// typed) come before the key table; the others take its command.
struct InterfaceMode<Input>: Sendable {
    let name: String
    let isOn: @Sendable (InterfaceState, FrameInput) -> Bool
    /// The outcome, or nil to leave the key to the next mode.
    let take: @Sendable (Input, inout InterfaceState, ModeContext) -> InterfaceOutcome?
}

extension InterfaceController {
    /// The modes that read a key before the key table does, in the order
    /// they are asked.
    static let keyModes: [InterfaceMode<Key>] = [
        InterfaceMode(
            name: "time entry", isOn: { state, _ in state.timeEntry != nil },
            take: { key, state, context in
                typeTime(key, state: &state, frame: context.frame)
            }),
        InterfaceMode(
            name: "prompt",
            isOn: { state, _ in
                state.search.entry != nil || state.filter.entry != nil || state.waitsFor.entry != nil
            },
            take: { key, state, context in
                typePrompt(key, state: &state, board: context.board, frame: context.frame)
            }),
    ]

    /// The modes that take a command before the board does, in the order
    /// they are asked: an overlay has every key first; then a run that
    /// cannot take an action refuses it; then history's Home and End, the
    /// graph, the timeline or threads, the table.
    static let commandModes: [InterfaceMode<InterfaceCommand>] = [
        InterfaceMode(
            name: "overlay", isOn: { state, _ in state.overlay != .none },
            take: { command, state, context in
                overlayCommand(command, state: &state, board: context.board, frame: context.frame)
            }),
        InterfaceMode(
            name: "run refusal", isOn: { _, _ in true },
            take: { command, state, context in
                guard command.actsOnTheRun, let refusal = runRefusal(board: context.runBoard, frame: context.frame)
                else { return nil }
                return refuse(refusal, &state, context.frame)
            }),
        // In history (a replay is always there), Home and End go to its
        // start and its end (in a replay, the recording's last event); live
        // they scroll the log.
        InterfaceMode(
            name: "history", isOn: { state, frame in state.historyCursor != nil || frame.isReplay },
            take: { command, state, context in
                guard command == .scrollHome || command == .scrollEnd else { return nil }
                return moveHistory(to: command == .scrollHome ? 0 : nil, state: &state, frame: context.frame)
            }),
        InterfaceMode(
            name: "graph", isOn: { state, _ in state.graphShown },
            take: { command, state, context in
                graph(command, state: &state, board: context.board, frame: context.frame)
            }),
        InterfaceMode(
            name: "timeline", isOn: { state, _ in state.boardArea.isOverTime },
            take: { command, state, context in
                overTime(command, state: &state, board: context.board, frame: context.frame)
            }),
        InterfaceMode(
            name: "table", isOn: { state, _ in state.boardArea == .table },
            take: { command, state, context in
                inTable(command, state: &state, board: context.board, frame: context.frame)
            }),
    ]
}
