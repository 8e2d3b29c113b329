import Testing

@testable import ScenarioKit

/// Completion actions and `quiz`: what they read as, every diagnostic
/// they add (pinned in full), and the canonical print.
@Suite struct TeachingLanguageTests {
    // MARK: Completion actions

    @Test(arguments: [
        ("completion cancel-all q", [Action.cancelAll(QueueID(0))]),
        ("completion cancel b", [.cancel(OperationID(1))]),
        ("completion suspend q", [.suspend(QueueID(0))]),
        ("completion resume q", [.resume(QueueID(0))]),
        ("completion", []),
    ])
    func completionActions(_ clause: String, _ expected: [Action]) throws {
        let scenario = try #require(clean("queue q\nop a work 1s \(clause)\nop b work 1s\nat 2s resume q"))
        #expect(scenario.operations[0].completion == expected)
        #expect(scenario.operations[1].completion == nil)
    }

    @Test func aPlainCompletionStillTakesClausesAfterIt() throws {
        let scenario = try #require(clean("op a work 1s completion priority high\nop b work 1s completion after a"))
        #expect(scenario.operations[0].completion == [])
        #expect(scenario.operations[0].priority == .high)
        #expect(scenario.operations[1].completion == [])
        #expect(scenario.operations[1].dependencies == [OperationID(0)])
    }

    @Test func theSeedArticleCancelsTheQueueFromTheFifthCompletion() throws {
        let scenario = try #require(
            clean(
                """
                queue downloads max 2
                op e1 work 100ms
                op e2 work 100ms
                op e3 work 100ms
                op e4 work 100ms
                op e5 work 100ms completion cancel-all downloads
                op e6 work 100ms
                op e7 work 100ms
                """))
        #expect(scenario.operations[4].completion == [.cancelAll(QueueID(0))])
    }

    @Test func completionActionsCanNameLaterDeclarations() throws {
        let scenario = try #require(clean("op a work 1s completion cancel b\nop b work 2s"))
        #expect(scenario.operations[0].completion == [.cancel(OperationID(1))])
    }

    @Test func aCompletionResumeCountsAsAResume() throws {
        // The suspended queue is resumed by a completion block: no warning.
        let scenario = try #require(
            clean("queue q suspended\nqueue r\nop a on r work 1s completion resume q\nop b on q work 1s"))
        #expect(scenario.operations[0].completion == [.resume(QueueID(0))])
    }

    @Test func theMainThreadWaitsForAnOperationOrAQueue() throws {
        let scenario = try #require(
            clean("queue ui main\nqueue net\nop a on net work 1s\nop b on ui work 1s\nat 1s wait a\nat 2s wait-all net")
        )
        #expect(scenario.actions.map(\.action) == [.wait(OperationID(0)), .waitAll(QueueID(1))])
        #expect(scenario.actions.allSatisfy { $0.action.isMainThreadWait })
        #expect(ScenarioPrinter.actionText(scenario.actions[1].action, in: scenario) == "wait-all net")
    }

    @Test func aSynchronousMainCanLeaveWorkRunning() throws {
        let scenario = try #require(clean("op a work 100ms leaves 1s\nop b work 1s after a"))
        #expect(scenario.leftover(of: OperationID(0)) == .seconds(1))
        #expect(scenario.leftover(of: OperationID(1)) == nil)
        #expect(ScenarioPrinter().source(for: scenario).contains("op a work 100ms leaves 1s"))
    }

    @Test func anAsynchronousOperationCanForgetOnlyWhenCancelledEarly() throws {
        let scenario = try #require(clean("op a async 1s never-finishes if-cancelled\nop b async 1s never-finishes"))
        #expect(scenario.forgetsIfCancelled == [OperationID(0)])
        #expect(!scenario.operations[0].neverFinishes, "it finishes on every other path")
        #expect(scenario.operations[1].neverFinishes)
        #expect(ScenarioPrinter().source(for: scenario).contains("op a async 1s never-finishes if-cancelled"))
    }

    static let completionDiagnostics: [DiagnosticCase] = [
        .init(
            "leaves on an asynchronous operation", "op a async 1s leaves 2s",
            [
                "1:15 error: 'leaves' needs a 'work' body | 'work D leaves D2': a synchronous main() that starts D2 of work of its own and returns without waiting for it; an asynchronous operation waits for its work by posting isFinished"
            ]),
        .init(
            "wait in a completion", "queue q\nop a work 1s completion wait b\nop b work 1s",
            [
                "2:25 error: a completion block cannot 'wait' | 'wait' is a wait of the main thread; a completion block runs on another thread | a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE | use 'at TIME wait …' instead"
            ]),
        .init(
            "misspelt completion action", "queue q\nop a work 1s completion cancel-al q",
            ["2:25 error: unknown completion action 'cancel-al' | did you mean 'cancel-all'?"]),
        .init(
            "unknown completion action", "queue q\nop a work 1s completion explode q",
            [
                "2:25 error: unknown completion action 'explode' | a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE"
            ]),
        .init(
            "misspelt clause after completion", "op a work 1s completion prority high",
            ["1:25 error: unknown clause 'prority' | did you mean 'priority'?"]),
        .init(
            "max in a completion", "queue q\nop a work 1s completion max q 2",
            [
                "2:25 error: a completion block cannot 'max' | a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE | use 'at TIME max …' instead"
            ]),
        .init(
            "add in a completion", "op a work 1s completion add b\nop b work 1s\nat 1s add b",
            [
                "1:25 error: a completion block cannot 'add' | a completion block can cancel OP, cancel-all QUEUE, suspend QUEUE or resume QUEUE | use 'at TIME add …' instead"
            ]),
        .init(
            "two actions with a comma",
            "queue q\nqueue r\nop a on q work 1s completion cancel-all q, r\nop b on r work 1s",
            [
                "3:42 error: 'completion' takes one action | use 'at TIME' actions, or another operation's completion, for more"
            ]),
        .init(
            "two actions one after the other", "queue q\nop a work 1s completion cancel-all q suspend q",
            [
                "2:38 error: 'completion' takes one action | use 'at TIME' actions, or another operation's completion, for more"
            ]),
        .init(
            "action without completion", "queue q\nop a work 1s cancel-all q",
            [
                "2:14 error: 'cancel-all' is an action, not a clause | write 'completion cancel-all …' to have the completion block do it"
            ]),
        .init(
            "completion action without its name", "op a work 1s completion cancel",
            ["1:31 error: expected a name after 'cancel'"]),
        .init(
            "unknown queue in a completion", "queue downloads\nop a work 1s completion cancel-all downlods",
            ["2:36 error: unknown queue 'downlods' | did you mean 'downloads'?"]),
        .init(
            "unknown operation in a completion", "op fetch work 1s\nop a work 1s completion cancel fech",
            ["2:32 error: unknown operation 'fech' | did you mean 'fetch'?"]),
        .init(
            "operation where a queue is needed", "op a work 1s completion suspend a",
            ["1:33 error: 'a' is an operation, not a queue"]),
        .init(
            "queue where an operation is needed", "queue q\nop a work 1s completion cancel q",
            ["2:32 error: 'q' is a queue, not an operation"]),
        .init(
            "cancel a barrier from a completion", "op a work 1s completion cancel b\nbarrier b",
            [
                "1:32 error: 'b' is a barrier: it cannot be cancelled on its own | 'cancel-all QUEUE' cancels a barrier that has not started"
            ]),
        .init(
            "completion given twice", "queue q\nop a work 1s completion cancel-all q completion",
            ["2:38 error: 'completion' is given twice | first given at line 2, column 14"]),
        .init(
            "completion on a barrier", "op a work 1s\nbarrier b completion cancel a",
            [
                "2:11 error: 'completion' is not allowed on a barrier | a barrier takes only 'on QUEUE' and 'work DURATION'"
            ]),
        .init(
            "main queue ignores completion actions",
            "queue ui main\nop a on ui work 1s completion cancel-all ui\nop b on ui work 1s completion suspend ui\nop c on ui work 1s completion resume ui",
            [
                "2:31 warning: the main queue ignores 'cancel-all' | OperationQueue.main ignores cancelAllOperations() on this Foundation",
                "3:31 warning: the main queue ignores 'suspend' | OperationQueue.main ignores isSuspended on this Foundation",
                "4:31 warning: the main queue ignores 'resume' | OperationQueue.main ignores isSuspended on this Foundation",
            ]),
        .init(
            "cancels itself", "op a work 1s completion cancel a",
            [
                "1:32 warning: 'a' cancels itself in its own completion block | the completion block runs after 'a' finished: cancel() does nothing then"
            ]),
        .init(
            "suspended by a completion, never resumed", "queue q\nop a work 1s completion suspend q\nop b work 1s",
            ["2:25 warning: queue 'q' is suspended here and never resumed afterwards | its operations will stall"]),
        .init(
            "suspended by a completion, resumed by an action",
            "queue q\nop a work 1s completion suspend q\nat 5s resume q", []),
        .init(
            "suspended by an action, resumed by a completion",
            "queue q\nqueue r\nop a on q work 1s\nop b on r work 1s completion resume q\nat 0ms suspend q",
            []),
    ]

    // MARK: Quiz

    @Test(arguments: QuizKind.allCases.filter { ![.together, .completions, .columns].contains($0) })
    func quizKinds(_ kind: QuizKind) throws {
        let scenario = try #require(clean("op a work 1s\n\nquiz \"Which starts first?\" answer \(kind.rawValue)"))
        #expect(scenario.quiz == Quiz(question: "Which starts first?", kind: kind, location: Loc(line: 3, column: 1)))
    }

    @Test func quizKindsWithOperations() throws {
        let source = "op a work 1s completion\nop b work 1s completion\nquiz \"Q\" answer "
        let together = try #require(clean(source + "together b, a"))
        #expect(together.quiz?.kind == .together)
        #expect(together.quiz?.operands == [OperationID(1), OperationID(0)])
        let before = try #require(clean(source + "completions before b"))
        #expect(before.quiz?.kind == .completions)
        #expect(before.quiz?.operands == [OperationID(1)])
        #expect(try #require(clean(source + "completions")).quiz?.operands == [])
        let columns = try #require(clean(source + "columns at 1.5s"))
        #expect(columns.quiz?.kind == .columns)
        #expect(columns.quiz?.moment == .milliseconds(1500))
        #expect(columns.quiz?.operands == [])
    }

    @Test func aScenarioWithoutQuizHasNone() throws {
        #expect(try #require(clean("op a work 1s")).quiz == nil)
    }

    @Test func theQuizMayComeAnywhereInTheFile() throws {
        let scenario = try #require(clean("quiz \"a \\\"b\\\"?\" answer final-state\nop a work 1s"))
        #expect(scenario.quiz?.question == "a \"b\"?")
    }

    static let quizDiagnostics: [DiagnosticCase] = [
        .init(
            "two quizzes", "op a work 1s\nquiz \"a?\" answer start-order\nquiz \"b?\" answer final-state",
            ["3:1 error: a scenario has at most one quiz | the first quiz is on line 2"]),
        .init("quiz without a question", "quiz", ["1:5 error: expected a quoted string after 'quiz'"]),
        .init(
            "quiz with a word for a question", "quiz which answer start-order",
            ["1:6 error: expected a quoted string after 'quiz', found 'which'"]),
        .init("empty question", "quiz \" \" answer start-order", ["1:6 error: the quiz has no question"]),
        .init(
            "quiz without answer", "quiz \"Which first?\"",
            [
                "1:20 error: expected 'answer' after the question | write 'answer KIND', KIND being one of start-order, final-state, peak, counts, main-thread, completions, together, columns"
            ]),
        .init(
            "quiz without the word answer", "quiz \"Which first?\" start-order",
            [
                "1:21 error: expected 'answer' after the question, found 'start-order' | write 'answer KIND', KIND being one of start-order, final-state, peak, counts, main-thread, completions, together, columns"
            ]),
        .init(
            "quiz without a kind", "quiz \"Which first?\" answer",
            [
                "1:27 error: expected start-order, final-state, peak, counts, main-thread, completions, together or columns after 'answer'"
            ]),
        .init(
            "misspelt kind", "quiz \"Which first?\" answer start-ordr",
            ["1:28 error: unknown kind of answer 'start-ordr' | did you mean 'start-order'?"]),
        .init(
            "unknown kind", "quiz \"Which first?\" answer everything",
            [
                "1:28 error: unknown kind of answer 'everything' | a quiz asks for one of start-order, final-state, peak, counts, main-thread, completions, together, columns"
            ]),
        .init(
            "columns without a moment", "quiz \"Where?\" answer columns",
            [
                "1:29 error: 'columns' needs a moment: 'columns at TIME' | the question asks how many operations sit in each column at that moment: answer columns at 450ms"
            ]),
        .init(
            "columns with a word for a moment", "quiz \"Where?\" answer columns soon",
            [
                "1:30 error: 'columns' needs a moment: 'columns at TIME', not 'soon' | the question asks how many operations sit in each column at that moment: answer columns at 450ms"
            ]),
        .init(
            "columns at no time", "quiz \"Where?\" answer columns at",
            ["1:32 error: expected a duration after 'at'"]),
        .init(
            "extra token after the quiz", "quiz \"Which first?\" answer final-state now",
            ["1:40 error: unexpected 'now' in 'quiz' statement"]),
        .init(
            "together with one name", "op a work 1s\nquiz \"Q\" answer together a",
            ["2:17 error: 'together' names two operations, not 1 | ask about one pair: answer together fetch, parse"]),
        .init(
            "together with three names", "op a work 1s\nop b work 1s\nop c work 1s\nquiz \"Q\" answer together a, b, c",
            ["4:17 error: 'together' names two operations, not 3 | ask about one pair: answer together fetch, parse"]),
        .init(
            "together with one name twice", "op a work 1s\nquiz \"Q\" answer together a, a",
            ["2:29 error: 'together' names 'a' twice: ask about two different operations"]),
        .init(
            "together with a barrier", "op a work 1s\nbarrier b on default\nquiz \"Q\" answer together a, b",
            ["3:29 error: 'b' is a barrier: the quiz asks about operations"]),
        .init(
            "together with a misspelt name", "op fetch work 1s\nop b work 1s\nquiz \"Q\" answer together fecth, b",
            ["3:26 error: unknown operation 'fecth' | did you mean 'fetch'?"]),
        .init(
            "completions without blocks", "op a work 1s\nquiz \"Q\" answer completions",
            [
                "2:1 error: no operation has a completion block: 'completions' asks about completion blocks | give an operation one: op fetch work 1s completion"
            ]),
        .init(
            "completions before the only block", "op a work 1s completion\nquiz \"Q\" answer completions before a",
            [
                "2:1 error: no operation other than 'a' has a completion block: 'completions' asks about completion blocks | give an operation one: op fetch work 1s completion"
            ]),
        .init(
            "completions before nothing", "op a work 1s completion\nquiz \"Q\" answer completions before",
            ["2:35 error: expected a name after 'before'"]),
        .init(
            "misspelt quiz statement", "quzi \"a?\" answer start-order",
            ["1:1 error: unknown statement 'quzi' | did you mean 'quiz'?"]),
    ]

    @Test(arguments: completionDiagnostics + quizDiagnostics)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        let hasError = c.expected.contains { $0.contains(" error: ") }
        #expect((result.scenario == nil) == hasError)
    }

    // MARK: Printing

    @Test func canonicalTextOfCompletionActionsAndQuiz() throws {
        let scenario = try #require(
            clean(
                """
                quiz "Which ones run?" answer final-state
                queue q max 2
                queue r
                op a on q work 1s completion    cancel-all q
                op b work 1s   completion cancel c
                op c on r work 1s completion suspend r priority high
                op d on r work 1s completion resume r
                op e work 1s completion
                """))
        #expect(
            ScenarioPrinter().source(for: scenario) == """
                queue q max 2
                queue r

                op a on q work 1s completion cancel-all q
                op b on q work 1s completion cancel c
                op c on r work 1s priority high completion suspend r
                op d on r work 1s completion resume r
                op e on q work 1s completion

                quiz "Which ones run?" answer final-state

                """)
    }

    /// Printed and read back by `ScenarioPrinterTests`.
    static let roundTrips = [
        "queue downloads max 2\nop e5 work 100ms completion cancel-all downloads\nquiz \"Which start?\" answer start-order",
        "op a work 1s completion cancel b\nop b work 2s completion\nquiz \"\\\"quoted\\\" \\\\ question\" answer final-state",
        "queue q max 2\nop a work 1s\nop b work 1s\nquiz \"Where are they?\" answer columns at 1.25s",
        "queue q serial suspended\nqueue r\nop a on r async 1s completion resume q\nop b on q blocks 2 x 1ms completion suspend r\nat 3s resume r",
    ]

    @Test func withoutLocationsClearsTheQuizLocation() throws {
        let scenario = try #require(clean("op a work 1s\nquiz \"q?\" answer start-order")).withoutLocations
        #expect(scenario.quiz?.location == Loc(line: 0, column: 0))
    }
}
