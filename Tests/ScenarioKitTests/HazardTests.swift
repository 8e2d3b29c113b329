import Testing

@testable import ScenarioKit

/// The hazards `check` finds before a run: each warns where the file
/// leaves the run no other way, names the rule and the path, and stays
/// silent where a cancel, a time or an order could undo it.
@Suite struct HazardTests {
    static let deadlockNote =
        "the main queue gets it after the wait, which never returns (nothing on the path is cancelled)"

    static let warned: [DiagnosticCase] = [
        .init(
            "a wait for an operation that depends on a main-queue one",
            """
            queue ui main
            queue bg
            op config on bg work 200ms
            op render on ui work 10ms after config
            op setup on bg work 10ms after render
            op badge on bg work 10ms after setup
            at 100ms wait badge
            """,
            [
                "7:15 warning: 'wait badge' at 100ms deadlocks the main thread: badge depends on setup → render, "
                    + "and render is on the main queue, which needs the main thread that waits | render cannot be "
                    + "ready before 200ms, 100ms after the wait's time: \(deadlockNote)"
            ]),
        .init(
            "a wait for a main-queue operation not ready yet",
            "queue ui main\nqueue bg\nop a on bg work 1s\nop b on ui work 10ms after a\nat 500ms wait b",
            [
                "5:15 warning: 'wait b' at 500ms deadlocks the main thread: b is on the main queue, which only the "
                    + "main thread runs, and the main thread is the one that waits | b cannot be ready before 1s, "
                    + "500ms after the wait's time: \(deadlockNote)"
            ]),
        .init(
            "a wait-all of a queue one of whose operations needs the main queue",
            "queue ui main\nqueue bg\nop a on bg work 1s\nop b on ui work 10ms after a\nop c on bg work 10ms after b\n"
                + "at 500ms wait-all bg",
            [
                "6:19 warning: 'wait-all bg' at 500ms deadlocks the main thread: c, one of bg's operations, depends "
                    + "on b, and b is on the main queue, which needs the main thread that waits | b cannot be ready "
                    + "before 1s, 500ms after the wait's time: \(deadlockNote)"
            ]),
        .init(
            "only the first wait that deadlocks: later ones never begin",
            "queue ui main\nqueue bg\nop a on bg work 1s\nop b on ui work 10ms after a\nat 600ms wait b\n"
                + "at 500ms wait b",
            [
                "6:15 warning: 'wait b' at 500ms deadlocks the main thread: b is on the main queue, which only the "
                    + "main thread runs, and the main thread is the one that waits | b cannot be ready before 1s, "
                    + "500ms after the wait's time: \(deadlockNote)"
            ]),
        .init(
            "a veryHigh operation after a veryLow one behind a serial queue",
            """
            queue jobs serial
            queue net
            op j1 on jobs work 10ms
            op j2 on jobs work 10ms
            op j3 on jobs work 10ms
            op log on jobs work 1ms priority veryLow
            op token on net work 1ms after log
            op refresh on net work 1ms after token qos userInteractive
            """,
            [
                "8:34 warning: priority inversion: refresh (qos userInteractive) depends on log (priority veryLow) "
                    + "through token, and log is queued behind 3 operations of lower priority than refresh on serial "
                    + "queue 'jobs': j1, j2, j3 | Foundation does not raise a dependency's priority: log waits for "
                    + "its turn on 'jobs', and refresh waits for log"
            ]),
        .init(
            "behind a capped queue, as many ahead as the cap at least",
            "queue q max 2\nop a on q work 10ms\nop b on q work 10ms\nop low on q work 1ms\n"
                + "op high on q work 1ms after low priority high",
            [
                "5:29 warning: priority inversion: high (priority high) depends on low (priority normal), and low is "
                    + "queued behind 2 operations of lower priority than high on 'q' (cap 2): a, b | Foundation does "
                    + "not raise a dependency's priority: low waits for its turn on 'q', and high waits for low"
            ]),
        .init(
            "a completion block that resumes the queue its operation waits behind",
            "queue photos suspended\nqueue ui serial\nop p1 on photos work 10ms\n"
                + "op sheet on ui work 10ms after p1 completion resume photos",
            [
                "4:53 warning: deadlock: sheet's completion block resumes 'photos', but sheet depends on p1, and p1 "
                    + "is on 'photos', which starts suspended and nothing else resumes | p1 never runs while 'photos' "
                    + "is suspended, so sheet never finishes and its completion block (which runs only after the "
                    + "finish) never runs"
            ]),
        .init(
            "a completion block on the suspended queue itself, suspended by an at line",
            "queue q\nop a on q work 300ms\nop b on q work 10ms after a completion resume q\nat 5ms suspend q",
            [
                "3:47 warning: deadlock: b's completion block resumes 'q', but b is on 'q' itself, which is "
                    + "suspended at 5ms (line 4) and nothing else resumes | b never runs while 'q' is suspended, so b "
                    + "never finishes and its completion block (which runs only after the finish) never runs"
            ]),
    ]

    static let silent: [DiagnosticCase] = [
        .init(
            "the main-queue operation may have run before the wait",
            "queue ui main\nqueue bg\nop render on ui work 10ms\nop badge on bg work 10ms after render\n"
                + "at 100ms wait badge", []),
        .init(
            "ready at the very time of the wait: no claim on the order",
            "queue ui main\nqueue bg\nop a on bg work 100ms\nop b on ui work 10ms after a\nat 100ms wait b", []),
        .init(
            "ready only 50ms after the wait's time: a race of timers, left alone",
            "queue ui main\nqueue bg\nop a on bg work 150ms\nop b on ui work 10ms after a\nat 100ms wait b", []),
        .init(
            "the operation of the queue is ready too soon after the suspension to be sure",
            "queue q\nop a on q work 10ms\nop b on q work 10ms after a completion resume q\nat 5ms suspend q", []),
        .init(
            "a cancel on the path may break the wait",
            "queue ui main\nqueue bg\nop a on bg work 1s\nop b on ui work 10ms after a\nop c on bg work 1ms after b\n"
                + "at 500ms wait c\nat 2s cancel c", []),
        .init(
            "a wait for background work only",
            "queue ui main\nqueue bg\nop a on bg work 1s\nop b on ui work 10ms after a\nat 500ms wait a", []),
        .init(
            "an inversion needs the queue's cap filled ahead of the low one",
            "queue q max 2\nop a on q work 10ms\nop low on q work 1ms\nop high on q work 1ms after low priority high",
            []),
        .init(
            "what goes ahead is as urgent as the waiting one: no inversion",
            "queue q serial\nop a on q work 10ms priority veryHigh\nop low on q work 1ms\n"
                + "op high on q work 1ms after low priority veryHigh", []),
        .init(
            "no cap: nothing queues the low one behind others",
            "queue q\nop a on q work 10ms\nop low on q work 1ms priority veryLow\n"
                + "op high on q work 1ms after low priority veryHigh", []),
        .init(
            "the waiting one waits for what goes ahead anyway",
            "queue q serial\nop a on q work 10ms\nop low on q work 1ms priority veryLow\n"
                + "op high on q work 1ms after low, a priority veryHigh", []),
        .init(
            "a max action changes the queue: no claim",
            "queue q serial\nop a on q work 10ms\nop low on q work 1ms priority veryLow\n"
                + "op high on q work 1ms after low priority veryHigh\nat 1ms max q 4", []),
        .init(
            "the low one is first on its queue: it is dispatched alone",
            "queue q serial\nop low on q work 1ms priority veryLow\nop a on q work 10ms\n"
                + "op high on q work 1ms after low priority veryHigh", []),
        .init(
            "another completion block resumes the queue from outside",
            "queue photos suspended\nqueue ui serial\nop p1 on photos work 10ms\n"
                + "op sheet on ui work 10ms after p1 completion resume photos\n"
                + "op other on ui work 10ms completion resume photos", []),
        .init(
            "an at line resumes the queue",
            "queue photos suspended\nop p1 on photos work 10ms\nop sheet work 10ms after p1 completion resume photos\n"
                + "at 1s resume photos", []),
        .init(
            "the operation of the queue may have been dispatched before the suspension",
            "queue q\nop a on q work 10ms\nop b on q work 10ms after a completion resume q\nat 50ms suspend q", []),
    ]

    /// The two claims about time, as the canonical print writes them back.
    static let roundTrips = [
        "queue ui main\nop a work 1.5s\nat 100ms wait a\nexpect main never blocked over 250ms\nexpect a finished by 2s",
        "op a work 1ms\nexpect main never blocked over 0ms\nexpect a finished by 0.5ms",
    ]

    static let claims: [DiagnosticCase] = [
        .init(
            "a duration without its unit", "op a work 1ms\nexpect main never blocked over 100",
            ["2:32 error: duration '100' has no unit | write '100ms' or '100s'"]),
        .init(
            "over left out", "op a work 1ms\nexpect main never blocked 100ms",
            ["2:27 error: expected 'over' after 'blocked', found '100ms'"]),
        .init(
            "an unknown operation finished by", "op fetch work 1ms\nexpect fecth finished by 1s",
            ["2:8 error: unknown operation 'fecth' | did you mean 'fetch'?"]),
        .init(
            "a negative deadline", "op a work 1ms\nexpect a finished by -1s",
            ["2:22 error: durations cannot be negative"]),
        .init("no deadline", "op a work 1ms\nexpect a finished by", ["2:21 error: expected a duration after 'by'"]),
    ]

    @Test func theClaimsPrintAsWrittenAndGlossInTheSwiftProgram() throws {
        let scenario = try #require(clean(Self.roundTrips[0]))
        #expect(
            scenario.expectations.map { ScenarioPrinter.claimText($0.claim, in: scenario) } == [
                "main never blocked over 250ms", "a finished by 2s",
            ])
        let program = SwiftProgramPrinter().program(for: scenario)
        #expect(program.contains("//   expect main never blocked over 250ms"))
        #expect(
            program.contains(
                "//       no waitUntilFinished() or waitUntilAllOperationsAreFinished() on the main thread lasts "
                    + "longer than 250ms (one that never returns lasts for ever)"))
        #expect(
            program.contains("//       a finishes, not cancelled, 2s after the start at the latest (scenario time)"))
    }

    @Test(arguments: claims)
    func claimDiagnostics(_ c: DiagnosticCase) {
        #expect(describeAll(read(c.source)) == c.expected)
    }

    @Test(arguments: warned + silent)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        #expect(result.scenario != nil, "a hazard is a warning: the file still runs")
    }

    /// A long chain with a wait at its end stays linear: the rule walks the
    /// graph once per wait.
    @Test func aLongChainIsWalkedOnce() {
        var lines = ["queue ui main", "queue bg", "op m on ui work 1ms after c0", "op c0 on bg work 1s"]
        for i in 1...20_000 { lines.append("op c\(i) on bg work 1ms after \(i == 1 ? "m" : "c\(i - 1)")") }
        lines.append("at 10ms wait c20000")
        let result = read(lines.joined(separator: "\n"))
        #expect(result.warningCount == 1)
        let message = result.diagnostics.first?.message ?? ""
        #expect(
            message.hasPrefix(
                "'wait c20000' at 10ms deadlocks the main thread: c20000 depends on c19999 → c19998 → … 19,996 more … → c1 → m,"
            ), "\(message.prefix(300))")
    }
}
