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
        let wrapped = wrap(text, width: max(1, width - 2))
        guard wrapped.count > ScreenLayout.captionRows else { return wrapped }
        var kept = Array(wrapped.prefix(ScreenLayout.captionRows))
        kept[kept.count - 1] = truncate(
            kept[kept.count - 1] + " " + wrapped[ScreenLayout.captionRows], toWidth: max(1, width - 2),
            ellipsis: frame.glyphs.ellipsis)
        return kept
    }

    static func draw(frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect) {
        guard let caption = frame.caption, !rect.isEmpty else { return }
        let style = frame.pausedAtCaption ? theme.caption : theme.captionSeen
        grid.fill(rect, with: .blank(style))
        for (i, line) in lines(caption, frame: frame, width: rect.width).prefix(rect.height).enumerated() {
            let marker = i == 0 ? frame.glyphs.pointer : " "
            grid.write(
                marker + " " + line, at: Position(column: rect.x, row: rect.y + i), style: style, clippedTo: rect)
        }
    }
}
