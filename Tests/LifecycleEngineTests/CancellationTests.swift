import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

@Suite(.serialized) struct CancellationTests {
    @Test(arguments: 0..<20) func cancelBeforeStartFinishesWithoutRunningAndDependentsRun(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        // Long enough (0.2 s real at ×20) that the cancel at 50ms surely
        // finds victim still waiting, even on a busy machine.
        b.work("a", on: q, ms: 4000)
        let victim = b.work("victim", on: q, ms: 100)
        b.work("after", on: q, ms: 10, after: [victim])
        b.at(50, .cancel(victim))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.cancelled("victim"))
        #expect(s.started("victim") == nil)
        #expect(s.finished("victim") != nil)
        #expect(try #require(s.finished("victim")) < #require(s.started("after")))
        #expect(try #require(s.seq("after", .isReady)) > #require(s.finished("victim")))
    }

    @Test(arguments: 0..<20) func cancelOfAWaitingOperationMakesItReady(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        // slow is async so that it holds no worker thread: the cancelled
        // waiter needs one to run its start() (ENGINE-NOTES: the pool ramps
        // slowly, and other suites' sync work may hold both workers).
        let slow = b.async("slow", on: q, ms: 4000)
        b.work("waiter", on: q, ms: 10, after: [slow])
        b.at(50, .cancel(OperationID(1)))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        // isCancelled, then isReady (Foundation's cancel makes it ready), then its finish, all before slow ends.
        let c = try #require(s.seq("waiter", .isCancelled))
        let r = try #require(s.seq("waiter", .isReady))
        let f = try #require(s.finished("waiter"))
        #expect(c < r && r < f)
        #expect(f < (s.finished("slow") ?? 0))
        #expect(s.started("waiter") == nil)
    }

    @Test(arguments: 0..<20) func cooperativeCancelStopsAnExecutingOperationEarly(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 20_000)
        // At 4 s (0.2 s of real time at ×20) it has started, also under the
        // thread sanitizer on a busy machine.
        b.at(4_000, .cancel(a))
        let s = await runChecked(b, speed: 20)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.started("a")) < #require(s.seq("a", .isCancelled)))
        // Far earlier than its 20 s of work: a generous bound (half a second
        // of real time after the cancel at ×20) for a busy machine.
        #expect(try #require(s.time("a", .isFinished)) < 14)
    }

    @Test(arguments: 0..<20) func ignoresCancelRunsToTheEndAndEndsCancelled(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        // The cancel must come while it runs: 300 ms after its start, and
        // 2.7 s before its end, for a busy machine (one run here saw a timed
        // action 1.6 s late under two CPU hogs and two builds).
        let a = b.work("a", on: q, ms: 3000, ignoresCancel: true)
        b.at(300, .cancel(a))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.cancelled("a"))
        #expect(try #require(s.time("a", .isFinished)) >= 3)
    }

    @Test(arguments: 0..<20) func cancelAllCancelsRunningAndWaitingOperations(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        for n in 0..<4 { b.work("w\(n)", on: q, ms: 20_000) }
        // At 2s (0.1s of real time at ×20), w0 has started even under the
        // thread sanitizer; at 100ms (5ms real) it once had not.
        b.at(2_000, .cancelAll(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["w0"])
        for n in 0..<4 { #expect(s.cancelled("w\(n)")) }
        #expect(try #require(s.time("w0", .isFinished)) < 10)
    }

    @Test(arguments: 0..<20) func asyncOperationFinishesThroughItsOwnNotifications(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        let a = b.async("a", on: q, ms: 300)
        b.work("next", on: q, ms: 0, after: [a])
        b.async("zero", on: q, ms: 0)
        b.async("cancelled", on: q, ms: 30_000)
        b.at(600, .cancel(OperationID(3)))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.time("a", .isFinished)) - #require(s.time("a", .isExecuting)) >= 0.3)
        #expect(try #require(s.finished("a")) < #require(s.started("next")))
        #expect(try #require(s.time("cancelled", .isFinished)) < 15)
        #expect(s.cancelled("cancelled"))
    }

    @Test(arguments: 0..<20) func cancelRacingTheStartGivesExactlyOneFinish(_ round: Int) async {
        // Many cancels land around starts; the checks count finishes and
        // forbid cancelled-then-executing.
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        var ids: [OperationID] = []
        for n in 0..<40 { ids.append(b.work("w\(n)", on: q, ms: n % 3 == 0 ? 0 : 5)) }
        for (n, id) in ids.enumerated() { b.at(n * 3, .cancel(id)) }
        let s = await runChecked(b, speed: 10)
        #expect(s.outcome == RunOutcome.completed)
    }
}
