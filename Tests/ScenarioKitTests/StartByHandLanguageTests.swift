import Testing

@testable import ScenarioKit

/// `at TIME start OP`: what it reads as, every diagnostic it adds (pinned
/// in full, with the caret's place), the canonical print and the Swift
/// program.
@Suite struct StartByHandLanguageTests {
    static let lesson = """
        queue net
        op token on net work 400ms
        op fetch work 300ms after token completion
        op parse on net work 200ms after fetch
        at 100ms start fetch
        at 600ms start fetch
        """

    @Test func theMainThreadStartsAnOperationNoQueueHolds() throws {
        let scenario = try #require(
            clean("queue net\nop a on net work 1s\nop b work 300ms\nop c on net work 1s after b\nat 1s start b"))
        let b = OperationID(1)
        #expect(scenario.actions.map(\.action) == [.start(b)])
        #expect(scenario.startedByHand == [b])
        #expect(scenario.addedAtStart == [OperationID(0), OperationID(2)], "never added")
        #expect(scenario.addedLater.isEmpty)
        #expect(scenario.actions[0].action.isMainThreadCall)
        #expect(!scenario.actions[0].action.isMainThreadWait, "a call, not a wait")
        #expect(scenario.actions[0].action.queue == nil)
        #expect(ScenarioPrinter.actionText(scenario.actions[0].action, in: scenario) == "start b")
    }

    static let diagnostics: [DiagnosticCase] = [
        .init(
            "start of an operation an add also adds", "queue q\nop a on q work 1s\nat 1s add a\nat 2s start a",
            [
                "4:13 error: 'a' is started by hand and added to a queue | it is added on line 3; Foundation stops the program either way: start() of an operation in a queue stops it (something is trying to start the receiver simultaneously from more than one thread), and so does adding one that start() finished | an operation started by hand belongs to no queue: leave out the 'add' or the 'start'"
            ]),
        .init(
            "start of a barrier", "queue q\nbarrier b on q\nat 1s start b",
            [
                "3:13 error: 'b' is a barrier: it cannot be started by hand | addBarrierBlock gives no operation to call start() on: its queue runs the block"
            ]),
        .init(
            "start in a completion", "queue q\nop a on q work 1s completion start b\nop b work 1s",
            [
                "2:30 error: a completion block cannot 'start' | 'start' is a call of the main thread (start() by hand); a completion block runs on another thread | a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE | use 'at TIME start …' instead"
            ]),
        .init(
            "start of a synchronous operation with dependencies",
            "queue q\nop a on q work 1s\nop z on q work 1s\nop b work 1s after a, z\nat 1s start b\nat 3s start b",
            [
                "5:13 warning: 'b' is started by hand but waits for 'a' and 'z' | Foundation's start() stops the program on an operation that is not ready (receiver is not yet ready to execute) | opscope does not call start() before then: the run says so where it refuses the call"
            ]),
        .init(
            "start of an asynchronous operation with a dependency",
            "queue q\nop a on q work 1s\nop b async 1s after a\nat 1s start b",
            [
                "4:13 warning: 'b' is started by hand but waits for 'a' | 'b' is asynchronous: its own start() does not look at isReady, and would begin before 'a' finished | opscope does not call start() before then: the run says so where it refuses the call"
            ]),
        .init(
            "a second start of an asynchronous operation", "op b async 1s\nat 1s start b\nat 1500ms start b",
            [
                "3:17 warning: 'b' is started by hand again (first on line 2), and it is asynchronous | while it still executes, its own start() would begin its work a second time: opscope does not call it then, and says so | once it finished, start() does nothing"
            ]),
        .init(
            "an on that puts an operation started by hand nowhere",
            "queue q\nqueue r\nop z on q work 1s\nop a on r work 1s\nat 1s start a",
            [
                "4:9 warning: 'on r' has no effect: 'a' is started by hand | an operation started by hand is never added to a queue: the main thread calls its start()"
            ]),
        .init(
            "start of an unknown operation", "op fetch work 1s\nat 1s start fech",
            ["2:13 error: unknown operation 'fech' | did you mean 'fetch'?"]),
        .init("start without a name", "op a work 1s\nat 1s start", ["2:12 error: expected a name after 'start'"]),
    ]

    @Test(arguments: diagnostics)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        let hasError = c.expected.contains { $0.contains(" error: ") }
        #expect((result.scenario == nil) == hasError)
    }

    @Test func aSecondStartOfASynchronousOperationIsNoWarning() throws {
        // Foundation's start() on a finished operation does nothing.
        _ = try #require(clean("op a work 1s\nat 1s start a\nat 3s start a"))
    }

    @Test func theCaretIsUnderTheOperationStarted() {
        let file = SourceFile(path: "t.ops", text: "op a work 1s\nbarrier b\nat 1s start b\n")
        let rendered = DiagnosticPrinter().renderAll(ScenarioReader.read(file), file: file, color: false)
        #expect(
            rendered == """
                t.ops:3:13: error: 'b' is a barrier: it cannot be started by hand
                at 1s start b
                            ^
                note: addBarrierBlock gives no operation to call start() on: its queue runs the block

                """)
    }

    /// Read back equal in `ScenarioPrinterTests.printedScenarioReadsBackEqual`.
    static let roundTrips = [
        lesson,
        "queue q\nqueue r\nop a on r async 1s\nat 1s start a\nat 3s start a",
        "op a work 1s\nop b work 1s after a\nat 0ms start a\nat 1s cancel b\nat 2s start b",
    ]

    @Test func anOperationStartedByHandIsPrintedWithoutTheQueueItIsNotIn() throws {
        let scenario = try #require(ScenarioReader.read(Self.lesson).scenario)
        let printed = ScenarioPrinter().source(for: scenario)
        #expect(printed.contains("op fetch work 300ms after token completion\n"), "\(printed)")
        #expect(printed.contains("at 100ms start fetch\nat 600ms start fetch\n"), "\(printed)")
    }

    @Test func theSwiftProgramStartsItOnTheMainThreadAndNeverAddsIt() throws {
        let text = try SwiftProgramPrinterTests().program(Self.lesson)
        #expect(text.contains("func startByHand(_ operation: Operation) {"))
        #expect(text.contains("DispatchQueue.main.async {\n            startByHand(fetch)"), "\(text)")
        #expect(!text.contains("addOperation(fetch)"), "an operation started by hand is never added")
        #expect(text.contains("netQueue.addOperation(token)") || text.contains("net.addOperation(token)"), "\(text)")
        #expect(text.contains(#"startedByHand: ["fetch"],"#), "\(text)")
        #expect(text.contains("fetch.addDependency(token)"))
    }
}
