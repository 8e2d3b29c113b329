import Foundation
import Testing

@testable import ScenarioKit

/// The exported programs built by the real compiler: they type-check in
/// Swift 6 mode, and run as the scenario says (`opscope swift`).
@Suite struct CompiledProgramTests {
    func program(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        try SwiftProgramPrinterTests().program(source, sourceLocation: sourceLocation)
    }

    /// Scenarios that together use every construct of the language.
    static let rich: [(String, String)] = [
        ("reference example", ReferenceExampleTests.source + "\nquiz \"What runs first?\" answer start-order\n"),
        (
            "every action and body",
            """
            title "Every action"
            queue net max 3 qos utility
            queue disk serial suspended
            queue spare default qos background
            op a on net work 300ms priority veryHigh qos userInitiated completion cancel-all spare
            op b on net blocks 100ms, 200ms ignores-cancel completion cancel c
            op c on net async 1s ignores-cancel completion suspend net
            op d on disk async 200ms completion resume disk
            op f on spare async 1s never-finishes
            op g on spare work 100ms after f, a
            barrier flush on disk work 50ms
            op e on disk work 100ms ignores-cancel qos background after flush
            barrier late on net
            op h on net blocks 3 x 10ms priority low completion
            at 0ms resume disk
            at 100ms max net default
            at 100ms priority h veryLow
            at 200ms max net 2
            at 250ms suspend net
            at 300ms resume net
            at 350ms add late
            at 400ms cancel g
            expect a before g
            expect order a, b
            expect concurrent a, b
            expect peak net 3
            expect finished a
            expect cancelled g
            expect skipped g
            expect stuck f
            quiz "How does each one end?" answer final-state
            """
        ),
        (
            "names that are not Swift identifiers",
            "title \"quotes \\\" and \\\\ and # hash, 日本語\"\nnote \"a\rb\"\n"
                + "op default work 1ms\nop self work 1ms\nop say work 1ms after default\nop OperationQueue async 1ms\n"
                + "op dl-1 work 1ms\nop dl_1 work 1ms after dl-1\nop _ work 1ms\nop t0 work 1ms\nop tally work 1ms\n"
                + "op print work 1ms\nop Type work 1ms\nop init work 1ms\nop flushBlock work 1ms\nop in work 1ms\n"
                + "barrier flush\nop flushDone work 1ms after flush\nop timeline blocks 1ms\n"
                + "at 1ms cancel self\nat 1ms cancel-all default\nexpect finished dl-1"
        ),
        ("an empty scenario", ""),
        (
            "barriers that cancel-all cancels",
            """
            queue q max 2 suspended
            queue r serial
            op a on q work 10ms completion cancel-all r
            barrier b on q work 10ms
            barrier c on r
            op d on r work 10ms after b, c completion resume q
            at 5ms cancel-all q
            at 10ms resume q
            at 20ms add c
            """
        ),
        (
            "speed and captions",
            "speed 0.125\nqueue q max 2\nop a on q work 10ms\nbarrier b on q\nop c on q async 10ms after b\n"
                + "at 0ms say \"quotes \\\" and \\\\ and */ and \u{2028} and \r and 日本語\"\n"
                + "at 5ms cancel c\nat 5ms say \"// a comment in a comment\"\n"
                + "when a ready say \"r\"\nwhen b starts say \"s\"\nwhen c cancelled say \"c\"\nwhen c finishes say \"f\""
        ),
        (
            "starts by hand",
            StartByHandLanguageTests.lesson
                + "\nop late async 100ms completion\nop spare work 10ms\nat 0ms cancel spare\nat 10ms start spare"
                + "\nat 700ms start late\nat 750ms start late\nexpect fetch on main"
        ),
        (
            "the main queue",
            """
            queue background
            queue ui main
            op load on background work 30ms completion cancel show
            op show on ui work 10ms after load priority high
            op paint on ui blocks 2 x 5ms completion cancel-all ui
            at 5ms suspend ui
            at 10ms resume ui
            """
        ),
    ]

    @Test(arguments: rich)
    func programsTypeCheckInSwift6(_ name: String, _ source: String) throws {
        let text = try program(source)
        let result = try Swiftc.run(["-typecheck", "-swift-version", "6", "-warnings-as-errors"], program: text)
        #expect(result.status == 0, "\(name):\n\(result.output)")
        #expect(!result.output.contains("warning:"), "\(name):\n\(result.output)")
    }

    /// The lines a compiled program printed, with `arguments`.
    func run(_ source: String, _ arguments: [String] = ["--facts"]) throws -> (status: Int32, lines: [String]) {
        let result = try Swiftc.run([], program: try program(source), thenRun: true, runArguments: arguments)
        return (result.status, result.output.split(separator: "\n").map(String.init))
    }

    /// `fact start NAME SECONDS`: when NAME started.
    func start(of name: String, in lines: [String]) -> Double? {
        lines.lazy.compactMap { line -> Double? in
            let words = line.split(separator: " ")
            return words.count == 4 && words[0] == "fact" && words[1] == "start" && words[2] == name
                ? Double(words[3]) : nil
        }.first
    }

    /// The case of issue 15: cancel-all cancels the waiting barrier b while
    /// a, which never checks isCancelled, runs. Foundation finishes b only
    /// when a returns, at 400 ms, and c, which waits for b, starts then; d,
    /// added after b, is cancelled with the rest.
    @Test func aCancelledBarrierIsOverWhenFoundationFinishesItAndWhatWaitsForItRuns() throws {
        let (status, lines) = try run(
            """
            queue q max 2
            queue r
            op a on q work 400ms ignores-cancel
            barrier b on q
            op c on r work 100ms after b
            op d on q work 100ms
            at 100ms cancel-all q
            """)
        #expect(status == 0, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("] the scenario is over") }, "\(lines)")
        for line in [
            "    a: cancelled (cancelled while it ran)",
            "    b: skipped (cancelled before its block began: it never ran)",
            "    c: finished", "    d: skipped (cancelled before it started: it never ran)", "fact end a cancelled",
            "fact end b skipped", "fact end c finished", "fact end d skipped", "fact outcome completed",
        ] {
            #expect(lines.contains(line), "\(line)\n\(lines.joined(separator: "\n"))")
        }
        let a = try #require(start(of: "a", in: lines))
        let c = try #require(start(of: "c", in: lines))
        // After a returned (400 ms after it started), not at the cancel (100 ms).
        #expect(c - a > 0.35, "\(lines)")
        #expect(start(of: "b", in: lines) == nil)
        #expect(start(of: "d", in: lines) == nil)
    }

    /// On a suspended queue, a cancelled barrier is over only once the queue
    /// is resumed, and what waits for it waits till then. (e, added after the
    /// barrier, keeps Foundation's barrier alive: without it this
    /// Foundation frees the cancelled barrier while a, its dependency, still
    /// points to it, and crashes at the resume, program and trace alike.)
    @Test func aBarrierCancelledWhileItsQueueIsSuspendedIsOverAtTheResume() throws {
        let (status, lines) = try run(
            """
            queue q suspended
            queue r
            op a on q work 10ms
            barrier b on q
            op e on q work 10ms
            op c on r work 10ms after b
            at 50ms cancel-all q
            at 300ms resume q
            """)
        #expect(status == 0, "\(lines)")
        for line in ["fact end a skipped", "fact end b skipped", "fact end e skipped", "fact end c finished"] {
            #expect(lines.contains(line), "\(line)\n\(lines.joined(separator: "\n"))")
        }
        let c = try #require(start(of: "c", in: lines))
        #expect(c > 0.25, "\(lines)")
    }

    @Test func theReportSaysHowEachOneEndedInTheFourWords() throws {
        let (status, lines) = try run(
            """
            queue q serial
            queue r
            op ok work 10ms
            op long work 1s
            op skip work 10ms
            op forgot async 10ms never-finishes
            op lost on r async 10ms never-finishes
            at 100ms cancel skip
            at 100ms cancel forgot
            at 200ms cancel long
            """)
        #expect(status == 1, "\(lines)")
        #expect(lines.contains { $0.contains("] the scenario stalled") }, "\(lines)")
        for line in [
            "    ok: finished", "    long: cancelled (cancelled while it ran)",
            "    skip: skipped (cancelled before it started: it never ran)",
            // Cancelled before it started, the forgetful operation still finishes.
            "    forgot: skipped (cancelled before it started: it never ran)",
            "    lost: stuck (still executing: it never posted isFinished)", "fact end ok finished",
            "fact end long cancelled", "fact end skip skipped", "fact end forgot skipped", "fact end lost stuck",
            "fact outcome stalled",
        ] {
            #expect(lines.contains(line), "\(line)\n\(lines.joined(separator: "\n"))")
        }
        let starts = lines.filter { $0.hasPrefix("fact start ") }.map { $0.split(separator: " ")[2] }
        // Foundation orders only what shares the serial queue q: ok before
        // long. lost, on r, races both.
        #expect(starts.sorted() == ["long", "lost", "ok"], "\(lines)")
        #expect(starts.filter { $0 != "lost" } == ["ok", "long"], "\(lines)")
    }

    /// Lesson 32's bug (`never-finishes if-cancelled`): cancelled before it
    /// starts, the operation's start() returns without posting isFinished,
    /// so its serial queue never runs what is behind it and its dependent
    /// never becomes ready, as in the trace and in plain Foundation (the
    /// program marked it finished and ran both). A right one beside it
    /// releases its own.
    @Test func anOperationThatForgetsOnlyWhenCancelledKeepsWhatWaitsForItWaiting() throws {
        let (status, lines) = try run(
            """
            queue net serial
            queue net2 serial
            queue ui
            op first on net work 200ms
            op fetch on net async 1s never-finishes if-cancelled
            op next on net work 10ms
            op show on ui work 10ms after fetch
            op first2 on net2 work 200ms
            op fetch2 on net2 async 1s
            op next2 on net2 work 10ms
            op show2 on ui work 10ms after fetch2
            at 50ms cancel fetch
            at 50ms cancel fetch2
            """)
        #expect(status == 1, "\(lines)")
        for line in [
            "fact end first finished", "fact end fetch skipped", "fact end next stuck", "fact end show stuck",
            "fact end fetch2 skipped", "fact end next2 finished", "fact end show2 finished",
            "fact cause never-posted-isFinished fetch", "fact outcome stalled",
        ] {
            #expect(lines.contains(line), "\(line)\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.contains { $0.hasSuffix("fetch is cancelled: its start() returns without posting isFinished") })
    }

    /// A main-thread wait for a main-queue operation never returns: the
    /// thread that ends the program reports, facts included, as the trace
    /// reports the stall (its cause: the main thread blocked in the wait).
    @Test func aDeadlockedMainThreadStillReportsTheFacts() throws {
        let (status, lines) = try run(
            """
            queue ui main
            queue net
            op badge on ui work 10ms after thumb
            op thumb on net work 50ms
            at 10ms wait badge
            """)
        #expect(status == 1, "\(lines)")
        for line in [
            "fact end thumb finished", "fact end badge stuck", "fact cause main-thread-blocked badge",
            "fact outcome stalled",
        ] {
            #expect(lines.contains(line), "\(line)\n\(lines.joined(separator: "\n"))")
        }
    }

    /// `start` by hand: refused while the operation is not ready (what
    /// Foundation would stop the program on), then called on the main
    /// thread, where main() runs before start() returns; what depends on it
    /// starts after.
    @Test func theProgramStartsByHandOnlyWhenReady() throws {
        let (status, lines) = try run(StartByHandLanguageTests.lesson, [])
        #expect(status == 0, "\(lines)")
        let refused = try #require(
            lines.firstIndex { $0.contains("main thread: fetch.start() not called") }, "\(lines)")
        #expect(
            lines[refused].hasSuffix(
                "fetch is not ready (it waits for token); Foundation would stop the program: receiver is not yet "
                    + "ready to execute"), "\(lines)")
        func index(_ suffix: String) throws -> Int {
            try #require(lines.firstIndex { $0.hasSuffix("] " + suffix) }, "\(suffix): \(lines)")
        }
        let order = try [
            "finish token", "main thread: fetch.start() begins", "start fetch", "finish fetch",
            "main thread: fetch.start() returned",
        ].map(index)
        #expect(refused < order[0] && order == order.sorted(), "\(lines)")
        // parse starts on a worker once fetch finished: before or after the
        // main thread's start() returns, which Foundation does not order.
        #expect(try index("start parse") > index("finish fetch"), "\(lines)")
    }

    /// As `trace`: once every operation has finished, a timed action still
    /// to come is not waited for.
    @Test func theProgramDoesNotWaitForATimedActionAfterTheLastFinish() throws {
        let started = Date()
        let (status, lines) = try run("op a work 10ms\nat 20s cancel a")
        #expect(status == 0, "\(lines)")
        #expect(lines.contains("fact outcome completed"), "\(lines)")
        #expect(Date().timeIntervalSince(started) < 15)
    }

    /// As `trace`: a run is over once the work an operation's main() left
    /// running has ended too, so the program reports after that work's line.
    @Test func theProgramWaitsForTheWorkAMainLeftRunning() throws {
        let (status, lines) = try run("op a work 10ms leaves 300ms\nop b work 10ms after a", [])
        #expect(status == 0, "\(lines)")
        let ends = try #require(lines.firstIndex { $0.hasSuffix("a: the work its main() left running ends") })
        let over = try #require(lines.firstIndex { $0.hasSuffix("the scenario is over") })
        #expect(ends < over, "\(lines)")
    }

    static let deterministic: [(String, String, [String])] = [
        (
            "a serial queue with a dependency chain",
            """
            queue q serial
            op save  work 30ms after parse
            op parse work 30ms after fetch
            op fetch work 30ms
            op log   work 10ms priority veryLow after save
            """,
            ["fetch", "parse", "save", "log"]
        ),
        (
            "a suspended serial queue with priorities",
            """
            queue q serial suspended
            op low-one    work 50ms priority low
            op normal-one work 50ms
            op high-one   work 50ms priority high
            op urgent     work 50ms priority veryHigh
            at 100ms resume q
            """,
            ["urgent", "high-one", "normal-one", "low-one"]
        ),
        (
            "one addOperations call on a serial queue, then one add at a time",
            """
            queue q serial
            queue r serial
            op normal  on q work 30ms
            op low     on q work 30ms priority low
            op top     on q work 30ms priority veryHigh
            op normal2 on r work 30ms
            op low2    on r work 30ms priority low
            op top2    on r work 30ms priority veryHigh
            add normal, low, top
            at 300ms add normal2
            at 300ms add low2
            at 300ms add top2
            """,
            ["top", "normal", "low", "normal2", "top2", "low2"]
        ),
        (
            "a dependency cycle a cancel breaks",
            """
            queue q
            op op1 on q work 20ms after op2
            op op2 on q work 20ms after op3
            op op3 on q work 20ms after op1
            at 0ms cancel op3
            """,
            ["op2", "op1"]
        ),
    ]

    @Test(arguments: deterministic)
    func compiledProgramsPrintTheStartOrder(_ name: String, _ source: String, _ order: [String]) throws {
        let text = try program(source)
        let result = try Swiftc.run([], program: text, thenRun: true)
        #expect(result.status == 0, "\(name):\n\(result.output)")
        let starts = result.output.split(separator: "\n").compactMap { line -> String? in
            // "[ 0.101s] start urgent"
            guard let bracket = line.firstIndex(of: "]") else { return nil }
            let words = line[line.index(after: bracket)...].split(separator: " ")
            return words.count == 2 && words[0] == "start" ? String(words[1]) : nil
        }
        #expect(starts == order, "\(name):\n\(result.output)")
        #expect(result.output.contains("the scenario is over"))
    }
}
