/// The bottom row: the most important keys, `? help  q quit  Space pause …`,
/// labels taken from `InterfaceKeys.table` (so they cannot go stale) and
/// entries dropped from the end when the width runs out.
enum KeyBarView {
    static func text(width: Int, ascii: Bool) -> String {
        var line = ""
        for (command, word) in InterfaceKeys.keyBarCommands {
            let entry = "\(InterfaceKeys.firstKeyLabel(command, ascii: ascii)) \(word)"
            let next = line.isEmpty ? " " + entry : line + "  " + entry
            if displayWidth(next) > width { break }
            line = next
        }
        return line
    }

    static func draw(frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect) {
        grid.fill(rect, with: .blank(theme.dim))
        grid.write(
            text(width: rect.width, ascii: frame.ascii), at: Position(column: rect.x, row: rect.y), style: theme.dim,
            clippedTo: rect)
    }
}

/// The row above the key bar: the transient message while it lasts, else
/// how long a `main` queue operation blocked the main thread, else a hint
/// when the run ended.
enum StatusLineView {
    static func draw(
        state: InterfaceState, frame: FrameInput, ended: Bool, theme: Theme, into grid: inout CellGrid, rect: Rect
    ) {
        let at = Position(column: rect.x + 1, row: rect.y)
        let room = rect.inset(left: 1)
        if let message = state.visibleMessage(now: frame.wallClock) {
            let style = message.kind == .refusal ? theme.refusal : theme.info
            grid.write(truncate(message.text, toWidth: room.width, ellipsis: frame.glyphs.ellipsis), at: at, style: style, clippedTo: room)
        } else if let blocked = frame.mainThreadBlocked {
            let text = "the main thread was blocked for \(Wording.seconds(blocked)): the interface could not redraw meanwhile"
            grid.write(truncate(text, toWidth: room.width, ellipsis: frame.glyphs.ellipsis), at: at, style: theme.warning, clippedTo: room)
        } else if ended {
            grid.write("the run ended: n shows the expectations, r runs it again", at: at, style: theme.dim, clippedTo: room)
        }
    }
}

/// What the screen shows below `ScreenLayout.minimum`: how large it must
/// be, centred, wrapped to whatever width there is.
enum TooSmallView {
    static func draw(size: Size, ascii: Bool, into grid: inout CellGrid) {
        let times = ascii ? "x" : "×"
        let min = ScreenLayout.minimum
        let text = [
            "opscope needs at least \(min.columns)\(times)\(min.rows) cells;",
            "this terminal is \(size.columns)\(times)\(size.rows).",
            "Enlarge it, or press q to quit.",
        ]
        let lines = text.flatMap { wrap($0, width: size.columns) }
        let top = max(0, (size.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let left = max(0, (size.columns - displayWidth(line)) / 2)
            grid.write(line, at: Position(column: left, row: top + i), style: i == 0 ? Style.plain.bolded : .plain)
        }
    }
}
