import Screen

#if canImport(Glibc)
    import Glibc
#endif

/// Draws a whole `CellGrid` on the terminal with escape sequences, for a
/// thread that is not the main one while the main thread is lost for good
/// (blocked in a wait of the scenario that never returns): ncurses, which
/// the main thread owns, is not touched. The cells' text was made by the
/// grid's writers; a control character that still reaches here shows as
/// `?`, so nothing from a file drives the terminal.
public enum GridEscapes {
    /// The escape sequences that draw `grid` from the top-left corner,
    /// rows clipped to `columns`; colours only with `colors`.
    public static func text(_ grid: CellGrid, columns: Int, colors: Bool) -> String {
        var out = "\u{1B}7\u{1B}[0m"
        for row in 0..<grid.height {
            out += "\u{1B}[\(row + 1);1H"
            var last: Style?
            var column = 0
            for col in 0..<grid.width {
                let cell = grid.cells[row * grid.width + col]
                guard !cell.isContinuation else { continue }
                guard column + max(1, Int(cell.width)) <= columns else { break }
                if cell.style != last {
                    out += sgr(cell.style, colors: colors)
                    last = cell.style
                }
                out += shown(cell.text)
                column += max(1, Int(cell.width))
            }
            out += "\u{1B}[0m\u{1B}[K"
        }
        return out + "\u{1B}[0m\u{1B}8"
    }

    /// Writes `text(grid, …)` to standard output.
    public static func draw(_ grid: CellGrid, columns: Int, colors: Bool) {
        let bytes = Array(text(grid, columns: columns, colors: colors).utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBufferPointer {
                Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    private static func sgr(_ style: Style, colors: Bool) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if colors, style.foreground != .default { codes.append(String(29 + Int(style.foreground.rawValue))) }
        if colors, style.background != .default { codes.append(String(39 + Int(style.background.rawValue))) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func shown(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
        return text.isEmpty ? " " : plain ? text : "?"
    }
}
