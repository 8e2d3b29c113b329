import Testing
import TextKit

/// A `Double` made a whole number never traps: what is past the range is
/// the nearest end of it, a NaN is 0.
@Suite struct SaturatingTests {
    @Test(arguments: [
        (0.0, 0), (2.9, 2), (-2.9, -2), (Double.nan, 0), (1e300, Int.max), (-1e300, Int.min),
        (Double.infinity, Int.max), (-Double.infinity, Int.min), (Double.greatestFiniteMagnitude, Int.max),
        (9_223_372_036_854_775_807.0, Int.max), (-9_223_372_036_854_775_808.0, Int.min),
        (9_223_372_036_854_774_784.0, 9_223_372_036_854_774_784),
    ])
    func intsAreHeldToTheirRange(value: Double, expected: Int) {
        #expect(Int(saturating: value) == expected)
    }

    @Test func narrowerAndUnsignedTypesToo() {
        #expect(Int32(saturating: 3e9) == Int32.max)
        #expect(Int32(saturating: -3e9) == Int32.min)
        #expect(Int32(saturating: 2_147_483_647.5) == Int32.max)
        #expect(UInt64(saturating: -1) == 0)
        #expect(UInt64(saturating: 1e20) == UInt64.max)
        #expect(UInt8(saturating: 255.9) == 255)
        #expect(Int64(saturating: 9.2e18) == 9_200_000_000_000_000_000)
    }
}
