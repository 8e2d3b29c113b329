import Foundation
import Testing

@testable import ScenarioKit

/// `SwiftProgramPrinter`: the program's pieces and the identifiers it
/// picks (the programs built by the real `swiftc`: `CompiledProgramTests`).
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
}
