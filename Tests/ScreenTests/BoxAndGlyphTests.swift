import Testing
import TextKit

@testable import Screen

@Suite struct BoxAndGlyphTests {
    @Test func unicodeBoxWithTitle() {
        var grid = CellGrid(columns: 10, rows: 4)
        grid.drawBox(grid.bounds, glyphs: .unicode, title: "Ready")
        #expect(
            grid.lines == [
                "┌ Ready ─┐",
                "│        │",
                "│        │",
                "└────────┘",
            ])
    }

    @Test func asciiBoxWithLongTitleIsTruncated() {
        var grid = CellGrid(columns: 10, rows: 3)
        grid.drawBox(grid.bounds, glyphs: .ascii, title: "Executing")
        #expect(
            grid.lines == [
                "+ Exe... +",
                "|        |",
                "+--------+",
            ])
    }

    @Test func boxInsideALargerGridLeavesTheRestAlone() {
        var grid = CellGrid(columns: 6, rows: 4)
        grid.fill(grid.bounds, with: Cell("."))
        grid.drawBox(Rect(x: 1, y: 1, width: 3, height: 3), glyphs: .ascii)
        #expect(grid.lines == ["......", ".+-+..", ".|.|..", ".+-+.."])
    }

    @Test func thinBoxesDegradeToLines() {
        var grid = CellGrid(columns: 4, rows: 3)
        grid.drawBox(Rect(x: 0, y: 0, width: 4, height: 1), glyphs: .ascii)
        grid.drawBox(Rect(x: 0, y: 1, width: 1, height: 2), glyphs: .ascii)
        #expect(grid.lines == ["----", "|   ", "|   "])
    }

    @Test func boxClippedByTheGrid() {
        var grid = CellGrid(columns: 3, rows: 2)
        grid.drawBox(Rect(x: 1, y: 0, width: 5, height: 5), glyphs: .unicode)
        #expect(grid.lines == [" ┌─", " │ "])
    }

    @Test(arguments: [
        (0.0, "░░░░"), (1.0, "████"), (0.5, "██░░"), (0.3, "█▏░░"), (2.0, "████"), (-1.0, "░░░░"),
    ])
    func unicodeProgressBar(fraction: Double, expected: String) {
        #expect(GlyphSet.unicode.progressBar(fraction, width: 4) == expected)
    }

    @Test(arguments: [(0.0, "...."), (0.5, "##.."), (0.3, "#..."), (1.0, "####")])
    func asciiProgressBar(fraction: Double, expected: String) {
        #expect(GlyphSet.ascii.progressBar(fraction, width: 4) == expected)
    }

    @Test func everyGlyphIsOneCellWide() {
        for set in [GlyphSet.unicode, .ascii] {
            let glyphs =
                [
                    set.horizontal, set.vertical, set.topLeft, set.topRight, set.bottomLeft,
                    set.bottomRight, set.check, set.cross, set.pointer, set.bullet,
                    set.barFull, set.barEmpty,
                ] + set.barPartials
            for g in glyphs { #expect(displayWidth(g) == 1, "\(g)") }
        }
    }
}
