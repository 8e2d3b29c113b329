/// One cell of a `CellGrid`: one grapheme cluster and its style.
///
/// A wide character (2 columns) is stored in its left cell with `width == 2`;
/// the cell to its right is a *continuation* cell (`width == 0`, empty text,
/// same style) that the backend never writes on its own. The grid keeps this
/// pairing intact: overwriting either half of a wide character blanks the
/// other half.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown, including combining marks; `""` for a
    /// continuation cell.
    public var text: String
    public var style: Style
    /// Columns this cell's text occupies: 1 (narrow), 2 (wide, lead cell),
    /// 0 (continuation cell of the wide character to its left).
    public var width: UInt8

    public init(_ text: String = " ", style: Style = .plain, width: UInt8 = 1) {
        self.text = text
        self.style = style
        self.width = width
    }

    /// A space in the default style: what an empty grid holds.
    public static let blank = Cell()

    /// A space with `style` (for filling backgrounds).
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }

    /// The right half of a wide character.
    public static func continuation(_ style: Style) -> Cell { Cell("", style: style, width: 0) }

    public var isContinuation: Bool { width == 0 }
    public var isWide: Bool { width == 2 }
}
