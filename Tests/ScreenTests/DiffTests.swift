import Testing

@testable import Screen

@Suite struct DiffTests {
    @Test func identicalGridsHaveNoRuns() {
        var grid = CellGrid(columns: 5, rows: 2)
        grid.write("hello", at: .zero)
        #expect(grid.diff(from: grid) == [])
    }

    @Test func changedCellsFormOneRunPerStretch() {
        let old = CellGrid(columns: 8, rows: 2)
        var new = old
        new.write("ab", at: Position(column: 1, row: 0))
        new.write("c", at: Position(column: 5, row: 0))
        new.write("d", at: Position(column: 7, row: 1))
        let runs = new.diff(from: old)
        #expect(runs.map { [$0.row, $0.column] } == [[0, 1], [0, 5], [1, 7]])
        #expect(runs.map(\.text) == ["ab", "c", "d"])
    }

    @Test func aStyleChangeAloneIsAChange() {
        var old = CellGrid(columns: 3, rows: 1)
        old.write("abc", at: .zero)
        var new = old
        new.setStyle(Style(reverse: true), in: Rect(x: 1, y: 0, width: 1, height: 1))
        let runs = new.diff(from: old)
        #expect(runs.count == 1)
        #expect(runs.first?.column == 1)
        #expect(runs.first?.text == "b")
    }

    @Test func runsIncludeWholeWideCharacters() {
        var old = CellGrid(columns: 6, rows: 1)
        old.write("中中", at: .zero)
        var new = old
        new.setStyle(Style(bold: true), in: Rect(x: 3, y: 0, width: 1, height: 1))
        let runs = new.diff(from: old)
        #expect(runs.count == 1)
        #expect(runs.first?.column == 2)
        #expect(runs.first?.cells.count == 2)
        #expect(runs.first?.text == "中")
    }

    @Test func aSizeChangeRedrawsEveryRow() {
        let old = CellGrid(columns: 3, rows: 1)
        var new = CellGrid(columns: 2, rows: 2)
        new.write("ab", at: .zero)
        let runs = new.diff(from: old)
        #expect(
            runs == [
                CellRun(row: 0, column: 0, cells: [Cell("a"), Cell("b")]),
                CellRun(row: 1, column: 0, cells: [.blank, .blank]),
            ])
    }
}
