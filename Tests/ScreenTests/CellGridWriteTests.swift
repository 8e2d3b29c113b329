import Testing

@testable import Screen

@Suite struct CellGridWriteTests {
    @Test func asciiTextIsWrittenAtItsPosition() {
        var grid = CellGrid(columns: 6, rows: 2)
        let end = grid.write("abc", at: Position(column: 2, row: 1))
        #expect(end == 5)
        #expect(grid.lines == ["      ", "  abc "])
    }

    @Test func cjkAndHangulTakeTwoCellsEach() {
        var grid = CellGrid(columns: 8, rows: 1)
        let end = grid.write("中a한", at: .zero)
        #expect(end == 5)
        #expect(grid.lines == ["中a한   "])
        #expect(grid[0, 0].width == 2)
        #expect(grid[1, 0].isContinuation)
        #expect(grid[4, 0].isContinuation)
    }

    @Test func emojiTakesTwoCells() {
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("🚀x", at: .zero)
        #expect(grid.lines == ["🚀x "])
        #expect(grid[2, 0].text == "x")
    }

    @Test func wideCharacterAtTheRightEdgeBecomesASpace() {
        var grid = CellGrid(columns: 5, rows: 1)
        grid.fill(grid.bounds, with: Cell("."))
        grid.write("ab中", at: Position(column: 2, row: 0))
        #expect(grid.lines == ["..ab "])
    }

    @Test func wideCharacterAtTheClipsRightEdgeBecomesASpace() {
        var grid = CellGrid(columns: 6, rows: 1)
        grid.fill(grid.bounds, with: Cell("."))
        grid.write("中中", at: .zero, clippedTo: Rect(x: 0, y: 0, width: 3, height: 1))
        #expect(grid.lines == ["中 ..."])
    }

    @Test func wideCharacterStraddlingTheClipsLeftEdgeBecomesASpace() {
        var grid = CellGrid(columns: 6, rows: 1)
        grid.fill(grid.bounds, with: Cell("."))
        grid.write("中中", at: .zero, clippedTo: Rect(x: 1, y: 0, width: 5, height: 1))
        #expect(grid.lines == [". 中.."])
    }

    @Test func textStartingLeftOfTheGridIsClipped() {
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("hello", at: Position(column: -2, row: 0))
        #expect(grid.lines == ["llo "])
    }

    @Test func combiningMarksStayWithTheirBase() {
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("e\u{301}x", at: .zero)
        #expect(grid.lines == ["e\u{301}x  "])
        #expect(grid[0, 0].text == "e\u{301}")
        #expect(grid[1, 0].text == "x")
    }

    @Test func aLoneCombiningMarkAttachesToThePreviousCell() {
        var grid = CellGrid(columns: 4, rows: 1)
        // Written separately, U+0301 is its own grapheme cluster after "\u{200B}".
        grid.write("a\u{200B}\u{301}b", at: .zero)
        #expect(grid[0, 0].text == "a\u{200B}\u{301}" || grid[0, 0].text == "a\u{301}")
        #expect(grid[1, 0].text == "b")
    }

    @Test func aLeadingCombiningMarkIsDropped() {
        var grid = CellGrid(columns: 3, rows: 1)
        grid.write("\u{301}a", at: .zero)
        #expect(grid.lines == ["a  "])
    }

    @Test func controlCharactersAreReplaced() {
        var grid = CellGrid(columns: 6, rows: 1)
        grid.write("a\tb\u{1B}c\n", at: .zero)
        #expect(grid.lines == ["a b?c "])
    }

    @Test(arguments: [
        Rect(x: 0, y: 0, width: 0, height: 1),
        Rect(x: 0, y: 0, width: 3, height: 0),
        Rect(x: 10, y: 10, width: 3, height: 3),
    ])
    func writingIntoAnEmptyAreaDrawsNothing(clip: Rect) {
        var grid = CellGrid(columns: 3, rows: 1)
        grid.write("abc", at: .zero, clippedTo: clip)
        grid.fill(clip, with: Cell("#"))
        grid.drawBox(clip, glyphs: .unicode)
        #expect(grid.lines == ["   "])
    }

    @Test func aZeroSizedGridIsSafe() {
        var grid = CellGrid(columns: 0, rows: 0)
        grid.write("abc", at: .zero)
        grid.fill(grid.bounds, with: Cell("#"))
        grid.drawBox(Rect(x: 0, y: 0, width: 5, height: 5), glyphs: .ascii)
        #expect(grid.lines == [])
        #expect(grid.diff(from: CellGrid(columns: 2, rows: 2)) == [])
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("中中", at: .zero)
        grid.write("x", at: Position(column: 1, row: 0))
        #expect(grid.lines == [" x中"])
        grid.write("y", at: Position(column: 2, row: 0))
        #expect(grid.lines == [" xy "])
        #expect(!grid[3, 0].isContinuation)
    }

    @Test func aWideCharacterOverAnOffsetWideCharacterBlanksItsRemainder() {
        var grid = CellGrid(columns: 5, rows: 1)
        grid.write("中中", at: Position(column: 1, row: 0))
        grid.write("한", at: Position(column: 2, row: 0))
        #expect(grid.lines == ["  한 "])
        grid.write("한", at: Position(column: 2, row: 0))
        #expect(grid.lines == ["  한 "])
    }

    @Test func styleIsStoredWithEachCell() {
        var grid = CellGrid(columns: 3, rows: 1)
        let red = Style(foreground: .red, bold: true)
        grid.write("中", at: .zero, style: red)
        #expect(grid[0, 0].style == red)
        #expect(grid[1, 0].style == red)
        #expect(grid[2, 0].style == .plain)
    }

    @Test func fillCoversOnlyTheClippedRectangle() {
        var grid = CellGrid(columns: 4, rows: 3)
        grid.fill(Rect(x: 2, y: 1, width: 5, height: 5), with: Cell("#"))
        #expect(grid.lines == ["    ", "  ##", "  ##"])
    }
}
