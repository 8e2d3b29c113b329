import Screen

/// Hands out curses colour-pair numbers for (foreground, background)
/// combinations, lazily, in order of first use. Pure bookkeeping: the caller
/// calls `init_pair` when `isNew` is true. Pair 0 is curses' fixed
/// (default, default) pair and is never allocated. When the terminal's
/// pairs run out, further combinations get pair 0: the text stays, the
/// colour is lost, nothing fails.
public struct ColorPairs: Sendable {
    /// Highest pair number + 1 that may be used (curses' `COLOR_PAIRS`).
    public let capacity: Int
    private var numbers: [Key: Int] = [:]

    private struct Key: Hashable, Sendable {
        var foreground: PaletteColor
        var background: PaletteColor
    }

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Pairs allocated so far (not counting pair 0).
    public var count: Int { numbers.count }

    public mutating func pair(foreground: PaletteColor, background: PaletteColor) -> (
        number: Int, isNew: Bool
    ) {
        if foreground == .default && background == .default { return (0, false) }
        let key = Key(foreground: foreground, background: background)
        if let n = numbers[key] { return (n, false) }
        let next = numbers.count + 1
        guard next < capacity else { return (0, false) }
        numbers[key] = next
        return (next, true)
    }

    /// The curses colour number for a palette colour: -1 is the terminal's
    /// default (needs `use_default_colors`), 0…7 the ANSI colours.
    public static func cursesColor(_ color: PaletteColor) -> Int16 {
        color == .default ? -1 : Int16(color.rawValue) - 1
    }
}
