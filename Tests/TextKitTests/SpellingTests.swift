import Testing
import TextKit

/// One spelling for each kind of thing the project writes.
@Suite struct SpellingTests {
    @Test(arguments: [
        (0.5, "500ms"), (1.0, "1s"), (1.5, "1.5s"), (0.25, "250ms"), (12.0, "12s"), (1.25, "1.25s"),
        (0.0004, "0ms"), (-1, "0ms"), (Double.nan, "0ms"), (Double.infinity, "0ms"),
    ])
    func durationsMeasuredByARunAreSpeltAsTheLanguageSpellsThem(seconds: Double, text: String) {
        #expect(Spelling.duration(seconds: seconds) == text)
    }

    @Test(arguments: [
        (Duration.milliseconds(250), "250ms"), (.nanoseconds(500_000), "0.5ms"), (.seconds(1), "1s"),
        (.milliseconds(1250), "1.25s"), (.nanoseconds(1_000_001_000), "1.000001s"), (.zero, "0ms"),
    ])
    func durationsAsTheLanguageWritesThem(duration: Duration, text: String) {
        #expect(Spelling.duration(duration) == text)
    }

    @Test func momentsListsAndCounts() {
        #expect(Spelling.seconds(1.2005) == "1.201s")
        #expect(Spelling.secondsNumber(0) == "0.000")
        #expect(Spelling.secondsNumber(-3) == "0.000")
        #expect(Spelling.secondsNumber(.infinity) == "0.000")
        #expect(Spelling.secondsNumber(1e20) == "999999999999.999")
        #expect(Spelling.list([]) == "nothing")
        #expect(Spelling.list(["a"]) == "a")
        #expect(Spelling.list(["a", "b"]) == "a and b")
        #expect(Spelling.list(["a", "b", "c"]) == "a, b and c")
        #expect(Spelling.count(1, "operation") == "1 operation")
        #expect(Spelling.count(3, "operation") == "3 operations")
    }

    @Test(arguments: [
        ("ep07", "ep07's"), ("net", "net's"), ("downloads", "downloads'"), ("jobs", "jobs'"),
        ("IOS", "IOS'"), ("box", "box's"), ("", "'s"),
    ])
    func aPossessiveOfANameEndingInSTakesOnlyTheApostrophe(name: String, text: String) {
        #expect(Spelling.possessive(name) == text)
    }

    @Test func naturalOrderCountsTheNumbersInNames() {
        let names = ["decode10", "decode2", "decode1", "decode", "a01", "a1", "b", "a", "décode", "x9y", "x10y"]
        #expect(
            names.sorted(by: NaturalOrder.precedes) == [
                "a", "a01", "a1", "b", "decode", "decode1", "decode2", "decode10", "décode", "x9y", "x10y",
            ])
        #expect(NaturalOrder.compare("ep07", "ep7") != 0)
        #expect(NaturalOrder.compare("ep07", "ep07") == 0)
        #expect(NaturalOrder.compare("", "a") < 0)
        #expect(NaturalOrder.compare("99999999999999999999998", "99999999999999999999999") < 0)
    }

    @Test func suggestionsFindTheNearestCloseName() {
        #expect(Suggestion.nearest(to: "fech", in: ["fetch", "parse"]) == "fetch")
        #expect(Suggestion.nearest(to: "FECH", in: ["fetch", "parse"]) == nil)
        #expect(Suggestion.nearest(to: "FECH", in: ["fetch", "parse"], ignoringCase: true) == "fetch")
        #expect(Suggestion.nearest(to: "Parse", in: ["fetch", "parse"], ignoringCase: true) == "parse")
        #expect(Suggestion.nearest(to: "a", in: ["b"]) == nil)
        #expect(Suggestion.nearest(to: "zzzzzz", in: ["fetch"]) == nil)
    }
}
