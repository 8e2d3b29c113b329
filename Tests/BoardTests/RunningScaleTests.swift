import Board
import Testing

/// A queue's `running` row: digits up to 9, then one scale of eighth
/// blocks for the whole row, whose top the label says.
@Suite struct RunningScaleTests {
    @Test func digitsWhileNoColumnCountsMoreThanNine() {
        let row = RunningScale.glyphs([0, 1, 9, 3, -1])
        #expect(String(row.glyphs) == " 193 ")
        #expect(row.most == nil)
        #expect(RunningScale.legend(most: row.most) == "")
    }

    @Test func aboveNineTheRowIsDrawnToScaleAndEveryCountStaysVisible() {
        let row = RunningScale.glyphs([0, 1, 12, 24, 23, 3])
        #expect(String(row.glyphs) == " ▁▄██▁")
        #expect(row.most == 24)
        #expect(RunningScale.legend(most: 24) == " █=24")
        // Monotone: a larger count never draws lower.
        let tops = Array(0...200)
        let glyphs = RunningScale.glyphs(tops).glyphs
        let levels = glyphs.map { " ▁▂▃▄▅▆▇█".firstIndex(of: $0)!.utf16Offset(in: " ▁▂▃▄▅▆▇█") }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(glyphs.last == "█" && glyphs[1] == "▁")
    }

    @Test func withoutBlocksCountsAboveNineAreDrawnInTens() {
        let row = RunningScale.glyphs([0, 4, 12, 57, 130], ascii: true)
        #expect(String(row.glyphs) == " .15#")
        #expect(RunningScale.legend(most: row.most, ascii: true) == " x10 max 130")
    }
}
