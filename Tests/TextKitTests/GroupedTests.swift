import Testing

@testable import TextKit

@Suite struct GroupedTests {
    @Test(arguments: [
        (0, "0"), (999, "999"), (1_000, "1,000"), (65_536, "65,536"), (2_550_000, "2,550,000"),
        (-1_000, "-1,000"), (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func thousandsAreGroupedByCommas(_ n: Int, _ text: String) {
        #expect(Spelling.grouped(n) == text)
    }
}
