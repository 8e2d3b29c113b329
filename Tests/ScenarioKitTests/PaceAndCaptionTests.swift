import Testing

@testable import ScenarioKit

/// `speed X` and the captions (`at TIME say`, `when OP MOMENT say`): what
/// they read as, every diagnostic they add (pinned in full, with its
/// position), and the canonical print.
@Suite struct PaceAndCaptionTests {
    // MARK: Speed

    @Test(arguments: [
        ("0.5", 0.5), ("1", 1.0), ("2.5", 2.5), ("0.125", 0.125), ("64", 64.0), ("64.000", 64.0), ("007", 7.0),
        ("0.3", 0.3),
    ])
    func speeds(_ text: String, _ value: Double) throws {
        let scenario = try #require(clean("title \"t\"\nspeed \(text)\nop a work 1s"))
        #expect(scenario.speed == value)
    }

    @Test func aScenarioWithoutSpeedHasNone() throws {
        #expect(try #require(clean("op a work 1s")).speed == nil)
    }

    @Test func theSpeedMayComeAnywhereInTheFile() throws {
        #expect(try #require(clean("op a work 1s\nat 1s cancel a\nspeed 4")).speed == 4)
    }

    @Test(arguments: [
        (1.0, "1"), (0.5, "0.5"), (0.125, "0.125"), (64.0, "64"), (2.5, "2.5"), (0.1, "0.1"), (10.0, "10"),
    ])
    func speedsPrintInTheirShortestForm(_ speed: Double, _ text: String) {
        #expect(ScenarioPrinter.speedText(speed) == text)
    }

    @Test func theRangeIsTheInteractiveViewsOwn() {
        #expect(Scenario.speedRange == 0.125...64)
    }

    @Test func upToPromisesTheExpectationsUpToASpeedAndPrintsBack() throws {
        let scenario = try #require(clean("speed 1 up to 4\nop a work 1s"))
        #expect(scenario.speed == 1)
        #expect(scenario.promisedUpTo == 4)
        #expect(ScenarioPrinter().source(for: scenario).hasPrefix("speed 1 up to 4\n"))
        #expect(try #require(clean("speed 2 up to 2\nop a work 1s")).promisedUpTo == 2)
        #expect(try #require(clean("speed 0.5 up to 1000\nop a work 1s")).promisedUpTo == 1000)
        #expect(try #require(clean("speed 0.5\nop a work 1s")).promisedUpTo == nil)
    }

    // MARK: Captions

    @Test func bothFormsOfCaptionInFileOrder() throws {
        let scenario = try #require(
            clean(
                """
                op fetch work 1s
                op parse work 400ms after fetch
                at 2s say "second, by time"
                when parse starts say "parse \\"starts\\" now"
                at 500ms say "first, by time"
                at 500ms cancel parse
                """))
        let parse = OperationID(1)
        #expect(
            scenario.captions == [
                Caption(trigger: .at(.seconds(2)), text: "second, by time", location: Loc(line: 3, column: 1)),
                Caption(
                    trigger: .when(parse, .starts), text: "parse \"starts\" now", location: Loc(line: 4, column: 1)),
                Caption(trigger: .at(ms(500)), text: "first, by time", location: Loc(line: 5, column: 1)),
            ])
        // Captions are not engine actions.
        #expect(
            scenario.actions == [TimedAction(time: ms(500), action: .cancel(parse), location: Loc(line: 6, column: 1))])
        #expect(scenario.captions.map(\.time) == [.seconds(2), nil, ms(500)])
    }

    @Test func timedCaptionsAreInTimeOrderWithTiesInFileOrder() throws {
        let scenario = try #require(
            clean(
                "op a work 1s\nat 2s say \"c\"\nwhen a starts say \"w\"\nat 1s say \"a\"\nat 2s say \"d\"\nat 1s say \"b\""
            ))
        #expect(scenario.timedCaptions.map(\.text) == ["a", "b", "c", "d"])
        #expect(scenario.captions.map(\.text) == ["c", "w", "a", "d", "b"])
    }

    @Test(arguments: CaptionMoment.allCases)
    func everyMoment(_ moment: CaptionMoment) throws {
        let scenario = try #require(
            clean("op a work 1s\nbarrier b\nwhen b \(moment.rawValue) say \"x\"\nat 1s cancel-all default"))
        #expect(scenario.captions.map(\.trigger) == [.when(OperationID(1), moment)])
    }

    @Test func momentWordsAreTheLanguagesWords() {
        #expect(CaptionMoment.allCases.map(\.rawValue) == ["ready", "starts", "finishes", "cancelled"])
    }

    @Test func aCaptionMayNameALaterOperationAndOneAddedLater() throws {
        let scenario = try #require(clean("when b finishes say \"done\"\nop b work 1s\nat 1s add b"))
        #expect(scenario.captions.map(\.trigger) == [.when(OperationID(0), .finishes)])
        #expect(scenario.addedLater == [OperationID(0)])
    }

    @Test func aCaptionContinuesOnTheNextLine() throws {
        let scenario = try #require(clean("op a work 1s\nwhen a \\\n    ready \\\n    say \"ready\""))
        #expect(
            scenario.captions == [
                Caption(trigger: .when(OperationID(0), .ready), text: "ready", location: Loc(line: 2, column: 1))
            ])
    }

    @Test(arguments: [
        "op a work 1s\nat 1s cancel a\nwhen a cancelled say \"c\"",
        "queue q\nop a work 1s\nat 1s cancel-all q\nwhen a cancelled say \"c\"",
        "op a work 1s\nop b work 1s completion cancel a\nwhen a cancelled say \"c\"",
        "queue q\nqueue r\nop a on q work 1s\nop b on r work 1s completion cancel-all q\nwhen a cancelled say \"c\"",
        "queue q\nbarrier b\nop a work 1s\nat 1s cancel-all q\nwhen b cancelled say \"c\"",
    ])
    func aCancelledCaptionWithSomethingThatCancelsHasNoWarning(_ source: String) throws {
        #expect(try #require(clean(source)).captions.count == 1)
    }

    @Test func markersInSourceMatchPositions() {
        let marked = MarkedSource(
            """
            speed 100
            ~     ^
            speed 2x
            ~     ^
            queue net
            op fetch on net work 1s
            at 1s sya "x"
            ~     ^
            at 2s say "a" "b"
            ~             ^
            when fech finishes say "x"
            ~    ^
            when fetch finsihes say "x"
            ~          ^
            when fetch cancelled say ""
            ~          ^             ^
            """)
        let result = read(marked.text)
        #expect(result.diagnostics.map(\.location) == marked.markers)
        #expect(
            result.diagnostics.map(\.message) == [
                "speed must be between 0.125 and 64, not 100", "a speed has no unit, found '2x'",
                "unknown action 'sya'",
                "unexpected '\"b\"' after the caption's text", "unknown operation 'fech'", "unknown moment 'finsihes'",
                "nothing in this file cancels 'fetch': this caption shows only if you cancel it by hand",
                "the caption has no text",
            ])
    }

    static let speedNote = "speed 1 is real time, 0.5 half as fast, 2 twice as fast"
    static let promisedNote = "'speed 1 up to 4' opens at 1 and promises the expectations at any speed up to 4"

    static let speedDiagnostics: [DiagnosticCase] = [
        .init("speed too high", "speed 100", ["1:7 error: speed must be between 0.125 and 64, not 100 | \(speedNote)"]),
        .init("speed too low", "speed 0.1", ["1:7 error: speed must be between 0.125 and 64, not 0.1 | \(speedNote)"]),
        .init("speed of zero", "speed 0", ["1:7 error: speed must be between 0.125 and 64, not 0 | \(speedNote)"]),
        .init("negative speed", "speed -2", ["1:7 error: speed must be between 0.125 and 64, not -2 | \(speedNote)"]),
        .init(
            "huge speed", "speed 99999999999999999999999",
            ["1:7 error: speed must be between 0.125 and 64, not 99999999999999999999999 | \(speedNote)"]),
        .init("speed without a number", "speed", ["1:6 error: 'speed' needs a number such as 0.5 | \(speedNote)"]),
        .init("speed with a word", "speed fast", ["1:7 error: 'speed' needs a number such as 0.5 | \(speedNote)"]),
        .init("speed with a string", "speed \"2\"", ["1:7 error: 'speed' needs a number such as 0.5 | \(speedNote)"]),
        .init(
            "speed in seconds", "speed 2s",
            ["1:7 error: a speed has no unit, found '2s' | write 'speed 2' | \(speedNote)"]),
        .init(
            "speed with an x", "speed 0.5x",
            ["1:7 error: a speed has no unit, found '0.5x' | write 'speed 0.5' | \(speedNote)"]),
        .init("extra token after the speed", "speed 2 please", ["1:9 error: unexpected 'please' in 'speed' statement"]),
        .init(
            "two speeds", "speed 2\nop a work 1s\nspeed 0.5",
            ["3:1 error: a scenario has at most one speed | the first speed is on line 1"]),
        .init(
            "up to below the speed", "speed 2 up to 1",
            ["1:15 error: 'up to' must be between 2 (the speed) and 1000, not 1 | \(promisedNote)"]),
        .init(
            "up to beyond trace's fastest", "speed 1 up to 5000",
            ["1:15 error: 'up to' must be between 1 (the speed) and 1000, not 5000 | \(promisedNote)"]),
        .init(
            "up to without a number", "speed 1 up to",
            ["1:14 error: 'up to' needs the fastest speed its expectations hold at, such as 4 | \(promisedNote)"]),
        .init(
            "up to with a word", "speed 1 up to fast",
            ["1:15 error: 'up to' needs the fastest speed its expectations hold at, such as 4 | \(promisedNote)"]),
        .init("up without to", "speed 1 up 4", ["1:12 error: expected 'to' after 'up', found '4'"]),
        .init(
            "up to with a unit", "speed 1 up to 4x",
            ["1:15 error: a speed has no unit, found '4x' | write 'speed 4' | \(speedNote)"]),
        .init("misspelt speed statement", "spede 2", ["1:1 error: unknown statement 'spede' | did you mean 'speed'?"]),
    ]

    static let captionDiagnostics: [DiagnosticCase] = [
        .init("misspelt say", "at 1s sya \"x\"", ["1:7 error: unknown action 'sya' | did you mean 'say'?"]),
        .init("say without text", "at 1s say", ["1:10 error: expected a quoted string after 'say'"]),
        .init(
            "say with a word", "at 1s say hello", ["1:11 error: expected a quoted string after 'say', found 'hello'"]),
        .init("empty caption", "at 1s say \"\"", ["1:11 error: the caption has no text"]),
        .init("blank caption", "op a work 1s\nwhen a starts say \"  \"", ["2:19 error: the caption has no text"]),
        .init(
            "two strings", "at 1s say \"a\" \"b\"",
            [
                "1:15 error: unexpected '\"b\"' after the caption's text | a caption is one quoted string: put all of its text inside the quotes"
            ]),
        .init(
            "word after the text", "op a work 1s\nwhen a ready say \"a\" now",
            [
                "2:22 error: unexpected 'now' after the caption's text | a caption is one quoted string: put all of its text inside the quotes"
            ]),
        .init("negative caption time", "at -1s say \"x\"", ["1:4 error: durations cannot be negative"]),
        .init(
            "caption time without unit", "at 5 say \"x\"", ["1:4 error: duration '5' has no unit | write '5ms' or '5s'"]
        ),
        .init("when alone", "when", ["1:5 error: expected a name after 'when'"]),
        .init(
            "when with a time", "when 1s say \"x\"",
            [
                "1:6 error: expected an operation after 'when', found '1s' | a caption at a time is written 'at 1s say \"…\"'"
            ]),
        .init(
            "when without a moment", "op a work 1s\nwhen a",
            ["2:7 error: expected ready, starts, finishes or cancelled after 'a'"]),
        .init(
            "when with say for a moment", "op a work 1s\nwhen a say \"x\"",
            ["2:8 error: expected ready, starts, finishes or cancelled after 'a', found 'say'"]),
        .init(
            "misspelt moment", "op a work 1s\nwhen a finsihes say \"x\"",
            ["2:8 error: unknown moment 'finsihes' | did you mean 'finishes'?"]),
        .init(
            "past tense of starts", "op a work 1s\nwhen a started say \"x\"",
            ["2:8 error: unknown moment 'started' | did you mean 'starts'?"]),
        .init(
            "unknown moment", "op a work 1s\nwhen a explodes say \"x\"",
            ["2:8 error: unknown moment 'explodes' | moments are ready, starts, finishes and cancelled"]),
        .init("when without say", "op a work 1s\nwhen a finishes", ["2:16 error: expected 'say' after 'finishes'"]),
        .init(
            "when with a misspelt say", "op a work 1s\nwhen a finishes sya \"x\"",
            ["2:17 error: expected 'say' after 'finishes', found 'sya'"]),
        .init(
            "when with the text but no say", "op a work 1s\nwhen a finishes \"x\"",
            ["2:17 error: expected 'say' after 'finishes', found '\"x\"'"]),
        .init(
            "when without text", "op a work 1s\nwhen a finishes say",
            ["2:20 error: expected a quoted string after 'say'"]),
        .init(
            "unknown operation", "op fetch work 1s\nwhen fech starts say \"x\"",
            ["2:6 error: unknown operation 'fech' | did you mean 'fetch'?"]),
        .init(
            "unknown operation suggests only operations",
            "queue fetches\nop fetch on fetches work 1s\nwhen fetchs starts say \"x\"",
            ["3:6 error: unknown operation 'fetchs' | did you mean 'fetch'?"]),
        .init(
            "unknown operation, nothing near", "op a work 1s\nwhen zzz starts say \"x\"",
            ["2:6 error: unknown operation 'zzz'"]),
        .init(
            "queue where an operation is needed", "queue q\nop a work 1s\nwhen q starts say \"x\"",
            ["3:6 error: 'q' is a queue, not an operation"]),
        .init(
            "misspelt when statement", "wehn a starts say \"x\"",
            ["1:1 error: unknown statement 'wehn' | did you mean 'when'?"]),
    ]

    static let cancelledWarnings: [DiagnosticCase] = [
        .init(
            "nothing cancels the operation", "op parse work 1s\nwhen parse cancelled say \"parse was cancelled\"",
            [
                "2:12 warning: nothing in this file cancels 'parse': this caption shows only if you cancel it by hand | add 'at TIME cancel parse' to cancel it"
            ]),
        .init(
            "only another operation is cancelled",
            "op a work 1s\nop b work 1s\nat 1s cancel b\nwhen a cancelled say \"x\"",
            [
                "4:8 warning: nothing in this file cancels 'a': this caption shows only if you cancel it by hand | add 'at TIME cancel a' to cancel it"
            ]),
        .init(
            "only another queue is cancelled",
            "queue q\nqueue r\nop a on q work 1s\nop b on r work 1s completion cancel-all r\nwhen a cancelled say \"x\"",
            [
                "5:8 warning: nothing in this file cancels 'a': this caption shows only if you cancel it by hand | add 'at TIME cancel a' to cancel it"
            ]),
        .init(
            "nothing cancels the barrier",
            "queue disk\nop a work 1s\nbarrier flush on disk\nwhen flush cancelled say \"x\"",
            [
                "4:12 warning: nothing in this file cancels 'flush': this caption shows only if you cancel it by hand | a barrier is cancelled with its queue: add 'at TIME cancel-all disk' to cancel it"
            ]),
        .init(
            "the main queue ignores cancel-all",
            "queue ui main\nop a on ui work 1s\nat 1s cancel-all ui\nwhen a cancelled say \"x\"",
            [
                "3:7 warning: the main queue ignores 'cancel-all' | OperationQueue.main ignores cancelAllOperations() on this Foundation",
                "4:8 warning: nothing in this file cancels 'a': this caption shows only if you cancel it by hand | add 'at TIME cancel a' to cancel it",
            ]),
        .init(
            "other moments need no canceller",
            "op a work 1s\nwhen a ready say \"r\"\nwhen a starts say \"s\"\nwhen a finishes say \"f\"", []),
    ]

    @Test(arguments: speedDiagnostics + captionDiagnostics + cancelledWarnings)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        let hasError = c.expected.contains { $0.contains(" error: ") }
        #expect((result.scenario == nil) == hasError)
    }

    // MARK: Printing

    @Test func canonicalTextOfSpeedAndCaptions() throws {
        let scenario = try #require(
            clean(
                """
                op fetch work 1s
                at 1s say "after the cancel, whatever the line order"
                when fetch finishes    say "fetch is done"
                at 1s   cancel fetch
                speed 007
                at 1s say "last at 1s"
                title "Captions"
                note "n"
                at 500ms say "first"
                when fetch ready say "ready \\"now\\""
                at 2s say "after everything"
                """))
        #expect(
            ScenarioPrinter().source(for: scenario) == """
                title "Captions"
                note "n"
                speed 7

                op fetch work 1s

                when fetch finishes say "fetch is done"
                when fetch ready say "ready \\"now\\""

                at 500ms say "first"
                at 1s cancel fetch
                at 1s say "after the cancel, whatever the line order"
                at 1s say "last at 1s"
                at 2s say "after everything"

                """)
    }

    @Test func inABuiltScenarioActionsComeBeforeCaptionsOfTheirTime() {
        let scenario = Scenario(
            queues: [QueueSpec(name: "q")],
            operations: [OperationSpec(name: "a", queue: QueueID(0), body: .work(ms(1)))],
            actions: [TimedAction(time: ms(10), action: .cancel(OperationID(0)))],
            captions: [Caption(trigger: .at(ms(10)), text: "x"), Caption(trigger: .at(.zero), text: "y")], speed: 0.25)
        #expect(
            ScenarioPrinter().source(for: scenario) == """
                speed 0.25

                queue q

                op a on q work 1ms

                at 0ms say "y"
                at 10ms cancel a
                at 10ms say "x"

                """)
    }

    /// Printed and read back by `ScenarioPrinterTests`.
    static let roundTrips = [
        "speed 0.125\nop a work 1s\nat 1s say \"a\"\nat 1s cancel a\nat 1s say \"b\"\nwhen a cancelled say \"c\"",
        "title \"t\"\nspeed 64\nqueue q\nbarrier b on q\nop a on q work 1s completion cancel-all q\nwhen b ready say \"\\\\ and \\\" and 日本語\"\nwhen a starts say \"s\"\nat 0ms say \"zero\"",
        "at 3s say \"only captions\"\nat 1s say \"earlier\"\nspeed 2.5",
    ]

    @Test func withoutLocationsClearsTheCaptionLocationsAndPutsThemInPrintOrder() throws {
        let scenario = try #require(
            clean(
                "op a work 1s\nat 2s say \"t2\"\nwhen a starts say \"s\"\nat 1s say \"t1\"\nat 1s say \"t1 again\"\n"
                    + "when a ready say \"r\""))
        let zero = Loc(line: 0, column: 0)
        #expect(
            scenario.withoutLocations.captions == [
                Caption(trigger: .when(OperationID(0), .starts), text: "s", location: zero),
                Caption(trigger: .when(OperationID(0), .ready), text: "r", location: zero),
                Caption(trigger: .at(.seconds(1)), text: "t1", location: zero),
                Caption(trigger: .at(.seconds(1)), text: "t1 again", location: zero),
                Caption(trigger: .at(.seconds(2)), text: "t2", location: zero),
            ])
    }
}
