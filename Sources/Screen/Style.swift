/// The small colour palette the interface uses. `.default` is the terminal's
/// own foreground or background, so the interface follows the user's theme;
/// the others are the eight ANSI colours every colour terminal has.
public enum PaletteColor: UInt8, Sendable, Hashable, CaseIterable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks: colours and attributes. A value; the backend maps it to
/// a colour pair and curses attributes. In no-colour mode the backend drops
/// the colours and keeps the attributes, so styles must stay readable then
/// (use `reverse` for selection, not a background colour alone).
public struct Style: Hashable, Sendable {
    public var foreground: PaletteColor
    public var background: PaletteColor
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        foreground: PaletteColor = .default, background: PaletteColor = .default,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default look.
    public static let plain = Style()

    public func with(foreground: PaletteColor) -> Style {
        var s = self
        s.foreground = foreground
        return s
    }
    public func with(background: PaletteColor) -> Style {
        var s = self
        s.background = background
        return s
    }
    public var bolded: Style {
        var s = self
        s.bold = true
        return s
    }
    public var dimmed: Style {
        var s = self
        s.dim = true
        return s
    }
    public var reversed: Style {
        var s = self
        s.reverse = true
        return s
    }
    public var underlined: Style {
        var s = self
        s.underline = true
        return s
    }
}
