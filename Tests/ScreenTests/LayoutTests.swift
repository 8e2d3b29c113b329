import Testing

@testable import Screen

@Suite struct LayoutTests {
    let area = Rect(x: 2, y: 1, width: 80, height: 24)

    @Test func fixedAndRemainingStackVertically() {
        let parts = area.split(.vertical, [.fixed(1), .fixed(3), .fill, .fixed(1)])
        #expect(parts.map(\.height) == [1, 3, 19, 1])
        #expect(parts.map(\.y) == [1, 2, 5, 24])
        let sameColumns = parts.allSatisfy { $0.x == 2 && $0.width == 80 }
        #expect(sameColumns)
    }

    @Test func ratiosAndWeightsShareTheWidth() {
        let parts = area.split(.horizontal, [.ratio(1, 4), .remaining(weight: 2), .remaining(weight: 1)])
        #expect(parts.map(\.width) == [20, 40, 20])
        #expect(parts.map(\.x) == [2, 22, 62])
    }

    @Test func evenSplitGivesExtraCellsToTheFirstParts() {
        let parts = Rect(x: 0, y: 0, width: 17, height: 1).splitEvenly(.horizontal, count: 5)
        #expect(parts.map(\.width) == [4, 4, 3, 3, 3])
        #expect(parts.map(\.x) == [0, 4, 8, 11, 14])
    }

    @Test func oversizedFixedPartsAreClippedAndNothingOverflows() {
        let parts = Rect(x: 0, y: 0, width: 5, height: 2).split(.horizontal, [.fixed(4), .fixed(4), .fill])
        #expect(parts.map(\.width) == [4, 1, 0])
        let maxX = parts.map { $0.maxX }.max()
        #expect(maxX == 5)
    }

    @Test func splittingAnEmptyRectGivesEmptyParts() {
        let parts = Rect.zero.split(.vertical, [.fixed(3), .ratio(1, 2), .fill])
        #expect(parts.count == 3)
        let allEmpty = parts.allSatisfy { $0.isEmpty }
        #expect(allEmpty)
        #expect(Rect.zero.splitEvenly(.horizontal, count: 0) == [])
    }

    @Test func edgeHelpers() {
        let (top, rest) = area.splitTop(1)
        #expect(top == Rect(x: 2, y: 1, width: 80, height: 1))
        #expect(rest == Rect(x: 2, y: 2, width: 80, height: 23))
        let (above, bottom) = area.splitBottom(2)
        #expect(above.height == 22 && bottom == Rect(x: 2, y: 23, width: 80, height: 2))
        let (left, right) = area.splitRight(30)
        #expect(left.width == 50 && right == Rect(x: 52, y: 1, width: 30, height: 24))
        #expect(area.splitLeft(100).left.width == 80)
    }

    @Test func insetNeverGoesNegative() {
        #expect(area.inset(by: 1) == Rect(x: 3, y: 2, width: 78, height: 22))
        let tiny = Rect(x: 0, y: 0, width: 1, height: 1).inset(by: 1)
        #expect(tiny.isEmpty)
        #expect(Rect(x: 0, y: 0, width: -4, height: 2).width == 0)
    }

    @Test func intersectionOfDisjointRectsIsEmpty() {
        let a = Rect(x: 0, y: 0, width: 2, height: 2)
        let b = Rect(x: 5, y: 5, width: 2, height: 2)
        #expect(a.intersection(b).isEmpty)
        #expect(
            a.intersection(Rect(x: 1, y: 1, width: 5, height: 5)) == Rect(x: 1, y: 1, width: 1, height: 1))
    }
}
