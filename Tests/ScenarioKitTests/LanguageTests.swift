import Testing

@testable import ScenarioKit

/// Every construct of the language, read without diagnostics.
@Suite struct LanguageTests {
    @Test(arguments: [
        ("0ms", Duration.zero), ("250ms", .milliseconds(250)), ("1.5s", .milliseconds(1500)),
        ("2s", .seconds(2)), ("0.5ms", .microseconds(500)), ("1.000000001s", .nanoseconds(1_000_000_001)),
        ("0.1s", .milliseconds(100)), ("1.50000000000s", .milliseconds(1500)), ("007ms", .milliseconds(7)),
    ])
    func durations(_ text: String, _ expected: Duration) throws {
        let scenario = try #require(clean("op a work \(text)"))
        #expect(scenario.operations[0].body == .work(expected))
    }

    @Test func implicitDefaultQueue() throws {
        let scenario = try #require(clean("op a work 1s"))
        #expect(scenario.queues == [QueueSpec(name: "default")])
        #expect(scenario.operations[0].queue == QueueID(0))
    }

    @Test func operationsWithoutOnGoToTheFirstDeclaredQueue() throws {
        let scenario = try #require(clean("queue first\nqueue second\nop a work 1s\nop b on second work 1s\nbarrier c"))
        #expect(scenario.operations.map(\.queue) == [QueueID(0), QueueID(1), QueueID(0)])
    }

    @Test func queueOptions() throws {
        let scenario = try #require(
            clean(
                """
                queue a max 3 qos background suspended
                queue b default qos userInteractive
                queue c serial
                queue d main default
                op w on a work 1s
                op x on b work 1s
                op y on c work 1s
                op z on d work 1s
                at 1s resume a
                """))
        #expect(scenario.queues.map(\.cap) == [.limit(3), .systemDefault, .limit(1), .systemDefault])
        #expect(scenario.queues.map(\.qos) == [.background, .userInteractive, nil, nil])
        #expect(scenario.queues.map(\.startsSuspended) == [true, false, false, false])
        #expect(scenario.queues.map(\.isMain) == [false, false, false, true])
    }

    @Test func operationClausesInAnyOrder() throws {
        let scenario = try #require(
            clean(
                """
                queue q
                op a work 1s
                op b after a ignores-cancel qos background completion priority veryLow on q async 2s
                op c never-finishes async 10ms
                """))
        let b = scenario.operations[1]
        #expect(b.body == .async(.seconds(2)))
        #expect(b.dependencies == [OperationID(0)])
        #expect(b.priority == .veryLow)
        #expect(b.qos == .background)
        #expect(b.completion == [])
        #expect(b.ignoresCancel)
        #expect(!b.neverFinishes)
        #expect(scenario.operations[2].neverFinishes)
        #expect(scenario.operations[0].completion == nil)
    }

    @Test func blockBodies() throws {
        let scenario = try #require(clean("op a blocks 100ms, 200ms ,1s\nop b blocks 2 x 5ms\nop c blocks 7ms"))
        #expect(
            scenario.operations.map(\.body) == [
                .blocks([ms(100), ms(200), .seconds(1)]), .blocks([ms(5), ms(5)]), .blocks([ms(7)]),
            ])
    }

    @Test func barriers() throws {
        let scenario = try #require(clean("queue q\nqueue r\nop a on r work 1s\nbarrier b\nbarrier c work 100ms on r"))
        #expect(scenario.operations[1].body == .barrier(.zero))
        #expect(scenario.operations[1].queue == QueueID(0))
        #expect(scenario.operations[2].body == .barrier(ms(100)))
        #expect(scenario.operations[2].queue == QueueID(1))
        #expect(scenario.operations[2].isBarrier)
    }

    @Test func actionsOfEveryKindSortedByTimeWithTiesInFileOrder() throws {
        let scenario = try #require(
            clean(
                """
                queue q
                op a work 1s
                op b work 1s
                at 3s add b
                at 1s cancel a
                at 2s cancel-all q
                at 1s suspend q
                at 1.5s resume q
                at 0ms max q 4
                at 2s max q default
                at 1s priority a veryHigh
                """))
        let q = QueueID(0)
        #expect(
            scenario.actions.map(\.action) == [
                .setCap(q, .limit(4)), .cancel(OperationID(0)), .suspend(q), .setPriority(OperationID(0), .veryHigh),
                .resume(q), .cancelAll(q), .setCap(q, .systemDefault), .add(OperationID(1)),
            ])
        #expect(scenario.actions.map(\.location.line) == [9, 5, 7, 11, 8, 6, 10, 4])
        #expect(scenario.addedLater == [OperationID(1)])
    }

    @Test func claimsOfEveryKind() throws {
        let scenario = try #require(
            clean(
                """
                queue q
                op a work 1s
                op b work 1s
                op c work 1s
                expect a before b
                expect order a ,b,  c
                expect concurrent a, b
                expect peak q 0
                expect finished a
                expect cancelled b
                expect skipped c
                expect stuck a
                """))
        let (a, b, c) = (OperationID(0), OperationID(1), OperationID(2))
        #expect(
            scenario.expectations.map(\.claim) == [
                .before(a, b), .order([a, b, c]), .concurrent([a, b]), .peak(QueueID(0), 0), .finished(a),
                .cancelled(b), .skipped(c), .stuck(a),
            ])
        #expect(
            scenario.expectations.map(\.text) == [
                "a before b", "order a, b, c", "concurrent a, b", "peak q 0", "finished a", "cancelled b",
                "skipped c", "stuck a",
            ])
        #expect(scenario.expectations[1].location == Loc(line: 6, column: 1))
    }

    @Test func claimWordsCanBeOperationNamesBeforeBefore() throws {
        let scenario = try #require(clean("op order work 1s\nop stuck work 1s\nexpect order before stuck"))
        #expect(scenario.expectations[0].claim == .before(OperationID(0), OperationID(1)))
    }

    @Test func notesAndTitle() throws {
        let scenario = try #require(clean("title \"T\"\nnote \"one\"\nnote \"two\"\nop a work 1s"))
        #expect(scenario.title == "T")
        #expect(scenario.notes == ["one", "two"])
    }

    @Test func stringEscapesAndHashInsideStrings() throws {
        let scenario = try #require(clean(#"note "say \"hi\" \\ # not a comment" # a comment"# + "\nop a work 1s"))
        #expect(scenario.notes == [#"say "hi" \ # not a comment"#])
    }

    @Test func commentsAndBlankLinesAreIgnored() throws {
        let scenario = try #require(clean("# heading\n\n   \nop a work 1s # trailing\n\t# indented\n"))
        #expect(scenario.operations.count == 1)
    }

    @Test func continuationLinesKeepTruePositions() throws {
        let source = """
            queue q
            op a work 1s
            op b on q \\
                 work 1s \\   # a comment after the backslash
                 after a
            op c work 1s after b, \\
                 zz
            """
        let result = read(source)
        #expect(describeAll(result) == ["7:6 error: unknown operation 'zz'"])
        let scenario = try #require(clean(String(source.split(separator: "\n").dropLast(2).joined(separator: "\n"))))
        #expect(scenario.operations[1].dependencies == [OperationID(0)])
        #expect(scenario.operations[1].body == .work(.seconds(1)))
    }

    @Test func backslashAtEndOfFileEndsTheStatement() throws {
        let scenario = try #require(clean("op a work 1s \\"))
        #expect(scenario.operations.count == 1)
    }

    @Test func forwardReferencesAreAllowed() throws {
        let scenario = try #require(clean("op b work 1s after a\nop a work 1s"))
        #expect(scenario.operations[0].dependencies == [OperationID(1)])
    }

    @Test func dependenciesMayNameBarriersAndOtherQueues() throws {
        let scenario = try #require(clean("queue q\nqueue r\nbarrier flush on q\nop a on r work 1s after flush"))
        #expect(scenario.operations[1].dependencies == [OperationID(0)])
    }

    @Test func emptyFileIsAnEmptyScenario() throws {
        let scenario = try #require(clean(""))
        #expect(scenario.operations.isEmpty)
        #expect(scenario.queues.map(\.name) == ["default"])
    }
}
