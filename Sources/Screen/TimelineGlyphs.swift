/// The symbols of the timeline and the thread view, in both sets. Kept
/// beside `GlyphSet` rather than in it: only these two views use them,
/// and `GlyphSet.timeline` picks the set that matches the frame's, so ASCII
/// mode swaps them with the rest. Every one is one cell wide.
struct TimelineGlyphs: Sendable, Hashable {
    /// Added, not ready.
    var pending: String
    /// Ready, waiting for its queue.
    var ready: String
    /// Dispatched by its queue, waiting for a worker thread.
    var dispatched: String
    /// Executing; in the thread view, every other operation on a thread
    /// takes `executingAlternate`, so that two that follow each other
    /// without a gap still read as two.
    var executing: String
    var executingAlternate: String
    /// An execution block of a `blocks` operation.
    var block: String
    /// A completion block ran here.
    var completion: String
    /// An asynchronous operation's `start()` was called here (and returned).
    var start: String
    /// An action or a caption, on the axis.
    var mark: String
    /// The history cursor on the axis, and its line through the lanes.
    var cursorHead: String
    var cursorLine: String
    /// The axis's line and its ticks.
    var rule: String
    var firstTick: String
    var tick: String

    static let unicode = TimelineGlyphs(
        pending: "·", ready: "░", dispatched: "▒", executing: "█", executingAlternate: "▓", block: "▒", completion: "◆",
        start: "▸", mark: "▲",
        cursorHead: "▼", cursorLine: "│", rule: "─", firstTick: "├", tick: "┼")

    static let ascii = TimelineGlyphs(
        pending: ".", ready: "-", dispatched: "~", executing: "#", executingAlternate: "=", block: "%", completion: "*",
        start: ">", mark: "^",
        cursorHead: "V", cursorLine: "|", rule: "-", firstTick: "+", tick: "+")
}

extension GlyphSet {
    /// The timeline's symbols in this set's alphabet.
    var timeline: TimelineGlyphs { isASCII ? .ascii : .unicode }
}

/// The timeline's styles, by the colours of the board's columns (Ready
/// cyan, Executing yellow, Finished green, Cancelled red), so that a span
/// reads as the column its card was in. Without colours the glyphs alone
/// tell the states apart.
extension Theme {
    private func hue(_ style: Style, _ color: PaletteColor) -> Style {
        colors ? style.with(foreground: color) : style
    }

    var pendingSpan: Style { dim }
    var readySpan: Style { hue(.plain, .cyan) }
    var dispatchedSpan: Style { hue(Style.plain.bolded, .cyan) }
    var executingSpan: Style { hue(.plain, .yellow) }
    /// An operation's name written inside its span (the thread view).
    var spanLabel: Style { hue(Style.plain.reversed, .yellow) }
    var finishedEnd: Style { hue(Style.plain.bolded, .green) }
    var cancelledEnd: Style { hue(Style.plain.bolded, .red) }
    var completionMark: Style { hue(Style.plain.bolded, .green) }
    /// A queue's running count where it reached the cap.
    var capReached: Style { hue(Style.plain.reversed.bolded, .yellow) }
    var runningCount: Style { hue(.plain, .yellow) }
    var timeMark: Style { hue(Style.plain.bolded, .cyan) }
    var cursorLine: Style { hue(Style.plain.bolded, .magenta) }
}
