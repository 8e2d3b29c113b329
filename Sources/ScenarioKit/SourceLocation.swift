/// A position in a scenario file.
///
/// Both numbers are 1-based. `column` counts Unicode scalars from the start
/// of the line (not UTF-8 bytes, not grapheme clusters), so a caret printed
/// under a line of plain text lines up for the scripts a scenario uses;
/// a tab counts as one column and is copied into the caret line as a tab.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}
