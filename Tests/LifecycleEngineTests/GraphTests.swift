import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// Dependencies, barriers, completion blocks, adds, stalls.
@Suite(.serialized) struct GraphTests {
    @Test(arguments: 0..<20) func crossQueueDependencies(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let net = b.queue("net", cap: .limit(2))
        let disk = b.queue("disk", cap: .limit(1))
        let fetch = b.work("fetch", on: net, ms: 100)
        let parse = b.async("parse", on: disk, ms: 50, after: [fetch])
        b.work("save", on: net, ms: 20, after: [parse, fetch])
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.seq("parse", .isReady)) > #require(s.finished("fetch")))
        #expect(try #require(s.started("save")) > #require(s.finished("parse")))
    }

    @Test(arguments: 0..<20) func barrierOrdersWhatCameBeforeAndAfter(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(3))
        let other = b.queue("other")
        b.async("a", on: q, ms: 100)
        b.async("b", on: q, ms: 200)
        let x = b.barrier("x", on: q, ms: 50)
        b.async("c", on: q, ms: 20)
        b.async("d", on: q, ms: 20)
        b.async("e", on: other, ms: 10, after: [x])
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        let barrierStart = try #require(s.started("x"))
        #expect(try barrierStart > #require(s.finished("a")) && barrierStart > #require(s.finished("b")))
        for n in ["c", "d", "e"] { #expect(try #require(s.started(n)) > #require(s.finished("x"))) }
        // Barriers do not count in operationCount; five ops were added.
        let adds = s.events.filter {
            if case .queue(_, .operationCount, .int(let o), .int(let n)) = $0.kind { return n > o }
            return false
        }
        #expect(adds.count == 5)
    }

    @Test(arguments: 0..<20) func barrierOnAnEmptyQueueAndCancelAllOfAWaitingBarrier(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        let other = b.queue("other")
        b.barrier("first", on: q, ms: 10)
        b.async("long", on: q, ms: 4000)
        let x = b.barrier("x", on: q)
        b.async("later", on: other, ms: 10, after: [x])
        // Late enough that `long` has started even on a loaded machine
        // (at 100 ms it was sometimes cancelled before its start).
        b.at(400, .cancelAll(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.finished("first")) < #require(s.started("long")))
        #expect(s.cancelled("x") && s.started("x") == nil)
        #expect(try #require(s.finished("x")) < #require(s.started("later")))
    }

    /// Checked against plain Foundation (the real barrier operation's
    /// flags, 20 runs): cancelAllOperations cancels a waiting barrier at
    /// once, and Foundation finishes it only when the synchronous work
    /// before it returns; what was added after it finishes after it.
    @Test(arguments: 0..<10) func aCancelledBarrierFinishesWhenTheWorkBeforeItReturns(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(3))
        b.work("w", on: q, ms: 400, ignoresCancel: true)
        b.barrier("flush", on: q)
        b.work("after", on: q, ms: 100)
        b.at(100, .cancelAll(q))
        let s = await runChecked(b, speed: 4)
        #expect(s.outcome == RunOutcome.completed)
        guard let cancelled = s.seq("flush", .isCancelled), let wDone = s.finished("w"),
            let flushDone = s.finished("flush"), let afterDone = s.finished("after")
        else {
            Issue.record("missing events")
            return
        }
        #expect(s.started("flush") == nil, "its block never runs")
        #expect(cancelled < wDone)
        #expect(wDone < flushDone, "announced when Foundation finishes it, not at the cancel")
        #expect(flushDone < afterDone)
        #expect((s.time("flush", .isFinished) ?? 0) >= (s.time("w", .isFinished) ?? 1))
    }

    @Test(arguments: 0..<20) func completionBlocksRunAfterTheFinishAlsoWhenCancelled(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        b.work("a", on: q, ms: 2000, completion: [])
        let c = b.work("c", on: q, ms: 50, completion: [])
        b.at(10, .cancel(c))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        for name in ["a", "c"] {
            let i = s.id(name)
            let completion = s.events.first {
                if case .completion(let id, let thread) = $0.kind { return id.index == i && !thread.isMain }
                return false
            }
            let ran = try #require(completion, "\(name)'s completion block did not run off the main thread")
            #expect(try ran.seq > #require(s.finished(name)))
        }
    }

    @Test(arguments: 0..<20) func completionActionsArePerformedWithTheirOrigin(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q1 = b.queue("q1")
        let q2 = b.queue("q2", suspended: true)
        let a = b.work("a", on: q1, ms: 50, completion: [.cancelAll(q2)])
        b.work("b", on: q2, ms: 50)
        b.work("c", on: q2, ms: 50)
        // Late (0.5 s real at ×20): the completion block runs on a global
        // queue, which other suites' synchronous work may keep busy.
        b.at(10_000, .resume(q2))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        let action = s.events.first {
            if case .action(.cancelAll(q2), .completion(a), nil) = $0.kind { return true }
            return false
        }
        let cancelAll = try #require(action, "a's completion block did not cancel q2")
        for name in ["b", "c"] {
            #expect(s.cancelled(name) && s.started(name) == nil)
            #expect(try #require(s.seq(name, .isCancelled)) > cancelAll.seq)
        }
    }

    @Test(arguments: 0..<20) func addAtALaterTimeAndRefusedReAdd(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("early", on: q, ms: 10)
        // Still working at 300 ms, when the second add comes (until 800 ms:
        // a margin for a busy machine): a run ends when its operations do,
        // before an action due later.
        let late = b.work("late", on: q, ms: 600)
        b.at(200, .add(late))
        b.at(300, .add(late))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.seq("late", .isReady)) > #require(s.actionSeq(0)))
        #expect(try #require(s.time("late", .isReady)) >= 0.2)
        let refused = s.events.first {
            if case .action(.add, .timed(1), let why) = $0.kind { return why != nil }
            return false
        }
        #expect(refused != nil)
    }

    @Test(arguments: 0..<20) func neverFinishingOperationStallsItAndItsDependents(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let s2 = b.queue("parked", suspended: true)
        let a = b.async("a", on: q, ms: 10, neverFinishes: true)
        let bb = b.work("b", on: q, ms: 10, after: [a])
        let c = b.work("c", on: q, ms: 10, after: [bb])
        let p = b.work("p", on: s2, ms: 10)
        b.work("fine", on: q, ms: 10)
        // After a started (else its start() finishes it, cancelled): 500 ms
        // of margin for a busy machine.
        b.at(500, .cancel(a))
        let s = await runChecked(b)
        let stuck = s.outcome?.stuck ?? [:]
        #expect(stuck[a] == .neverPostedFinish)
        #expect(stuck[bb] == .waitsFor(a, root: a))
        #expect(stuck[c] == .waitsFor(bb, root: a))
        #expect(stuck[p] == .queueSuspended(s2))
        #expect(stuck.count == 4)
        #expect(s.cancelled("a"))
    }

    @Test(arguments: 0..<5) func layeredGraphOf10000OperationsCompletesCleanly(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let width = 1000
        for layer in 0..<10 {
            for n in 0..<width {
                let after: [OperationID] =
                    layer == 0
                    ? [] : [OperationID((layer - 1) * width + n), OperationID((layer - 1) * width + (n + 1) % width)]
                b.work("l\(layer)n\(n)", on: q, ms: 0, after: after)
            }
        }
        let s = await runChecked(b, timeout: 120)
        #expect(s.outcome == RunOutcome.completed)
    }

    /// A run this large makes its Foundation objects a chunk at a time as
    /// it hands them over, while earlier ones run and are let go of:
    /// every kind of operation and option comes out as if made before the
    /// first add (the invariants of the stream hold, each operation
    /// finishes once, and every completion block runs).
    @Test func aLargeRunMadeAsItIsHandedOverRunsEveryKindOfOperation() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let r = b.queue("r", cap: .limit(2))
        var withCompletion = 0
        var lastWork: OperationID?
        let count = 50_000
        for i in 0..<count {
            // A few barriers: Foundation makes each one wait for every
            // operation its queue holds.
            switch i % 10 {
            case 9 where i % 1000 == 999: b.barrier("b\(i)", on: r)
            case 8, 9: b.work("r\(i)", on: r, ms: 0)
            case 7:
                b.async("a\(i)", on: q, ms: 0)
            case 6:
                withCompletion += 1
                b.work("c\(i)", on: q, ms: 0, priority: .high, qos: .utility, completion: [])
            default:
                lastWork = b.work("w\(i)", on: q, ms: 0, after: i % 3 == 0 ? lastWork.map { [$0] } ?? [] : [])
            }
        }
        let s = await runChecked(b, timeout: 300)
        #expect(s.outcome == RunOutcome.completed)
        var finished = Set<Int>()
        var completions = 0
        for event in s.events {
            switch event.kind {
            case .operation(let op, .isFinished, _, .bool(true)): #expect(finished.insert(op.index).inserted)
            case .completion: completions += 1
            default: break
            }
        }
        #expect(finished.count == count)
        #expect(completions == withCompletion)
    }
}
