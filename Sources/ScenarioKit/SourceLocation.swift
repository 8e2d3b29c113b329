/// A position in a scenario file.
///
/// Both numbers are 1-based. `column` counts Unicode scalars from the start
/// of the line (not UTF-8 bytes, not grapheme clusters), so a caret printed
/// under a line of plain text lines up for the scripts a scenario uses;
/// a tab counts as one column and is copied into the caret line as a tab.
///
/// Stored in 32 bits each (beyond 2,147,483,647 a number stays there): every
/// token and name of a file carries a position, and a syntax tree of
/// 100,000 operations is a few megabytes smaller for it.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}
