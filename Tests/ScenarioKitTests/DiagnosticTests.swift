import Testing

@testable import ScenarioKit

/// One file and the complete list of diagnostics it must produce, each as
/// `"LINE:COLUMN severity: message | note | note"`. The full list is
/// compared, so an unexpected extra diagnostic fails the case.
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var expected: [String]
    var testDescription: String { name }

    init(_ name: String, _ source: String, _ expected: [String]) {
        self.name = name
        self.source = source
        self.expected = expected
    }
}

@Suite struct DiagnosticTests {
    static let lexical: [DiagnosticCase] = [
        .init("unexpected character", "op a work 1s @", ["1:14 error: unexpected character '@'"]),
        .init(
            "stray backslash", "op a \\ work 1s",
            ["1:6 error: '\\' continues a statement only at the end of a line"]),
        .init(
            "unterminated string", "title \"abc",
            ["1:7 error: unterminated string | close it with '\"' on the same line"]),
        .init(
            "unknown escape", "note \"a\\nb\"",
            ["1:8 error: unknown escape '\\n' in string | the only escapes are '\\\"' and '\\\\'"]),
        .init(
            "malformed number", "op a work 1.s",
            ["1:11 error: malformed number '1.s' | write digits after the point, as in '1.5s'"]),
    ]

    static let numbers: [DiagnosticCase] = [
        .init(
            "bare number for a duration", "op a work 250",
            ["1:11 error: duration '250' has no unit | write '250ms' or '250s'"]),
        .init(
            "unknown unit", "op a work 2sec",
            ["1:11 error: unknown duration unit 'sec' in '2sec' | use 'ms' or 's'"]),
        .init("negative duration", "op a work 1s\nat -1s cancel a", ["2:4 error: durations cannot be negative"]),
        .init(
            "finer than a nanosecond", "op a work 1.0000000001s",
            ["1:11 error: duration '1.0000000001s' is finer than a nanosecond"]),
        .init("too long", "op a work 99999999999s", ["1:11 error: duration '99999999999s' is too long"]),
        .init(
            "huge cap", "queue q max 99999999999999999999\nop a work 1s",
            ["1:13 error: number '99999999999999999999' is too large"]),
    ]

    static let syntax: [DiagnosticCase] = [
        .init("missing duration at end", "op a work", ["1:10 error: expected a duration after 'work'"]),
        .init(
            "wrong token for duration", "op a work fast", ["1:11 error: expected a duration after 'work', found 'fast'"]
        ),
        .init(
            "statement without keyword", "\"hello\"",
            [
                "1:1 error: expected a statement, found '\"hello\"' | a statement starts with title, note, speed, queue, op, barrier, at, when, expect or quiz"
            ]),
        .init("misspelt statement", "qeue net", ["1:1 error: unknown statement 'qeue' | did you mean 'queue'?"]),
        .init(
            "unknown statement", "frobnicate x",
            [
                "1:1 error: unknown statement 'frobnicate' | a statement starts with title, note, speed, queue, op, barrier, at, when, expect or quiz"
            ]),
        .init("extra token", "title \"a\" \"b\"", ["1:11 error: unexpected '\"b\"' in 'title' statement"]),
        .init("missing string", "note", ["1:5 error: expected a quoted string after 'note'"]),
        .init("missing name", "queue", ["1:6 error: expected a name after 'queue'"]),
        .init(
            "unknown queue option", "queue q seral\nop a work 1s",
            ["1:9 error: unknown queue option 'seral' | did you mean 'serial'?"]),
        .init(
            "unknown clause", "op a work 1s prority high",
            ["1:14 error: unknown clause 'prority' | did you mean 'priority'?"]),
        .init("non-word clause", "op a work 1s 5s", ["1:14 error: unexpected '5s' in 'op' statement"]),
        .init(
            "unknown priority", "op a work 1s priority hgh",
            ["1:23 error: unknown priority 'hgh' | did you mean 'high'?"]),
        .init(
            "unknown priority without suggestion", "op a work 1s priority urgent",
            ["1:23 error: unknown priority 'urgent' | priorities are veryLow, low, normal, high and veryHigh"]),
        .init(
            "unknown qos", "op a work 1s qos utilty",
            ["1:18 error: unknown quality of service 'utilty' | did you mean 'utility'?"]),
        .init(
            "unknown qos without suggestion", "queue q qos fast\nop a work 1s",
            [
                "1:13 error: unknown quality of service 'fast' | qualities of service are userInteractive, userInitiated, default, utility and background"
            ]),
        .init(
            "unknown action", "op a work 1s\nat 1s cancle a",
            ["2:7 error: unknown action 'cancle' | did you mean 'cancel'?"]),
        .init(
            "unknown action without suggestion", "op a work 1s\nat 1s explode a",
            [
                "2:7 error: unknown action 'explode' | actions are cancel, cancel-all, suspend, resume, max, priority and add; 'say \"TEXT\"' shows a caption"
            ]),
        .init("missing action", "op a work 1s\nat 1s", ["2:6 error: expected an action after '1s'"]),
        .init(
            "unknown claim", "op a work 1s\nexpect finsihed a",
            ["2:8 error: unknown claim 'finsihed' | did you mean 'finished'?"]),
        .init(
            "misspelt before", "op a work 1s\nop b work 1s\nexpect a befor b",
            ["3:10 error: unknown claim 'befor' | did you mean 'before'?"]),
        .init(
            "unknown claim without suggestion", "op a work 1s\nexpect glorious a",
            [
                "2:8 error: unknown claim 'glorious' | claims are A before B, A depends on B, A on main, A off main, "
                    + "A finished by TIME, order, concurrent, never together, peak, completion of A before B starts, "
                    + "main never blocked over DURATION, finished, cancelled, skipped and stuck"
            ]),
        .init(
            "duplicate clause", "op a work 1s priority high priority low",
            ["1:28 error: 'priority' is given twice | first given at line 1, column 14"]),
        .init(
            "duplicate queue option", "queue q suspended suspended\nop a work 1s\nat 1s resume q",
            ["1:19 error: 'suspended' is given twice | first given at line 1, column 9"]),
        .init(
            "conflicting cap", "queue q max 2 serial\nop a work 1s",
            ["1:15 error: 'serial' conflicts with 'max' | a queue has one concurrency cap"]),
        .init(
            "conflicting body", "op a work 1s async 2s",
            ["1:14 error: 'async' conflicts with 'work' | an operation has exactly one body"]),
        .init(
            "missing body", "queue q\nop a on q",
            [
                "2:4 error: operation 'a' has no body | add 'work DURATION', 'blocks DURATION, …', 'blocks N x DURATION', 'async DURATION' or 'class TYPE'"
            ]),
        .init(
            "never-finishes without async", "op a work 1s never-finishes",
            [
                "1:14 error: 'never-finishes' needs an 'async' body | only an asynchronous operation posts isFinished itself"
            ]),
        .init(
            "clause on a barrier", "op a work 1s\nbarrier b after a",
            ["2:11 error: 'after' is not allowed on a barrier | a barrier takes only 'on QUEUE' and 'work DURATION'"]),
        .init(
            "unknown barrier clause", "barrier b wrk 1s",
            ["1:11 error: unknown clause 'wrk' | did you mean 'work'?"]),
        .init(
            "max beside main", "queue ui main max 2\nop a work 1s",
            ["1:15 error: 'max' cannot be used with 'main' | OperationQueue.main ignores maxConcurrentOperationCount"]),
        .init(
            "serial beside main", "queue ui serial main\nop a work 1s",
            [
                "1:10 error: 'serial' cannot be used with 'main' | OperationQueue.main ignores maxConcurrentOperationCount"
            ]),
        .init(
            "qos beside main", "queue ui main qos utility\nop a work 1s",
            ["1:15 error: 'qos' cannot be used with 'main' | OperationQueue.main ignores qualityOfService"]),
        .init(
            "suspended beside main", "queue ui suspended main\nop a work 1s",
            ["1:10 error: 'suspended' cannot be used with 'main' | OperationQueue.main ignores isSuspended"]),
        .init(
            "cap of zero", "queue q max 0\nop a work 1s",
            ["1:13 error: a cap of 0 would stall the queue without saying so | use 1 or more, or 'default'"]),
        .init(
            "cap of zero in an action", "queue q\nop a work 1s\nat 1s max q 0",
            ["3:13 error: a cap of 0 would stall the queue without saying so | use 1 or more, or 'default'"]),
        .init(
            "negative cap", "queue q max -1\nop a work 1s",
            ["1:13 error: a queue's cap must be at least 1, found '-1'"]),
        .init(
            "fractional cap", "queue q max 1.5\nop a work 1s",
            ["1:13 error: expected a whole number after 'max', found '1.5'"]),
        .init("zero blocks", "op a blocks 0 x 1ms", ["1:13 error: 'blocks' needs at least one block, found 0"]),
        .init(
            "too many blocks", "op a blocks 5000 x 1ms",
            ["1:13 error: too many blocks (5000); an operation has at most 1000"]),
        .init("blocks without x", "op a blocks 3 300ms", ["1:15 error: expected 'x' after '3', found '300ms'"]),
        .init("trailing comma", "op a work 1s\nop b work 1s after a,", ["2:22 error: expected a name after ','"]),
        .init("order of one", "op a work 1s\nexpect order a", ["2:8 error: 'order' needs at least two operations"]),
        .init(
            "negative peak", "queue q\nop a work 1s\nexpect peak q -1",
            ["3:15 error: expected a count of 0 or more after 'q', found '-1'"]),
    ]

    static let semantic: [DiagnosticCase] = [
        .init(
            "queue and operation share a name", "queue a\nop a work 1s",
            [
                "2:4 error: 'a' is already declared | 'a' is first declared as a queue on line 1 | queues and operations share one namespace"
            ]),
        .init(
            "two operations share a name", "op a work 1s\n\nbarrier a",
            [
                "3:9 error: 'a' is already declared | 'a' is first declared as an operation on line 1 | queues and operations share one namespace"
            ]),
        .init(
            "an operation, a queue and an operation share a name: the first declaration is named each time",
            "queue q\nop x on q work 1s\nqueue x\nop x on q work 1s",
            [
                "3:7 error: 'x' is already declared | 'x' is first declared as an operation on line 2 | queues and operations share one namespace",
                "4:4 error: 'x' is already declared | 'x' is first declared as an operation on line 2 | queues and operations share one namespace",
            ]),
        .init(
            "unknown queue", "queue net\nop a on nett work 1s",
            ["2:9 error: unknown queue 'nett' | did you mean 'net'?"]),
        .init(
            "unknown queue suggests only queues", "queue net\nop nets work 1s\nop a on nett work 1s",
            ["3:9 error: unknown queue 'nett' | did you mean 'net'?"]),
        .init(
            "unknown operation", "queue net\nop fetch on net work 1s\nop parse on net work 400ms after fech",
            ["3:34 error: unknown operation 'fech' | did you mean 'fetch'?"]),
        .init(
            "unknown operation suggests only operations",
            "queue fetch\nop fetched on fetch work 1s\nop b work 1s after fetchd",
            ["3:20 error: unknown operation 'fetchd' | did you mean 'fetched'?"]),
        .init(
            "unknown operation, nothing near", "op a work 1s\nat 1s cancel zzz", ["2:14 error: unknown operation 'zzz'"]
        ),
        .init(
            "operation where a queue is needed", "op a work 1s\nop b on a work 1s",
            ["2:9 error: 'a' is an operation, not a queue"]),
        .init(
            "queue where an operation is needed", "queue q\nop a work 1s after q",
            ["2:20 error: 'q' is a queue, not an operation"]),
        .init("self-dependency", "op a work 1s after a", ["1:20 error: 'a' cannot depend on itself"]),
        .init(
            "dependency listed twice", "op a work 1s\nop b work 1s after a, a",
            ["2:23 error: 'a' is listed twice after 'after'"]),
        .init(
            "dependency listed twice in a long list",
            "op d0 work 1s\nop d1 work 1s\nop d2 work 1s\nop d3 work 1s\nop d4 work 1s\nop d5 work 1s\nop d6 work 1s\nop d7 work 1s\nop d8 work 1s\nop d9 work 1s\nop d10 work 1s\nop d11 work 1s\nop d12 work 1s\nop d13 work 1s\nop d14 work 1s\nop d15 work 1s\nop d16 work 1s\nop d17 work 1s\nop d18 work 1s\nop d19 work 1s\nop z work 1s after d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16, d17, d18, d19, d3",
            ["21:110 error: 'd3' is listed twice after 'after'"]),
        .init(
            "a name left out, then one that never finishes", "op n async 1s never-finishes\nop b work 1s after b, n",
            [
                "2:20 error: 'b' cannot depend on itself",
                "2:23 warning: 'b' can never start: its dependency 'n' never finishes",
            ]),
        .init(
            "dependency cycle", "op a work 1s after c\nop b work 1s after a\nop c work 1s after b",
            ["2:20 error: dependency cycle: b → a → c → b | every operation in a cycle waits forever"]),
        .init(
            "two cycles", "op a work 1s after b\nop b work 1s after a\nop c work 1s after d\nop d work 1s after c",
            [
                "2:20 error: dependency cycle: b → a → b | every operation in a cycle waits forever",
                "4:20 error: dependency cycle: d → c → d | every operation in a cycle waits forever",
            ]),
        .init(
            "second title", "title \"a\"\ntitle \"b\"",
            ["2:1 error: a scenario has at most one title | the first title is on line 1"]),
        .init(
            "second main queue", "queue a main\nqueue b main\nop x on a work 1s\nop y on b work 1s",
            ["2:9 error: only one queue can be 'main' | 'a' is already the main queue (line 1)"]),
        .init(
            "added twice", "op a work 1s\nat 1s add a\nat 2s add a",
            [
                "3:11 error: 'a' is added twice | it is first added on line 2; Foundation stops the program when an operation is added twice"
            ]),
        .init(
            "cancel a barrier", "op a work 1s\nbarrier b\nat 1s cancel b",
            [
                "3:14 error: 'b' is a barrier: it cannot be cancelled on its own | 'cancel-all QUEUE' cancels a barrier that has not started"
            ]),
        .init(
            "priority of a barrier", "op a work 1s\nbarrier b\nat 1s priority b high",
            ["3:16 error: 'b' is a barrier: it has no priority to change"]),
        .init("before itself", "op a work 1s\nexpect a before a", ["2:17 error: 'a' appears twice in 'before'"]),
        .init(
            "repeated in order", "op a work 1s\nop b work 1s\nexpect order a, b, a",
            ["3:20 error: 'a' appears twice in 'order'"]),
    ]

    static let warnings: [DiagnosticCase] = [
        .init(
            "queue without operations", "queue q\nqueue r\nop a on q work 1s",
            ["2:7 warning: queue 'r' has no operations"]),
        .init(
            "priority on the main queue", "queue ui main\nop a on ui work 1s priority high",
            [
                "2:20 warning: 'priority' on 'a' only picks which ready operation of the main queue runs next: it runs one at a time"
            ]),
        .init(
            "priority action on the main queue", "queue ui main\nop a on ui work 1s\nat 1s priority a low",
            [
                "3:7 warning: 'priority' on 'a' only picks which ready operation of the main queue runs next: it runs one at a time"
            ]),
        .init(
            "waits for never-finishes", "op a async 1s never-finishes\nop b work 1s after a\nop c work 1s after b",
            [
                "2:20 warning: 'b' can never start: its dependency 'a' never finishes",
                "3:20 warning: 'c' can never start: its dependency 'b' waits for 'a', which never finishes",
            ]),
        .init(
            "main queue ignores actions",
            "queue ui main\nop a on ui work 1s\nat 1s suspend ui\nat 2s resume ui\nat 3s max ui 2\nat 4s cancel-all ui",
            [
                "3:7 warning: the main queue ignores 'suspend' | OperationQueue.main ignores isSuspended on this Foundation",
                "4:7 warning: the main queue ignores 'resume' | OperationQueue.main ignores isSuspended on this Foundation",
                "5:7 warning: the main queue ignores 'max' | OperationQueue.main ignores maxConcurrentOperationCount on this Foundation",
                "6:7 warning: the main queue ignores 'cancel-all' | OperationQueue.main ignores cancelAllOperations() on this Foundation",
            ]),
        .init(
            "starts suspended, never resumed", "queue q suspended\nop a work 1s",
            ["1:9 warning: queue 'q' starts suspended and is never resumed | its operations will stall"]),
        .init(
            "suspended by an action, never resumed", "queue q\nop a work 1s\nat 1s suspend q",
            ["3:7 warning: queue 'q' is suspended here and never resumed afterwards | its operations will stall"]),
        .init(
            "resumed before the suspension only", "queue q\nop a work 1s\nat 1s resume q\nat 1s suspend q",
            ["4:7 warning: queue 'q' is suspended here and never resumed afterwards | its operations will stall"]),
        .init(
            "resume written first but later in time", "queue q\nop a work 1s\nat 2s resume q\nat 1s suspend q", []),
        .init("ignores-cancel with nothing cancelling", "op a work 1s ignores-cancel", []),
        .init(
            "an add far beyond any run", "op a work 1s\nop b work 1s\nat 1000000000s add b",
            [
                "3:1 warning: 'add b' at 1000000000s is far beyond any run: reaching it takes 31.7 years of real time "
                    + "at speed 1 | a run does not end before everything was added: it waits for this one | at "
                    + "--speed 1000 (the fastest trace runs) it takes 11.6 days"
            ]),
        .init(
            "an action far beyond any run at the file's speed", "speed 0.5\nop a work 1s\nat 301s cancel a",
            [
                "3:1 warning: 'cancel a' at 301s is far beyond any run: reaching it takes 10 minutes of real time at "
                    + "speed 0.5 | a run waits for it only while something else still runs or waits; with all done "
                    + "sooner, it ends without it | at --speed 1000 (the fastest trace runs) it takes 0.3 seconds"
            ]),
        .init("an action ten real minutes away at the file's speed", "speed 2\nop a work 1s\nat 1200s cancel a", []),
    ]

    @Test(arguments: lexical + numbers + syntax + semantic + warnings)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        let hasError = c.expected.contains { $0.contains(" error: ") }
        #expect((result.scenario == nil) == hasError)
    }

    @Test func markersInSourceMatchPositions() {
        let marked = MarkedSource(
            """
            queue net max 0
            ~             ^
            op fetch on nett work 1s priority hgh
            ~           ^                     ^
            """)
        let result = read(marked.text)
        #expect(result.diagnostics.map(\.location) == marked.markers)
        #expect(
            result.diagnostics.map(\.message) == [
                "a cap of 0 would stall the queue without saying so", "unknown queue 'nett'",
                "unknown priority 'hgh'",
            ])
    }

    @Test func allErrorsOfAFileAreReported() {
        let source = """
            queue net max 0
            op a wrk 1s
            op b work 5
            at 1s cancle a
            expect finsihed b
            """
        #expect(read(source).diagnostics.map(\.location.line) == [1, 2, 3, 4, 5])
    }

    @Test func declarationWithAnErrorIsStillKnownByName() {
        // `a` has a syntax error, but `b` refers to it: no second error.
        let result = read("op a work 1s prority high\nop b work 1s after a")
        #expect(describeAll(result) == ["1:14 error: unknown clause 'prority' | did you mean 'priority'?"])
    }
}
