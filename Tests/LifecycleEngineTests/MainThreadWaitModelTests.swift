import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The main thread's waits in the pure model: what a wait holds back, when
/// the run may end, and what a wait that can never return makes of a stall.
struct MainThreadWaitModelTests {
    @Test func aWaitReturnsAfterItsOperationAndTheRunCompletesOnlyThen() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let fetch = b.work("fetch", on: net, ms: 300)
        b.at(100, .wait(fetch))
        var m = RunModelTests.model(b)
        m.add(0, real: RunModelTests.ms(0))
        _ = m.begin(0, thread: 1, real: RunModelTests.ms(1))
        let effect = m.perform(.wait(fetch), origin: .timed(0), real: RunModelTests.ms(100))
        #expect(effect == .waitOnMainThread(.wait(fetch)))
        m.timedActionDone(real: RunModelTests.ms(100))
        let began = m.mainWaitStarted(.wait(fetch), real: RunModelTests.ms(101))
        #expect(began)
        _ = m.finish(0, real: RunModelTests.ms(300))
        #expect(!m.log.isClosed, "every operation finished, but the main thread's wait has not returned yet")
        #expect(!m.stallCondition, "its return is owed: what it waits for finished")
        m.mainWaitReturned(.wait(fetch), real: RunModelTests.ms(301))
        let lines = RunModelTests.lines(m)
        #expect(lines.contains("main wait fetch returned"))
        #expect(m.mainThread.waitsOpen == 0 && m.mainThread.wait == nil)
        let started = lines.firstIndex(of: "main wait fetch started") ?? -1
        let finished = lines.firstIndex(of: "fetch isFinished bool(true)") ?? -1
        #expect(0 <= started && started < finished, "started, then fetch finished, then returned")
    }

    @Test func waitingForAMainQueueOperationIsAStallThatNamesTheBlockedMainThread() throws {
        var b = ScenarioBuilder()
        let ui = b.queue("ui", main: true)
        let badge = b.work("badge", on: ui, ms: 50)
        b.at(0, .wait(badge))
        var m = RunModelTests.model(b)
        _ = m.perform(.wait(badge), origin: .timed(0), real: RunModelTests.ms(0))
        m.timedActionDone(real: RunModelTests.ms(0))
        #expect(!m.stallCondition, "the main thread has yet to begin its wait")
        let began = m.mainWaitStarted(.wait(badge), real: RunModelTests.ms(1))
        #expect(began)
        m.add(0, real: RunModelTests.ms(1))
        #expect(m.stallCondition, "badge is ready, but the one thread that runs it waits for it")
        #expect(m.stuckReasons() == [badge: .mainThreadBlocked])
        let seq = try #require(m.stallProbe(at: 1e9))
        let declared = m.declareStall(ifStillAt: seq, real: RunModelTests.ms(500))
        #expect(declared)
        #expect(RunModelTests.lines(m).last == "end stalled")
        #expect(m.isStalledNow)
    }

    @Test func aWaitThatBeginsAfterTheRunEndedDoesNotBlock() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let fetch = b.work("fetch", on: net, ms: 10)
        b.at(0, .wait(fetch))
        var m = RunModelTests.model(b)
        _ = m.perform(.wait(fetch), origin: .timed(0), real: RunModelTests.ms(0))
        _ = m.stopped()
        let began = m.mainWaitStarted(.wait(fetch), real: RunModelTests.ms(1))
        #expect(!began, "a stopped run is not waited for")
    }

    @Test func aLessonDoesNotPauseAtACaptionWhileTheMainThreadWaits() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let fetch = b.work("fetch", on: net, ms: 300)
        b.at(0, .wait(fetch))
        var m = RunModelTests.model(b, lesson: true)
        _ = m.perform(.wait(fetch), origin: .timed(0), real: RunModelTests.ms(0))
        let began = m.mainWaitStarted(.wait(fetch), real: RunModelTests.ms(1))
        #expect(began)
        m.caption(0, 0.1)
        #expect(!m.clock.isPaused, "no key could resume it while the main thread is blocked")
    }
}
