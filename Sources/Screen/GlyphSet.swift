/// The symbols the interface draws with, in one place so that ASCII mode
/// (`--ascii`, or a terminal that cannot show UTF-8) swaps all of them at
/// once. Every glyph is exactly one cell wide in both sets, so layouts do not
/// depend on the set chosen.
public struct GlyphSet: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// Finished successfully.
    public var check: String
    /// Cancelled / failed.
    public var cross: String
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

    public static let unicode = GlyphSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐",
        bottomLeft: "└", bottomRight: "┘", check: "✓", cross: "✗", pointer: "▶",
        bullet: "●", barFull: "█", barEmpty: "░",
        barPartials: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], ellipsis: "…")

    public static let ascii = GlyphSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+",
        bottomLeft: "+", bottomRight: "+", check: "v", cross: "x", pointer: ">",
        bullet: "*", barFull: "#", barEmpty: ".", barPartials: [], ellipsis: "...")

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
