import Board

/// The top row: `opscope · Image pipeline` on the left, the scenario clock,
/// speed, PAUSED and the end of the run on the right, in reverse video.
enum TitleBarView {
    static func draw(board: BoardState, frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect) {
        guard !rect.isEmpty else { return }
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        grid.fill(row, with: .blank(theme.titleBar))
        var right = "t=\(Wording.seconds(frame.now))  \(Wording.speed(frame.speed, ascii: frame.ascii))"
        switch board.outcome {
        case nil: break
        case .completed?: right += "  ended"
        case .stalled?: right += "  stalled"
        }
        if let results = frame.expectationResults, !results.isEmpty {
            let held = results.filter(\.held).count
            right += "  \(frame.glyphs.check)\(held)"
            if held < results.count { right += " \(frame.glyphs.cross)\(results.count - held)" }
        }
        let paused = frame.isPaused ? "  PAUSED " : " "
        let rightWidth = displayWidth(right) + displayWidth(paused)
        let left = " opscope " + (frame.ascii ? "- " : "· ") + (board.scenario.title ?? "untitled scenario")
        grid.write(
            truncate(left, toWidth: max(0, rect.width - rightWidth - 1), ellipsis: frame.glyphs.ellipsis),
            at: Position(column: rect.x, row: rect.y), style: theme.titleBar, clippedTo: row)
        let start = rect.maxX - rightWidth
        let afterClock = grid.write(right, at: Position(column: start, row: rect.y), style: theme.titleBar, clippedTo: row)
        grid.write(
            paused, at: Position(column: afterClock, row: rect.y),
            style: frame.isPaused ? theme.paused : theme.titleBar, clippedTo: row)
    }
}
