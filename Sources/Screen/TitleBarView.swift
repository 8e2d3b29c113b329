import Board
import Grading
import TextKit

/// The top row: `opscope · Image pipeline` on the left; on the right the
/// scenario clock, the speed, lesson mode, and where the run is (paused,
/// waiting for the user, stuck, ended, with the verdicts), in reverse
/// video. The right part is kept whole; the title gives way.
enum TitleBarView {
    /// The right part: the clock, the speed, `lesson`, then the state;
    /// `short` words the state for a narrow bar (the status line and the
    /// notes say the rest).
    static func rightText(board: BoardState, frame: FrameInput, status: RunStatus, short: Bool = false) -> String {
        if let shown = frame.historyShown, let history = frame.history {
            // "event 37 of 112 · 0.601s · history — End returns to live";
            // a replay: "event 37 of 112 · 0.601s · playing" (or paused).
            let dot = " \(frame.glyphs.dot) "
            let time = frame.isReplay && !frame.isPaused ? frame.now : history.time(after: shown)
            let position = "event \(shown) of \(history.count)" + dot + Spelling.seconds(time)
            if frame.isReplay {
                let state: String
                if !frame.isPaused {
                    state = "playing"
                } else if frame.pausedAtCaption {
                    state = short ? "at a caption" : "at a caption \(frame.glyphs.dash) Space plays on"
                } else {
                    state = short ? "paused" : "paused \(frame.glyphs.dash) Space plays from here"
                }
                return position + dot + state
            }
            return position + dot + (short ? "history" : "history \(frame.glyphs.dash) End returns to live")
        }
        var parts = ["t=\(Spelling.seconds(frame.now))", Wording.speed(frame.speed, glyphs: frame.glyphs)]
        if frame.lesson && !short { parts.append("lesson") }
        // Every frame, at any width: what this run cannot show (the notes say more).
        if !frame.dispatchesObserved { parts.append(Self.unobservedDispatches) }
        switch status {
        case .notStarted:
            let space =
                frame.isReplay ? "Space plays it" : frame.predict != nil ? "your answer starts it" : "Space starts it"
            parts.append(short ? "not started" : "not started \(frame.glyphs.dash) \(space)")
        case .running: break
        case .paused(let atCaption): parts.append(atCaption && !short ? "PAUSED at a caption" : "PAUSED")
        case .waiting(let text, let brief): parts.append(short ? brief : text)
        case .stuck(let text, let expected): parts.append(short ? (expected ? "stuck as expected" : "stuck") : text)
        case .ended: parts.append("ended")
        }
        if let blocked = frame.mainThreadBlocked, frame.mainThreadBusy == nil {
            parts.append("main thread blocked \(Wording.realSeconds(blocked.seconds))")
        }
        if let results = frame.expectationResults, !results.isEmpty {
            let held = results.filter(\.held).count
            if frame.glyphs.isASCII {
                // No marks to read in ASCII: the words.
                var verdict = "held \(held)"
                if held < results.count { verdict += ", failed \(results.count - held)" }
                parts.append(verdict)
            } else {
                var verdict = "\(frame.glyphs.check)\(held)"
                if held < results.count { verdict += " \(frame.glyphs.cross)\(results.count - held)" }
                parts.append(verdict)
            }
        }
        return parts.joined(separator: "  ")
    }

    /// In the bar of a run that observed no moment of dispatch
    /// (`FrameInput.dispatchesObserved`).
    static let unobservedDispatches = "dispatches unobserved"

    /// `filter`: what a filter (`F`) hides (`filter hides 12: queue:net`),
    /// written before the scenario's title so that it gives way last.
    static func draw(
        board: BoardState, frame: FrameInput, status: RunStatus, theme: Theme, into grid: inout CellGrid, rect: Rect,
        filter: String? = nil
    ) {
        guard !rect.isEmpty else { return }
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        grid.fill(row, with: .blank(theme.titleBar))
        // The whole state when the scenario's title keeps 24 cells, else the short words.
        var right = rightText(board: board, frame: frame, status: status) + " "
        if displayWidth(right) > rect.width - 24 {
            right = rightText(board: board, frame: frame, status: status, short: true) + " "
        }
        right = truncate(right, toWidth: max(0, rect.width - 12), ellipsis: frame.glyphs.ellipsis)
        let rightWidth = displayWidth(right)
        let left =
            (frame.isReplay ? " opscope replay \(frame.glyphs.dot) " : " opscope \(frame.glyphs.dot) ")
            + (filter.map { "\($0) \(frame.glyphs.dot) " } ?? "")
            + Wording.plain(shownTitle(board: board, frame: frame), glyphs: frame.glyphs)
        grid.write(
            truncate(left, toWidth: max(0, rect.width - rightWidth - 2), ellipsis: frame.glyphs.ellipsis),
            at: Position(column: rect.x, row: rect.y), style: theme.titleBar, clippedTo: row)
        let style: Style
        switch status {
        case .paused, .notStarted: style = theme.paused
        case .waiting: style = theme.waiting
        default: style = theme.titleBar
        }
        grid.write(right, at: Position(column: rect.maxX - rightWidth, row: rect.y), style: style, clippedTo: row)
    }

    /// The scenario's title; a question's until it is answered (a
    /// lesson's title often gives the answer away).
    static func shownTitle(board: BoardState, frame: FrameInput) -> String {
        if let predict = frame.predict, predict.hidesAnswers { return "a question: " + predict.question }
        return board.scenario.title ?? "untitled scenario"
    }
}
