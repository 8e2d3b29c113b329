import Foundation

extension CellGrid {
    /// Replaces every cell that is not plain ASCII, so that ASCII mode
    /// writes no other byte whatever the text came from (a scenario's names
    /// and notes are the author's). The views already draw with
    /// `GlyphSet.ascii`; this is the last word, for the text they pass
    /// through. Common punctuation keeps its meaning (`—` → `-`, `…` → `.`,
    /// `“` → `"`), a letter with an accent loses it (`é` → `e`); anything
    /// else becomes `?`, one per cell, so a wide character keeps its two
    /// columns and nothing shifts.
    public mutating func makeASCII() {
        for index in cells.indices {
            let cell = cells[index]
            if cell.isContinuation {
                cells[index] = Cell("?", style: cell.style)
                continue
            }
            guard !cell.text.unicodeScalars.allSatisfy(\.isASCII) else { continue }
            cells[index] = Cell(Self.asciiFallback(for: cell.text), style: cell.style)
        }
    }

    /// One ASCII character that stands for `text` (one grapheme cluster).
    static func asciiFallback(for text: String) -> String {
        guard let first = text.unicodeScalars.first else { return " " }
        switch first {
        case "—", "–", "‒", "―", "─", "━", "·", "•": return "-"
        case "…": return "."
        case "‘", "’", "′": return "'"
        case "“", "”", "″": return "\""
        case "×", "✗", "⊘": return "x"
        case "→", "▶", "►": return ">"
        case "←", "◀": return "<"
        case "↑": return "^"
        case "↓", "✓": return "v"
        case "│", "┃": return "|"
        case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼": return "+"
        case "\u{A0}": return " "
        default:
            if first.isASCII { return String(first) }
            // A letter with an accent: its base letter (canonical decomposition).
            if let base = String(first).decomposedStringWithCanonicalMapping.unicodeScalars.first, base.isASCII,
                base.properties.isAlphabetic
            {
                return String(base)
            }
            return "?"
        }
    }
}
