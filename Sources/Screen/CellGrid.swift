import TextKit

/// An off-screen grid of cells, `size.columns` × `size.rows`, the frame a view
/// renders into. Pure value: views draw a whole frame into a fresh grid, the
/// backend compares it with the previous one (`diff(from:)`) and writes only
/// what changed. Every operation clips to the grid, so drawing out of bounds
/// or into empty rectangles is safe and draws nothing.
public struct CellGrid: Hashable, Sendable {
    public let size: Size
    /// Row-major, `size.columns * size.rows` cells.
    public internal(set) var cells: [Cell]

    public init(size: Size, filling cell: Cell = .blank) {
        self.size = size
        let fill = cell.width == 1 ? cell : .blank
        self.cells = Array(repeating: fill, count: size.columns * size.rows)
    }

    public init(columns: Int, rows: Int) {
        self.init(size: Size(columns: columns, rows: rows))
    }

    public var width: Int { size.columns }
    public var height: Int { size.rows }
    /// The whole grid as a rectangle at (0, 0).
    public var bounds: Rect { Rect(size: size) }

    /// The cell at a 0-based column and row; a blank for positions outside.
    public subscript(column: Int, row: Int) -> Cell {
        guard column >= 0, column < width, row >= 0, row < height else { return .blank }
        return cells[row * width + column]
    }

    /// The rows as text, for tests and snapshots: continuation cells are
    /// skipped, so a wide character reads as itself, not followed by a space.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                let cell = cells[row * width + column]
                if !cell.isContinuation { line += cell.text }
            }
            return line
        }
    }

    // MARK: - Writing

    /// Writes `text` on one row starting at `position` (0-based cells), laid
    /// out by `CharacterWidth`, and clipped to `clip` ∩ the grid (the whole
    /// grid when `nil`). Returns the column just past the last cell the text
    /// would occupy without clipping, so calls can be chained on a line.
    ///
    /// - Wide characters take two cells; one that would straddle the clip's
    ///   left or right edge is replaced by a space in the half that is inside.
    /// - A zero-width character (a combining mark on its own) is attached to
    ///   the previous character written by this call, or dropped if there is
    ///   none. Marks already inside a grapheme cluster stay with it.
    /// - Control characters are replaced: tab, newline and carriage return by
    ///   a space, others by `?`, so a name can never move the cursor.
    @discardableResult
    public mutating func write(
        _ text: String, at position: Position, style: Style = .plain, clippedTo clip: Rect? = nil
    ) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        let row = position.row
        var column = position.column
        guard !area.isEmpty, row >= area.minY, row < area.maxY else {
            return column + displayWidth(text)
        }
        var lastWritten: Int? = nil  // column of the previous cell written by this call
        for ch in text {
            var shown = String(ch)
            var w: Int
            if let cw = CharacterWidth.of(ch), !ch.unicodeScalars.contains(where: TerminalText.isControl) {
                w = cw
            } else {
                shown = ch.isNewline || ch == "\t" ? " " : "?"
                w = 1
            }
            if w == 0 {
                if let last = lastWritten { cells[row * width + last].text += shown }
                continue
            }
            defer { column += w }
            if column + w <= area.minX || column >= area.maxX { continue }
            if w == 2 && (column < area.minX || column + 1 >= area.maxX) {
                // Straddles an edge: blank the half that is inside.
                let inside = column < area.minX ? column + 1 : column
                put(Cell.blank(style), at: inside, row: row)
                lastWritten = nil
                continue
            }
            put(Cell(shown, style: style, width: UInt8(w)), at: column, row: row)
            lastWritten = column
        }
        return column
    }

    /// Sets every cell of `rect` (clipped) to `cell` (which must be narrow;
    /// a wide cell fills with blanks of its style).
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        let fill = cell.width == 1 ? cell : Cell.blank(cell.style)
        for row in area.minY..<area.maxY {
            for column in area.minX..<area.maxX { put(fill, at: column, row: row) }
        }
    }

    /// Changes only the style of the cells in `rect` (e.g. to highlight a
    /// selected card after drawing it), keeping their text.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let area = rect.intersection(bounds)
        for row in area.minY..<area.maxY {
            for column in area.minX..<area.maxX { cells[row * width + column].style = style }
        }
    }

    /// Stores one cell (a wide one with its continuation), keeping wide
    /// characters whole: a wide character partly overwritten loses its other
    /// half, which becomes a blank. Positions outside the grid are ignored.
    mutating func put(_ cell: Cell, at column: Int, row: Int) {
        guard column >= 0, column < width, row >= 0, row < height else { return }
        let index = row * width + column
        breakPair(at: index, column: column)
        if cell.isWide {
            guard column + 1 < width else {
                cells[index] = .blank(cell.style)
                return
            }
            breakPair(at: index + 1, column: column + 1)
            cells[index] = cell
            cells[index + 1] = .continuation(cell.style)
        } else {
            cells[index] = cell
        }
    }

    /// If the cell at `index` is half of a wide character, blanks the other half.
    private mutating func breakPair(at index: Int, column: Int) {
        let old = cells[index]
        if old.isContinuation, column > 0, cells[index - 1].isWide {
            cells[index - 1] = .blank(cells[index - 1].style)
        } else if old.isWide, column + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = .blank(old.style)
        }
    }
}
