import Testing

@testable import TextKit

/// A real wait as a person reads it: three figures in the largest unit.
@Test(arguments: [
    (0.3, "0.3 seconds"), (1, "1 second"), (45, "45 seconds"), (600, "10 minutes"), (750, "12.5 minutes"),
    (7200, "2 hours"), (1_000_000, "11.6 days"), (1e9, "31.7 years"), (1e15, "over a million years"),
    (.infinity, "over a million years"), (.nan, "over a million years"),
])
func aRealWaitReadsInItsLargestUnit(seconds: Double, text: String) {
    #expect(Spelling.realTime(seconds: seconds) == text)
}
