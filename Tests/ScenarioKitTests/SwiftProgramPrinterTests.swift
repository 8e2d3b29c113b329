import Foundation
import Testing

@testable import ScenarioKit

/// `SwiftProgramPrinter`: the program's pieces, the identifiers it picks,
/// and (with the real `swiftc`) that its programs type-check and, for
/// deterministic scenarios, print the start order opscope promises.
@Suite struct SwiftProgramPrinterTests {
    func program(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let scenario = try #require(ScenarioReader.read(source).scenario, sourceLocation: sourceLocation)
        return SwiftProgramPrinter().program(for: scenario)
    }

    // MARK: Spelling

    @Test(arguments: [
        (Duration.zero, "0.0"), (.milliseconds(300), "0.3"), (.milliseconds(1200), "1.2"), (.seconds(2), "2.0"),
        (.nanoseconds(1), "0.000000001"), (.milliseconds(59_990), "59.99"),
    ])
    func durationsBecomeSecondsAsDoubleLiterals(_ duration: Duration, _ literal: String) {
        #expect(SwiftIdentifiers.seconds(duration) == literal)
    }

    @Test func namesBecomeDistinctSwiftIdentifiers() {
        var identifiers = SwiftIdentifiers()
        let names = ["dl-1", "dl_1", "default", "default", "say", "self", "_", "fetch", "t0", "OperationQueue"]
        let claimed = names.map { identifiers.claim($0, suffix: "Op") }
        #expect(
            claimed == [
                "dl_1", "dl_1Op", "defaultOp", "defaultOp2", "sayOp", "selfOp", "_Op", "fetch", "t0Op",
                "OperationQueueOp",
            ])
    }

    @Test func stringLiteralsAndCommentsAreEscaped() {
        #expect(SwiftIdentifiers.stringLiteral("a \"b\" \\ c\r\u{2028}é") == #""a \"b\" \\ c\r\u{2028}é""#)
        #expect(SwiftIdentifiers.comment("one\rtwo\u{2028}three") == ["// one two three"])
        #expect(SwiftIdentifiers.comment("aaa bbb ccc", width: 7) == ["// aaa bbb", "// ccc"])
    }

    // MARK: The program's pieces

    @Test func namesWithDashesKeepTheirNameAndGetAnIdentifier() throws {
        let text = try program(
            "queue dl-q max 2\nop dl-1 work 100ms\nop dl-2 work 100ms after dl-1\nat 50ms cancel dl-2")
        #expect(text.contains("    let dl_q = OperationQueue()\n    dl_q.name = \"dl-q\""))
        #expect(text.contains("    let dl_1 = SimulatedWork(\"dl-1\", seconds: 0.1)"))
        #expect(text.contains("    dl_2.addDependency(dl_1)"))
        #expect(text.contains("    dl_q.addOperation(dl_1)\n    dl_q.addOperation(dl_2)"))
        #expect(text.contains("        say(\"at 50ms: cancel dl-2\")\n        dl_2.cancel()"))
    }

    @Test func everyBodyUsesItsOperationClass() throws {
        let text = try program(
            """
            op a work 1s
            op b work 1s ignores-cancel
            op c blocks 100ms, 200ms
            op d blocks 2 x 1ms ignores-cancel
            op e async 2s
            op f async 2s ignores-cancel
            op g async 2s never-finishes
            barrier h work 100ms
            """)
        #expect(text.contains("let a = SimulatedWork(\"a\", seconds: 1.0)"))
        #expect(text.contains("let b = NonCooperativeWork(\"b\", seconds: 1.0)"))
        #expect(text.contains("let c = SimulatedBlocks(\"c\", blockSeconds: [0.1, 0.2])"))
        #expect(
            text.contains("let d = SimulatedBlocks(\"d\", blockSeconds: [0.001, 0.001], checksCancellation: false)"))
        #expect(text.contains("let e = AsyncOperation(\"e\", seconds: 2.0)"))
        #expect(text.contains("let f = AsyncOperation(\"f\", seconds: 2.0, stopsWhenCancelled: false)"))
        #expect(text.contains("let g = ForgetfulAsyncOperation(\"g\", seconds: 2.0)"))
        #expect(text.contains("let h = Barrier(\"h\", seconds: 0.1)"))
        #expect(text.contains("h.add(to: defaultQueue)  // queue.addBarrierBlock"))
        #expect(text.contains("THE BUG, on purpose"))
        #expect(text.contains("override var isAsynchronous: Bool { true }"))
        #expect(text.contains("didChangeValue(forKey: \"isFinished\")"))
    }

    @Test func onlyTheHelpersAScenarioUsesArePrinted() throws {
        let text = try program("op a work 1s")
        #expect(text.contains("final class SimulatedWork"))
        for absent in [
            "NonCooperativeWork", "SimulatedBlocks", "AsyncOperation", "class Barrier", "BarrierCancellation",
            "timeline",
        ] {
            #expect(!text.contains(absent), "\(absent)")
        }
    }

    @Test func queuesGetTheirRealProperties() throws {
        let text = try program(
            "queue a max 3 qos background suspended\nqueue b serial\nqueue c\nqueue ui main\n"
                + "op w on a work 1s\nop x on b work 1s\nop y on c work 1s\nop z on ui work 1s\nat 1s resume a")
        #expect(text.contains("    a.maxConcurrentOperationCount = 3\n"))
        #expect(text.contains("    a.qualityOfService = .background\n"))
        #expect(text.contains("    a.isSuspended = true\n"))
        #expect(text.contains("    b.maxConcurrentOperationCount = 1\n"))
        #expect(
            text.contains("    c.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount\n"))
        #expect(text.contains("    let ui = OperationQueue.main\n"))
        #expect(!text.contains("ui.name"))
    }

    @Test func completionBlocksPerformTheirAction() throws {
        let text = try program("queue downloads max 2\nop e5 work 100ms completion cancel-all downloads\nop e6 work 1s")
        #expect(
            text.contains(
                """
                    e5.completionBlock = {
                        say("completion block of e5")
                        say("completion block of e5: cancel-all downloads")
                        downloads.cancelAllOperations()
                """))
        #expect(text.contains("tally.mark(\"completion of e5\")"))
        #expect(text.contains("events: [\"completion of e5\"]"))
    }

    @Test func timedActionsOfOneTimeShareOneSchedule() throws {
        let text = try program(
            "queue q\nop a work 1s\nop b work 1s\nbarrier c\nat 1s priority a high\nat 1s max q default\n"
                + "at 1s add c\nat 2s max q 3\nat 2s suspend q\nat 3s resume q")
        #expect(
            text.contains(
                """
                    timeline.asyncAfter(deadline: t0 + 1.0) {
                        say("at 1s: priority a high")
                        a.queuePriority = .high
                        say("at 1s: max q default")
                        q.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
                        say("at 1s: add c")
                        c.add(to: q)  // queue.addBarrierBlock
                        tally.mark("at 1s")
                    }
                """))
        #expect(!text.contains("    c.add(to: q)  // queue.addBarrierBlock\n    timeline"))
        #expect(
            text.contains(
                "        [a, b, c],\n        timedActions: [(\"at 1s\", 1.0), (\"at 2s\", 2.0), (\"at 3s\", 3.0)], from: t0,\n"
            ))
        #expect(!text.contains("        events: ["))
        // 3s (last action) + 2s of work + 2s.
        #expect(text.contains("tally: tally, timeout: 7.0)"))
    }

    @Test func aDependencyOnABarrierGoesThroughItsStandIn() throws {
        let text = try program("op a work 1s\nbarrier flush work 100ms\nop b work 1s after flush")
        #expect(text.contains("    let flushDone = BlockOperation()"))
        #expect(text.contains("    let flush = Barrier(\"flush\", seconds: 0.1, done: flushDone)"))
        #expect(text.contains("    b.addDependency(flushDone)"))
    }

    @Test func aCancelAllOfAQueueWithBarriersGoesThroughItsBarrierCancellation() throws {
        let text = try program(
            "queue q max 2\nqueue r\nop a on q work 400ms ignores-cancel\nbarrier b on q\nop c on r work 100ms after b\n"
                + "op d on r work 1s completion cancel-all q\nat 100ms cancel-all q\nat 200ms suspend q\n"
                + "at 300ms resume q\nat 300ms cancel-all r")
        #expect(text.contains("final class BarrierCancellation"))
        #expect(text.contains("    let qBarriers = BarrierCancellation(q, barriers: [b])\n"))
        #expect(
            text.contains("        qBarriers.cancelAllOperations()  // q.cancelAllOperations(), barriers included\n"))
        #expect(text.contains("        qBarriers.resume()  // q.isSuspended = false\n"))
        #expect(text.contains("        q.isSuspended = true  // starts nothing more"))
        // r has no barrier: its cancel-all is Foundation's own call.
        #expect(text.contains("        r.cancelAllOperations()  // cancel() on each operation still in the queue\n"))
        #expect(!text.contains("rBarriers"))
    }

    @Test(arguments: [
        "op a work 1s\nbarrier b\nat 1s suspend default\nat 2s resume default",
        "queue ui main\nop a on ui work 1s\nbarrier b on ui\nat 1s cancel-all ui",
    ])
    func barriersThatNoCancelAllCanCancelNeedNoBarrierCancellation(_ source: String) throws {
        #expect(!(try program(source)).contains("BarrierCancellation"))
    }

    @Test func theQuizAsksForTheFourWords() throws {
        let text = try program("op a work 1s\nquiz \"How does a end?\" answer final-state")
        #expect(text.contains("(finished, cancelled, skipped, stuck)"))
        #expect(!text.contains("never started"))
    }

    @Test func headerExpectationsAndQuizAreComments() throws {
        let scenario = try #require(
            ScenarioReader.read(
                "title \"Chain\"\nnote \"Watch it.\"\nop a work 1s\nop b work 1s after a\nexpect a before b\n"
                    + "expect order a, b\nquiz \"Which starts first?\" answer start-order"
            ).scenario)
        let text = SwiftProgramPrinter(sourceName: "chain.ops").program(for: scenario)
        #expect(
            text.hasPrefix("// Chain\n//\n// Watch it.\n//\n// This program was written by `opscope swift chain.ops`"))
        #expect(text.contains("// Quiz: Which starts first?\n// Answer with the order in which the operations start"))
        #expect(
            text.hasSuffix(
                """
                runScenario()

                // MARK: - What the scenario expects
                //
                // opscope checks these claims after a run (`opscope trace FILE`); compare them
                // with what this program prints.
                //
                //   expect a before b
                //       a finishes before b starts
                //   expect order a, b
                //       they start in exactly this order

                """))
    }

    @Test func speedAndCaptionsAreComments() throws {
        let text = try program(
            """
            speed 0.5
            queue net
            op fetch on net work 300ms
            op parse on net work 200ms after fetch
            barrier flush on net
            at 100ms say "fetch is running"
            at 100ms cancel parse
            at 50ms say "first"
            at 9s say "after every action"
            when parse cancelled say "parse was cancelled"
            when parse ready say "parse is ready"
            when fetch starts say "fetch starts"
            when flush finishes say "the barrier is done"
            """)
        #expect(
            text.contains(
                """
                func runScenario() -> Never {
                    // The scenario asks opscope's interactive view for speed 0.5 (scenario
                    // seconds per real second) when no --speed is given. This program has no
                    // scenario clock: it runs in real time.
                """))
        #expect(
            text.contains(
                """
                    let fetch = SimulatedWork("fetch", seconds: 0.3)
                    // The lesson's captions: opscope's interactive view shows each one when
                    // the run reaches it (in lesson mode it pauses there until Space). This
                    // program only keeps them as comments.
                    // when fetch starts, the lesson says: fetch starts

                """))
        #expect(
            text.contains(
                """
                    let parse = SimulatedWork("parse", seconds: 0.2)
                    // when parse is cancelled, the lesson says: parse was cancelled
                    // when parse becomes ready, the lesson says: parse is ready

                """))
        #expect(
            text.contains(
                "    let flush = Barrier(\"flush\", seconds: 0.0)\n"
                    + "    // when flush finishes, the lesson says: the barrier is done\n"))
        #expect(text.contains("    // MARK: Timed actions and captions\n"))
        #expect(
            text.contains(
                """
                    let timeline = DispatchQueue(label: "scenario.timeline")
                    // at 50ms, the lesson says: first
                    // at 100ms, the lesson says: fetch is running
                    timeline.asyncAfter(deadline: t0 + 0.1) {
                """))
        #expect(
            text.contains(
                "        tally.mark(\"at 100ms\")\n    }\n    // at 9s, the lesson says: after every action\n"))
        // Captions wait for nothing: the events and the timeout are those of the actions.
        #expect(text.contains("timedActions: [(\"at 100ms\", 0.1)], from: t0,"))
        #expect(text.contains("tally: tally, timeout: 2.6)"))
    }

    @Test func captionsWithoutActionsHaveASectionOfTheirOwn() throws {
        let text = try program("op a work 1s\nat 1s say \"one\"")
        #expect(
            text.contains(
                """
                    // MARK: Timed captions

                    // The lesson's captions: opscope's interactive view shows each one when
                    // the run reaches it (in lesson mode it pauses there until Space). This
                    // program only keeps them as comments.
                    // at 1s, the lesson says: one

                    // MARK: Wait for the end
                """))
        #expect(!text.contains("timeline"))
        #expect(!text.contains("t0"))
    }

    // MARK: With the real compiler

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
        #expect(starts == ["ok", "lost", "long"] || starts == ["lost", "ok", "long"], "\(lines)")
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

/// The Swift compiler as a subprocess: `/opt/swift/usr/bin/swiftc` when
/// present, else the one on `PATH`.
enum Swiftc {
    struct Result {
        var status: Int32
        /// Standard output and standard error, together.
        var output: String
    }

    static var executable: String {
        let fixed = "/opt/swift/usr/bin/swiftc"
        if FileManager.default.isExecutableFile(atPath: fixed) { return fixed }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "swiftc"
    }

    /// Writes `program` to a scratch file and runs swiftc on it with
    /// `arguments`; with `thenRun`, compiles it and runs the executable
    /// with `runArguments` (whose output is returned).
    static func run(
        _ arguments: [String], program: String, thenRun: Bool = false, runArguments: [String] = []
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("opscope-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("scenario.swift")
        try Data(program.utf8).write(to: source)
        let binary = directory.appendingPathComponent("scenario").path
        var compile = arguments + [source.path]
        if thenRun { compile += ["-o", binary] }
        let compiled = try launch(executable, compile, timeout: 120)
        guard thenRun, compiled.status == 0 else { return compiled }
        return try launch(binary, runArguments, timeout: 30)
    }

    private static func launch(_ path: String, _ arguments: [String], timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var data = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "swiftc.reader").async {
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            done.wait()
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
