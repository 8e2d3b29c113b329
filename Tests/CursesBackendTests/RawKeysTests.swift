import Screen
import Testing

@testable import CursesBackend

/// The keys and frames of a stand-in thread that reads and draws without
/// ncurses (the main thread lost in a wait that never returns).
@Suite struct RawKeysTests {
    @Test(
        "bytes decode as the keys they are",
        arguments: [
            ([0x71, 0x51, 0x20], [Key.character("q"), .character("Q"), .character(" ")]),
            ([0x0D, 0x0A, 0x09, 0x7F, 0x08, 0x03], [.enter, .enter, .tab, .backspace, .backspace, .ctrl("c")]),
            ([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x5B, 0x44], [.up, .down, .right, .left]),
            ([0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E, 0x1B, 0x5B, 0x5A], [.pageUp, .pageDown, .shiftTab]),
            ([0xE4, 0xB8, 0xAD, 0x29], [.character("中"), .character(")")]),
            ([0x1B], [.escape]),
            ([0x1B, 0x71], [.escape, .character("q")]),
        ] as [([UInt8], [Key])])
    func decode(_ bytes: [UInt8], _ keys: [Key]) {
        #expect(RawKeyDecoder.keys(bytes) == keys)
    }

    @Test("mouse reports, in either format, and unknown sequences are never keys")
    func mouseIsNoKey() {
        let x10: [UInt8] = [0x1B, 0x5B, 0x4D, 32, 40, 40]
        let sgr = Array("\u{1B}[<0;12;5M\u{1B}[<0;12;5m".utf8)
        let unknown = Array("\u{1B}[15~\u{1B}[99X".utf8)
        #expect(RawKeyDecoder.keys(x10 + sgr + unknown + [0x71]) == [.character("q")])
    }

    @Test("a grid is drawn row by row with its styles; a control character never reaches the terminal")
    func gridEscapes() {
        var grid = CellGrid(columns: 4, rows: 2)
        _ = grid.write("ab", at: Position(column: 0, row: 0), style: Style(foreground: .red, bold: true))
        _ = grid.write("\u{1B}x", at: Position(column: 0, row: 1))
        let text = GridEscapes.text(grid, columns: 4, colors: true)
        #expect(text.contains("\u{1B}[1;1H\u{1B}[0;1;31mab\u{1B}[0m  "))
        #expect(text.contains("\u{1B}[2;1H"))
        #expect(!text.contains("\u{1B}x"))
        #expect(!GridEscapes.text(grid, columns: 4, colors: false).contains(";31m"))
    }
}
