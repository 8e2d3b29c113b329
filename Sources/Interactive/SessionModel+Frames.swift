import Board
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// What the session gives the screen: each frame's input.
extension SessionModel {
    package func frameInput(size: Size, glyphs: GlyphSet, colors: Bool, _ moment: SessionMoment) -> FrameInput {
        let paused = isPaused(moment)
        var frame = FrameInput(
            now: clock(moment), wallClock: moment.wall, speed: settings.speed, isPaused: paused,
            // After the end, Space continues only to a caption still waiting.
            pausedAtCaption: pausedAtCaption && (board.outcome == nil ? paused : !captionsWaiting.isEmpty),
            notStarted: !started, lesson: settings.lesson, caption: caption, size: size, glyphs: glyphs,
            colors: colors, log: log.entries, expectationResults: results, mainThreadBusy: mainThreadBusy?.op,
            mainThreadBlocked: mainThreadBlocked, history: history, historyShown: state.historyCursor,
            isReplay: isReplay)
        frame.timeline = lanes
        frame.memo = memo
        if results != nil {
            let facts = judge.facts
            frame.mainThreadWaitLines = MainThreadWaitSpan.reportLines(
                facts.mainThreadWaits, in: scenario, runEnd: facts.endTime)
        }
        frame.predict = prediction?.frame
        frame.hasPreviousRun = comparison != nil
        frame.liveEnded = board.outcome != nil
        frame.dispatchesObserved = file.dispatchesObserved
        switch state.overlay {
        case .diff:
            frame.overlayText = comparison?.lines(
                scenario: scenario, file: file.path, history: history, speed: settings.speed,
                ended: board.outcome != nil)
        case .problems:
            frame.overlayText = problems?.lines(width: InterfaceRenderer.overlayTextWidth(for: size))
        default:
            break
        }
        if let shown = state.historyCursor {
            // That moment: its clock and its caption (the log pane ends
            // at its line by itself).
            frame.now = history.time(after: shown)
            frame.caption = captionsReached.last { $0.count <= shown }?.caption
            frame.pausedAtCaption = false
            if let replay {
                // A replay plays through the history: its clock, a stop at
                // a caption, and no verdict before its end.
                if replay.isPlaying { frame.now = max(frame.now, replay.now(at: moment.wall)) }
                frame.pausedAtCaption = replay.stoppedAtCaption && !replay.isPlaying
                frame.expectationResults = nil
                frame.mainThreadWaitLines = []
            }
        }
        return frame
    }

    /// The board on the screen: the history cursor's moment (written over
    /// the moment shown before, kept), or the live one.
    mutating func shownBoard() -> BoardState {
        guard let cursor = state.historyCursor else { return board }
        if let memo = seekMemo, memo.cursor == cursor { return memo.board }
        var shown = seekMemo?.board ?? history.board(after: cursor)
        seekMemo = nil
        history.seek(&shown, to: cursor)
        seekMemo = (cursor, shown)
        return shown
    }

    package mutating func render(frame: FrameInput) -> CellGrid {
        let shown = shownBoard()
        if let op = revealPending {
            // The operation the caption names, in view at any size.
            revealPending = nil
            state.reveal(op, board: shown, frame: frame)
        }
        return InterfaceRenderer.render(board: shown, state: state, frame: frame).grid
    }
}
