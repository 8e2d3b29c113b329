import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// `StallPolicy.waitsForUser`, the interface's runs: a stall is a state the
/// user can leave, announced as `.stall`, with scenario time held until the
/// next action; the run ends only when everything finished.
@Suite("a stalled run that waits for the user")
struct WaitingForUserTests {
    static func waitFor(
        _ run: ScenarioRun, timeout: Double = 20, _ condition: ([LifecycleEvent]) -> Bool
    ) async -> [LifecycleEvent] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let events = run.events
            if condition(events) { return events }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return run.events
    }

    static func stalls(_ events: [LifecycleEvent]) -> [(seq: Int, time: Double, stuck: [OperationID: StuckReason])] {
        events.compactMap { e in
            if case .stall(let stuck) = e.kind { return (e.seq, e.time, stuck) }
            return nil
        }
    }

    static func isEnd(_ e: LifecycleEvent) -> Bool {
        if case .end = e.kind { return true }
        return false
    }

    @Test("a queue suspended with work waiting: .stall, time held, and resume lets the run complete")
    func suspendedQueueWaitsThenResumes() async {
        var b = ScenarioBuilder()
        let q = b.queue("downloads", cap: .limit(2))
        b.async("first", on: q, ms: 100)
        b.async("second", on: q, ms: 100)
        let third = b.async("third", on: q, ms: 100)
        b.at(50, .suspend(q))
        let scenario = b.scenario
        let clock = SkippableClock()
        let run = ScenarioRun(
            scenario: scenario, options: RunOptions(speed: 4, stallPolicy: .waitsForUser), realTime: clock.now)
        run.start()
        let stalled = await Self.waitFor(run) { !Self.stalls($0).isEmpty }
        let stall = Self.stalls(stalled).first
        #expect(stall?.stuck == [third: .queueSuspended(q)])
        #expect(!stalled.contains(where: Self.isEnd), "a stall must not end the run")

        // Time stands still while the run waits: a minute of real time,
        // skipped in an instant.
        let held = run.now
        clock.skip(seconds: 60)
        #expect(run.now == held)
        #expect(!run.hasEnded)

        #expect(run.perform(.resume(q)))
        let events = await Self.waitFor(run) { $0.contains(where: Self.isEnd) }
        run.stop()
        #expect(events.last?.kind == .end(.completed))
        // The resume is stamped where time stopped, not a minute × 4 later.
        let resume = events.first {
            if case .action(.resume, .user, nil) = $0.kind { return true } else { return false }
        }
        if let resume, let stall {
            #expect(resume.time - stall.time < 0.1)
        } else {
            Issue.record("no stall or no resume in the stream")
        }
        #expect(Self.stalls(events).count == 1)
        expectCleanStream(events, scenario)
    }

    @Test("an action that frees nothing: the stall is announced again, with its reasons")
    func stallAnnouncedAgainAfterAnUnhelpfulAction() async {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        let a = b.work("a", on: q, ms: 50)
        let c = b.work("c", on: q, ms: 50)
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 4, stallPolicy: .waitsForUser))
        run.start()
        _ = await Self.waitFor(run) { Self.stalls($0).count == 1 }
        #expect(run.perform(.cancel(a)))
        let events = await Self.waitFor(run) { Self.stalls($0).count == 2 }
        let stalls = Self.stalls(events)
        #expect(stalls.count == 2)
        // Cancelled in a suspended queue: ready, but it still waits for the queue.
        #expect(stalls.last?.stuck == [a: .queueSuspended(q), c: .queueSuspended(q)])
        #expect(run.perform(.resume(q)))
        let done = await Self.waitFor(run) { $0.contains(where: Self.isEnd) }
        run.stop()
        #expect(done.last?.kind == .end(.completed))
        expectCleanStream(done, scenario)
    }

    @Test("an operation that never posts isFinished: one .stall, never an end")
    func neverFinishingWaitsForever() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let forgets = b.async("forgets", on: q, ms: 10, neverFinishes: true)
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 4, stallPolicy: .waitsForUser))
        run.start()
        // That it is announced once, and never ends the run, however long
        // the scheduler watches on: RunModelFactsTests, on made-up times.
        let events = await Self.waitFor(run) { !Self.stalls($0).isEmpty }
        run.stop()
        #expect(Self.stalls(events).map(\.stuck) == [[forgets: .neverPostedFinish]])
        #expect(!events.contains(where: Self.isEnd))
    }

    @Test("a run the user paused is never declared stalled; once resumed it is")
    func noStallWhilePaused() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let forgets = b.async("forgets", on: q, ms: 10, neverFinishes: true)
        let run = ScenarioRun(
            scenario: b.scenario, options: RunOptions(speed: 4, startsPaused: true, stallPolicy: .waitsForUser))
        run.start()
        // That the watch declares nothing however long the pause lasts:
        // RunModelFactsTests, on made-up times; here, that the resume lets
        // the real run's stall come.
        #expect(Self.stalls(run.events).isEmpty)
        run.resume()
        let events = await Self.waitFor(run) { !Self.stalls($0).isEmpty }
        run.stop()
        #expect(Self.stalls(events).map(\.stuck) == [[forgets: .neverPostedFinish]])
    }

    @Test("trace's policy is unchanged: the stall ends the run")
    func endsRunPolicyEnds() async {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        let a = b.work("a", on: q, ms: 50)
        let run = ScenarioRun(scenario: b.scenario, options: RunOptions(speed: 4))
        run.start()
        let events = await run.ended(timeout: 20)
        run.stop()
        #expect(events.last?.kind == .end(.stalled([a: .queueSuspended(q)])))
        #expect(Self.stalls(events).isEmpty)
    }

    @Test("the clock: a hold and a pause stop it independently; it moves only when neither holds")
    func clockHoldAndPause() {
        var clock = ScenarioClock(speed: 2, paused: false)
        let second: UInt64 = 1_000_000_000
        clock.start(0)
        #expect(clock.now(second) == 2)
        clock.hold(second)
        #expect(clock.now(3 * second) == 2)
        clock.pause(3 * second)
        clock.release(4 * second)
        #expect(clock.now(5 * second) == 2, "still paused")
        clock.resume(6 * second)
        #expect(clock.now(7 * second) == 4)
        clock.pause(7 * second)
        clock.hold(8 * second)
        clock.resume(9 * second)
        #expect(clock.now(10 * second) == 4, "still held")
        clock.release(10 * second)
        #expect(clock.now(11 * second) == 6)
    }
}
