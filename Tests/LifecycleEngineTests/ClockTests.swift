import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

@Suite(.serialized) struct ClockTests {
    @Test(arguments: 0..<20) func speedRunsScenarioTimeFaster(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        b.work("a", on: q, ms: 2000)
        b.async("b", on: q, ms: 2000)
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        let begin = Date()
        run.start()
        try? await Task.sleep(for: .milliseconds(100))
        // The scenario clock runs at 20 scenario seconds per real second,
        // whatever the worker threads are doing (the suite's other tests
        // may keep them busy, so the run's real duration is no measure).
        // Real time read on both sides of the run's: however long passes
        // between the reads, the scenario time lies between the two.
        let before = Date().timeIntervalSince(begin)
        let now = run.now
        let after = Date().timeIntervalSince(begin)
        #expect(now >= before * 20 * 0.9 - 0.05)
        #expect(now <= after * 20 * 1.1 + 0.05)
        let all = await run.ended(timeout: 30)
        run.stop()
        let s = Stream(events: all, scenario: scenario)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(all.last).time >= 4.0)
        expectCleanStream(all, scenario)
    }

    @Test(arguments: 0..<5) func pausedRunDoesNotProgressAndResumeFinishesIt(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("w", on: q, ms: 200)
        b.async("a", on: q, ms: 200)
        let scenario = b.scenario
        let clock = SkippableClock()
        let run = ScenarioRun(
            scenario: scenario, options: RunOptions(speed: 10, startsPaused: true), realTime: clock.now)
        run.start()
        #expect(run.isPaused)
        // A minute of real time in an instant: scenario time stays at 0.
        clock.skip(seconds: 60)
        let held = run.takeEvents()
        #expect(run.now == 0)
        #expect(
            !held.contains {
                if case .operation(_, .isFinished, _, _) = $0.kind { return true }
                return false
            })
        #expect(
            !held.contains {
                if case .end = $0.kind { return true }
                return false
            })
        run.resume()
        let all = await run.ended(timeout: 10)
        run.stop()
        #expect(Stream(events: all, scenario: scenario).outcome == RunOutcome.completed)
        expectCleanStream(all, scenario)
    }

    @Test func onEventsSignalsTheMailboxAndTakeEventsDrainsInOrder() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for n in 0..<200 { b.work("w\(n)", on: q, ms: 0) }
        let scenario = b.scenario
        let signals = Counter()
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 10)) { signals.add() }
        run.start()
        var drained: [LifecycleEvent] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            drained += run.takeEvents()
            if case .end? = drained.last?.kind { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        run.stop()
        #expect(drained.map(\.seq) == Array(1...drained.count))
        #expect(signals.value >= 1 && signals.value <= drained.count)
        #expect(run.events == drained)
    }

    @Test func kvoShapedObservationDeliversInitialPriorOldAndNew() async {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.work("w", on: q, ms: 10)
        b.at(100, .resume(q))
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 10))
        let log = ChangeLog()
        let t1 = run.operation(OperationID(0)).observe(.isExecuting, options: [.initial, .old, .new, .prior]) {
            log.add("exec", $0)
        }
        let t2 = run.queue(q).observe(.isSuspended, options: [.new]) { log.add("susp", $0) }
        run.start()
        let events = await run.ended(timeout: 10)
        run.stop()
        let changes = log.all
        #expect(changes.first?.0 == "exec" && changes.first?.1.isInitial == true)
        #expect(changes.first?.1.newValue == .bool(false))
        let exec = changes.filter { $0.0 == "exec" && !$0.1.isInitial }
        #expect(exec.map(\.1.isPrior) == [true, false, true, false])
        #expect(exec[1].1.oldValue == .bool(false) && exec[1].1.newValue == .bool(true))
        #expect(changes.filter { $0.0 == "susp" }.map(\.1.newValue) == [.bool(true), .bool(false)])
        // Observer stamps are the stream's.
        for (_, c) in exec where !c.isPrior {
            #expect(events.contains { $0.seq == c.seq })
        }
        t1.invalidate()
        _ = t2
    }

    /// Invalidated from several threads at once, a token stops its
    /// observer once, and no change reaches it afterwards.
    @Test func aTokenInvalidatedFromSeveralThreadsStopsItsObserverOnce() async {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.work("w", on: q, ms: 10)
        b.at(50, .resume(q))
        let run = ScenarioRun(scenario: b.scenario, options: RunOptions(speed: 10))
        let calls = Counter()
        let token = run.operation(OperationID(0)).observe(.isExecuting, options: [.new]) { _ in calls.add() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in token.invalidate() }
        run.start()
        let events = await run.ended(timeout: 10)
        run.stop()
        #expect(events.contains { if case .operation(_, .isExecuting, _, _) = $0.kind { true } else { false } })
        #expect(calls.value == 0)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() {
        lock.lock()
        n += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}

final class ChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(String, ObservedChange)] = []
    func add(_ s: String, _ c: ObservedChange) {
        lock.lock()
        items.append((s, c))
        lock.unlock()
    }
    var all: [(String, ObservedChange)] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
