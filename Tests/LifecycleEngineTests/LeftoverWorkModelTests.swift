import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// `work D leaves D2` in the pure model: the work a `main()` left running
/// begins as it returns, before Foundation finishes the operation, and the
/// run waits for it to end.
struct LeftoverWorkModelTests {
    static func scenario(cancelled: Bool = false) -> Scenario {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let download = b.work("download", on: net, ms: 100)
        b.work("parse", on: net, ms: 50, after: [download])
        var scenario = b.scenario
        scenario.leftovers[download] = .seconds(1)
        return scenario
    }

    @Test func theDependentIsReleasedWhileTheWorkRunsOnAndTheRunWaitsForIt() {
        var m = RunModel(scenario: Self.scenario(), options: RunOptions())
        _ = m.start(real: RunModelTests.ms(0))
        m.add(0, real: RunModelTests.ms(0))
        m.add(1, real: RunModelTests.ms(0))
        _ = m.begin(0, thread: 1, real: RunModelTests.ms(1))
        _ = m.syncMainEnded(0, real: RunModelTests.ms(101))
        var lines = RunModelTests.lines(m)
        let left = lines.firstIndex(of: "download leftover started") ?? -1
        let stopped = lines.firstIndex(of: "download isExecuting bool(false)") ?? -1
        let released = lines.firstIndex(of: "parse isReady bool(true)") ?? -1
        #expect(0 <= left && left < stopped && stopped < released, "\(lines)")
        #expect(m.nextScheduled()?.item == .leftover(0))
        _ = m.begin(1, thread: 1, real: RunModelTests.ms(102))
        _ = m.syncMainEnded(1, real: RunModelTests.ms(152))
        #expect(!m.log.isClosed, "every operation finished; the work download left runs on")
        #expect(!m.stallCondition)
        m.take(.leftover(0))
        m.leftoverEnded(0, real: RunModelTests.ms(1101))
        lines = RunModelTests.lines(m)
        #expect(lines.suffix(2) == ["download leftover returned", "end completed"])
    }

    @Test func aMainThatSawItsCancelLeavesNothingRunning() {
        var m = RunModel(scenario: Self.scenario(), options: RunOptions())
        _ = m.start(real: RunModelTests.ms(0))
        m.add(0, real: RunModelTests.ms(0))
        _ = m.begin(0, thread: 1, real: RunModelTests.ms(1))
        _ = m.cancelled(0, real: RunModelTests.ms(50)) { true }
        _ = m.syncMainEnded(0, real: RunModelTests.ms(51))
        #expect(!RunModelTests.lines(m).contains("download leftover started"))
        #expect(m.timers.leftoversPending == 0)
    }
}

/// `never-finishes if-cancelled` in the pure model: cancelled before it
/// started, its start() posts nothing, and it holds its serial queue's slot.
struct StrandedModelTests {
    @Test func aStrandedOperationHoldsItsSlotAndTheRunStallsOnIt() {
        var b = ScenarioBuilder()
        let net = b.queue("net", cap: .limit(1))
        let fetch = b.async("fetch", on: net, ms: 100)
        b.work("next", on: net, ms: 10)
        var scenario = b.scenario
        scenario.forgetsIfCancelled = [fetch]
        var m = RunModel(scenario: scenario, options: RunOptions())
        _ = m.start(real: RunModelTests.ms(0))
        m.add(0, real: RunModelTests.ms(0))
        m.add(1, real: RunModelTests.ms(0))
        _ = m.cancelled(0, real: RunModelTests.ms(1)) { true }
        let step = m.asyncStarted(0, thread: CurrentThread.identity, real: RunModelTests.ms(2))
        #expect(!step.postsExecuting && !step.postsFinished, "nothing posted")
        #expect(RunModelTests.lines(m).last == "fetch stranded")
        #expect(m.value(ofOperation: 0, .isExecuting) == .bool(false))
        #expect(m.value(ofOperation: 0, .isFinished) == .bool(false))
        #expect(m.queues[0].executing == 1, "its serial queue counts it as running")
        #expect(m.stallCondition)
        #expect(m.stuckReasons()[fetch] == .neverPostedFinish)
    }
}
