/// The symbols the interface draws with, in one place so that ASCII mode
/// (`--ascii`, or a terminal that cannot show UTF-8) swaps all of them at
/// once. Every glyph is exactly one cell wide in both sets (but for the
/// ellipsis, the arrow and the dash, which are used only inside text that
/// is measured before it is drawn), so layouts do not
/// depend on the set chosen.
public struct GlyphSet: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// Finished successfully; an expectation that held.
    public var check: String
    /// An expectation that failed (never "cancelled": see `cancelled`).
    public var cross: String
    /// Cancelled: on a card, in the Cancelled column's status rows.
    public var cancelled: String
    /// Selection marker, "executing" marker.
    public var pointer: String
    /// A bullet, e.g. an operation that is ready.
    public var bullet: String
    /// A filled cell of a progress bar.
    public var barFull: String
    /// An empty cell of a progress bar.
    public var barEmpty: String
    /// Partial cells of a progress bar, from 1/8 to 7/8 full; empty when the
    /// set has none (ASCII), then bars move in whole cells.
    public var barPartials: [String]
    /// Marks truncated text; may be wider than one cell ("...").
    public var ellipsis: String
    /// The change of a value ("false → true"); may be wider than one cell.
    public var arrow: String
    /// A dash between a statement and what follows it; may be wider.
    public var dash: String
    /// A separator inside a line ("1 running · cap 4").
    public var dot: String
    /// The sign of a speed (×2) and of a size (80×24).
    public var times: String
    /// The scroll marks of a column header (↑2 ↓3).
    public var up: String
    public var down: String

    public static let unicode = GlyphSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐",
        bottomLeft: "└", bottomRight: "┘", check: "✓", cross: "✗", cancelled: "⊘", pointer: "▶",
        bullet: "●", barFull: "█", barEmpty: "░",
        barPartials: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], ellipsis: "…", arrow: "→", dash: "—", dot: "·",
        times: "×", up: "↑", down: "↓")

    public static let ascii = GlyphSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+",
        bottomLeft: "+", bottomRight: "+", check: "v", cross: "!", cancelled: "x", pointer: ">",
        bullet: "*", barFull: "#", barEmpty: ".", barPartials: [], ellipsis: "...", arrow: "->", dash: "-",
        dot: "-", times: "x", up: "^", down: "v")

    /// ASCII mode: the interface writes no other byte.
    public var isASCII: Bool { self == .ascii }

    /// A progress bar exactly `width` cells wide for `fraction` (clamped to
    /// 0...1), using partial blocks when the set has them.
    public func progressBar(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let f = fraction.isNaN ? 0 : min(1, max(0, fraction))
        let steps = barPartials.count + 1  // sub-cell steps per cell
        let filled = Int((f * Double(width * steps)).rounded(.down))
        let full = filled / steps
        let part = filled % steps
        var bar = String(repeating: barFull, count: full)
        var used = full
        if part > 0 && used < width {
            bar += barPartials[part - 1]
            used += 1
        }
        bar += String(repeating: barEmpty, count: width - used)
        return bar
    }
}
