import EventFixtures
import Testing

@testable import TextKit

/// The bounded search answers what the plain definition answers.
@Suite struct SuggestionTests {

    /// Optimal string alignment by its definition: the whole table.
    static func reference(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    static func word(_ generator: inout SplitMix64, alphabet: [Unicode.Scalar], maxLength: Int) -> [Unicode.Scalar] {
        (0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
    }

    @Test func theBoundedDistanceIsTheDistanceWhenItIsWithinTheBound() {
        var generator = SplitMix64(seed: 7)
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", "한"]
        for _ in 0..<4_000 {
            let a = Self.word(&generator, alphabet: alphabet, maxLength: 9)
            let b = Self.word(&generator, alphabet: alphabet, maxLength: 9)
            let exact = Self.reference(a, b)
            #expect(Suggestion.distance(a, b) == exact, "\(a) \(b)")
            for bound in 0...4 {
                let bounded = Suggestion.distance(a, b, atMost: bound)
                #expect(bounded == (exact <= bound ? exact : nil), "\(a) \(b) within \(bound)")
            }
        }
    }

    @Test func theIndexAnswersWhatTheScanAnswers() {
        var generator = SplitMix64(seed: 11)
        let alphabet: [Unicode.Scalar] = ["a", "b", "A", "c"]
        for _ in 0..<600 {
            let candidates = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                String(String.UnicodeScalarView(Self.word(&generator, alphabet: alphabet, maxLength: 7)))
            }
            let word = String(String.UnicodeScalarView(Self.word(&generator, alphabet: alphabet, maxLength: 7)))
            for ignoringCase in [false, true] {
                let index = SuggestionIndex(candidates, ignoringCase: ignoringCase)
                #expect(
                    index.nearest(to: word)
                        == Suggestion.nearest(to: word, in: candidates, ignoringCase: ignoringCase),
                    "\(word) among \(candidates)")
            }
        }
    }

    @Test func tiesGoToTheEarlierCandidateWhateverItsLength() {
        // "fetch" → "fetc" (a deletion) and "fetchx" (an insertion) are
        // both one edit away: the one declared first wins, in either order.
        #expect(SuggestionIndex(["fetchx", "fetc"]).nearest(to: "fetch") == "fetchx")
        #expect(SuggestionIndex(["fetc", "fetchx"]).nearest(to: "fetch") == "fetc")
        #expect(SuggestionIndex(["fetcx", "fetc"]).nearest(to: "fetch") == "fetcx")
        // A nearer later candidate still wins.
        #expect(SuggestionIndex(["fxtcx", "fetc"]).nearest(to: "fetch") == "fetc")
        #expect(SuggestionIndex(["fetch"]).nearest(to: "fetch") == nil)
        #expect(SuggestionIndex([]).nearest(to: "fetch") == nil)
    }

    @Test func longNamesWithOneTypoAreFoundAndFarOnesAreNot() {
        let long = String(repeating: "abcdefghij", count: 1_000)
        var typo = Array(long.unicodeScalars)
        typo[5_000] = "x"
        let misspelt = String(String.UnicodeScalarView(typo))
        let other = String(repeating: "z", count: 10_000)
        #expect(SuggestionIndex([other, long]).nearest(to: misspelt) == long)
        #expect(SuggestionIndex([other]).nearest(to: misspelt) == nil)
        #expect(Suggestion.nearest(to: misspelt, in: [other, long]) == long)
    }
}
