import Testing

@testable import ScenarioKit

@Suite struct ScenarioPrinterTests {
    @Test(arguments: [
        (Duration.zero, "0ms"), (.milliseconds(300), "300ms"), (.milliseconds(1500), "1.5s"), (.seconds(1), "1s"),
        (.microseconds(500), "0.5ms"), (.microseconds(1_000_001), "1.000001s"), (.milliseconds(59_990), "59.99s"),
        (.nanoseconds(1), "0.000001ms"), (.milliseconds(999), "999ms"), (.seconds(3600), "3600s"),
    ])
    func durationsPrintInTheirShortestForm(_ duration: Duration, _ text: String) {
        #expect(ScenarioPrinter.format(duration) == text)
    }

    @Test func stringsAreQuotedWithTheirEscapes() {
        #expect(ScenarioPrinter.quoted(#"a "b" \ c"#) == #""a \"b\" \\ c""#)
    }

    @Test func canonicalTextOfTheReferenceExample() throws {
        let scenario = try #require(clean(ReferenceExampleTests.source))
        #expect(
            ScenarioPrinter().source(for: scenario) == """
                title "Download, parse, save"
                note "Parsing waits for the download: watch it sit in Pending."

                queue net max 2 qos utility
                queue disk serial
                queue ui main

                op fetch on net work 1.2s priority high qos userInitiated
                op thumbs on net blocks 3 x 300ms
                op parse on net work 400ms after fetch completion
                op upload on net async 2s after parse
                op save on disk work 300ms after parse, thumbs ignores-cancel
                op render on ui work 50ms after save
                barrier flush on disk work 100ms

                at 500ms cancel thumbs
                at 2s suspend net
                at 3s resume net
                at 3s max net 4

                expect fetch before parse
                expect peak net 2
                expect cancelled thumbs

                """)
    }

    static let rich: [String] = [
        ReferenceExampleTests.source,
        "op a work 1s",
        "",
        "op default work 1s\nbarrier b work 1ms\nat 1s suspend default\nat 2s resume default\nexpect finished default",
        "queue default\nop a on default work 1s",
        """
        title "quotes \\" and \\\\ and # hash, 日本語"
        note "n1"
        note ""
        queue q default qos background suspended
        queue r max 7
        queue m main
        barrier first
        op a on r blocks 1ms, 2.5ms, 1s after first, z priority veryLow completion
        op z async 0ms never-finishes qos default
        op b on m work 0.000001ms
        op c blocks 1 x 2s on q ignores-cancel
        barrier last on r
        at 10s add last
        at 0ms resume q
        at 0ms max r default
        at 1ms priority a veryHigh
        at 2s cancel-all r
        at 3s suspend r
        at 4s resume r
        at 4s cancel c
        expect order a, b, c
        expect concurrent a,b
        expect skipped c
        expect stuck z
        expect finished b
        expect peak r 3
        """,
    ]

    /// Every clause, pace and caption, completion action and quiz prints
    /// as text that reads back as the same scenario.
    @Test(
        arguments: rich + PaceAndCaptionTests.roundTrips + TeachingLanguageTests.roundTrips
            + StartByHandLanguageTests.roundTrips + HazardTests.roundTrips)
    func printedScenarioReadsBackEqual(_ source: String) throws {
        let first = try #require(ScenarioReader.read(source).scenario)
        let printed = ScenarioPrinter().source(for: first)
        let second = try #require(ScenarioReader.read(printed).scenario, "\(printed)")
        #expect(second.withoutLocations == first.withoutLocations)
        #expect(ScenarioPrinter().source(for: second) == printed)
    }

    @Test func theImplicitQueueStaysImplicit() throws {
        let scenario = try #require(clean("op a work 1s\nbarrier b"))
        #expect(ScenarioPrinter().source(for: scenario) == "op a work 1s\nbarrier b\n")
        let declared = try #require(clean("queue default\nop a work 1s"))
        #expect(ScenarioPrinter().source(for: declared) == "queue default\n\nop a on default work 1s\n")
    }

    @Test func withoutLocationsClearsEveryLocation() throws {
        let scenario = try #require(clean(ReferenceExampleTests.source)).withoutLocations
        let zero = Loc(line: 0, column: 0)
        #expect(scenario.queues.allSatisfy { $0.location == zero })
        #expect(scenario.operations.allSatisfy { $0.location == zero })
        #expect(scenario.actions.allSatisfy { $0.location == zero })
        #expect(scenario.expectations.allSatisfy { $0.location == zero })
    }
}
