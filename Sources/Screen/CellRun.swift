/// A horizontal run of consecutive changed cells on one row, what the
/// backend writes in one go. `column` and `row` are 0-based cells. A run
/// never starts or ends inside a wide character: it begins on a narrow or
/// lead cell and includes the continuation of any wide cell it holds.
public struct CellRun: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var cells: [Cell]

    public init(row: Int, column: Int, cells: [Cell]) {
        self.row = row
        self.column = column
        self.cells = cells
    }

    /// The run's text (continuation cells skipped), for tests.
    public var text: String { cells.filter { !$0.isContinuation }.map(\.text).joined() }
}

extension CellGrid {
    /// The runs of cells that differ between `previous` and this grid, row by
    /// row, left to right. If the sizes differ, every row is one run of the
    /// whole row (the terminal was resized; everything must be redrawn).
    public func diff(from previous: CellGrid) -> [CellRun] {
        guard previous.size == size else {
            return (0..<height).compactMap { row in
                width == 0
                    ? nil
                    : CellRun(row: row, column: 0, cells: Array(cells[(row * width)..<((row + 1) * width)]))
            }
        }
        var runs: [CellRun] = []
        for row in 0..<height {
            let base = row * width
            var column = 0
            while column < width {
                guard cells[base + column] != previous.cells[base + column] else {
                    column += 1
                    continue
                }
                // Start of a run; widen left onto the lead of a wide char.
                var start = column
                if cells[base + start].isContinuation && start > 0 { start -= 1 }
                var end = column + 1  // exclusive
                while end < width && cells[base + end] != previous.cells[base + end] { end += 1 }
                // Widen right onto the continuation of a wide char.
                if end < width && cells[base + end].isContinuation { end += 1 }
                if let last = runs.last, last.row == row, last.column + last.cells.count >= start {
                    // Overlaps the previous run after widening: merge.
                    runs[runs.count - 1].cells = Array(cells[(base + last.column)..<(base + end)])
                } else {
                    runs.append(
                        CellRun(row: row, column: start, cells: Array(cells[(base + start)..<(base + end)])))
                }
                column = end
            }
        }
        return runs
    }
}
