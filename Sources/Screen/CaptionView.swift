import TextKit

/// The caption band under the queue lines: the caption the run reached
/// last, a teacher's sentence at the moment it is about. Bold while the run
/// is paused at it (lesson mode: Space continues), plain after. Once a key
/// has changed the run, a caption says it was written for the run without
/// those changes.
enum CaptionView {
    /// The wrapped lines of the band, at most `ScreenLayout.captionRows`.
    static func lines(_ caption: ShownCaption, frame: FrameInput, width: Int) -> [String] {
        let dash = frame.glyphs.dash
        let scripted = caption.scripted ? "written for the run without your changes \(dash) " : ""
        var text =
            "\(Spelling.seconds(caption.time)) \(dash) \(scripted)\(Wording.plain(caption.text, glyphs: frame.glyphs))"
        if frame.pausedAtCaption { text += "  (Space continues)" }
        return bounded(wrap(text, width: max(1, width - 2)), width: width, frame: frame)
    }

    /// The band's lines for a frame: the caption's, or, while a question
    /// waits for its answer, what the file says that the cards do not
    /// (`PredictFrame.givens`): the timed actions and the clauses.
    static func lines(frame: FrameInput, width: Int) -> [String] {
        if let caption = frame.caption { return lines(caption, frame: frame, width: width) }
        guard let predict = frame.predict, predict.hidesAnswers, !predict.givens.isEmpty else { return [] }
        let text =
            "the file says: "
            + predict.givens.map { Wording.plain($0, glyphs: frame.glyphs) }.joined(
                separator: " \(frame.glyphs.bullet) ")
        return bounded(wrap(text, width: max(1, width - 2)), width: width, frame: frame)
    }

    /// At most `ScreenLayout.captionRows` lines, the last cut with an ellipsis.
    private static func bounded(_ wrapped: [String], width: Int, frame: FrameInput) -> [String] {
        guard wrapped.count > ScreenLayout.captionRows else { return wrapped }
        var kept = Array(wrapped.prefix(ScreenLayout.captionRows))
        kept[kept.count - 1] = truncate(
            kept[kept.count - 1] + " " + wrapped[ScreenLayout.captionRows], toWidth: max(1, width - 2),
            ellipsis: frame.glyphs.ellipsis)
        return kept
    }

    static func draw(frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect) {
        guard !rect.isEmpty else { return }
        let style = frame.caption == nil ? theme.info : frame.pausedAtCaption ? theme.caption : theme.captionSeen
        grid.fill(rect, with: .blank(style))
        for (i, line) in lines(frame: frame, width: rect.width).prefix(rect.height).enumerated() {
            let marker = i == 0 ? frame.glyphs.pointer : " "
            grid.write(
                marker + " " + line, at: Position(column: rect.x, row: rect.y + i), style: style, clippedTo: rect)
        }
    }
}
