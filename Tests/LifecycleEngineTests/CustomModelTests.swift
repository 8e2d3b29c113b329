import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// An operation of the user's own class (`class TYPE`) in the pure model:
/// it begins only on a call or an answer seen, finishes only when
/// Foundation was told, and one whose getter says finished while
/// Foundation never heard of it is given up for, so that the run stalls
/// with what waits for it. The getters' answers are kept apart from the
/// run's lock, changes only.
struct CustomModelTests {
    static func ms(_ n: Int) -> UInt64 { RunModelTests.ms(n) }
    static let worker = RunModel.ThreadIdentity(id: 7, isMain: false)

    /// fetch (the user's class) on net, then parse (work) after it.
    static func chain() -> RunModel {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let fetch = b.op("fetch", on: net, .custom("Download"))
        b.work("parse", on: net, ms: 100, after: [fetch])
        var m = RunModelTests.model(b)
        m.add(0, real: ms(0))
        m.add(1, real: ms(0))
        return m
    }

    @Test func itBeginsOnAnAnswerSeenAfterItsStartOnTheStartsThread() {
        var m = Self.chain()
        m.customBegan(0, thread: nil, real: Self.ms(1))
        #expect(m.records[0].phase == .ready, "no start() yet: an isExecuting answer alone begins nothing")
        m.customStartBegan(0, thread: Self.worker, real: Self.ms(2))
        m.customBegan(0, thread: nil, real: Self.ms(3))
        #expect(m.records[0].phase == .executing)
        #expect(m.workingCount == 1, "in flight: the run counts on it")
        #expect(RunModelTests.lines(m).suffix(2) == ["fetch dispatched", "fetch isExecuting bool(true)"])
    }

    @Test func itFinishesWhenFoundationWasToldAndItsDependentTurnsReady() {
        var m = Self.chain()
        m.customStartBegan(0, thread: Self.worker, real: Self.ms(2))
        m.customBegan(0, thread: Self.worker, real: Self.ms(2))
        m.customSaidFinished(0, true, real: Self.ms(50))
        #expect(m.records[0].phase == .executing, "its own getter is not Foundation")
        _ = m.customFoundationFinished(0, real: Self.ms(51))
        #expect(m.records[0].phase == .finished)
        #expect(m.records[1].phase == .ready)
        #expect(m.workingCount == 0)
        #expect(m.customStarted.isEmpty)
    }

    @Test func cancelledBeforeItsStartItFinishesWithoutExecuting() {
        var m = Self.chain()
        _ = m.customCancelled(0, real: Self.ms(5))
        #expect(m.records[0].cancelled)
        m.customStartBegan(0, thread: Self.worker, real: Self.ms(6))
        _ = m.customFoundationFinished(0, real: Self.ms(6))
        #expect(m.records[0].phase == .finished)
        #expect(!RunModelTests.lines(m).contains("fetch isExecuting bool(true)"))
        #expect(RunModelTests.lines(m).contains("fetch isCancelled bool(true)"))
    }

    @Test func aFinishSaidButNeverToldIsGivenUpForAndTheRunStalls() {
        var m = Self.chain()
        m.customStartBegan(0, thread: Self.worker, real: Self.ms(2))
        m.customBegan(0, thread: nil, real: Self.ms(2))
        m.customSaidFinished(0, true, real: Self.ms(100))
        let grace: UInt64 = 250_000_000
        #expect(m.untoldFinishes(now: Self.ms(200), grace: grace) { _ in false }.isEmpty, "within the grace")
        #expect(m.untoldFinishes(now: Self.ms(400), grace: grace) { _ in true }.isEmpty, "Foundation was told")
        #expect(m.untoldFinishes(now: Self.ms(400), grace: grace) { _ in false } == [0])
        #expect(m.workingCount == 0)
        #expect(m.stallCondition)
        let reasons = m.stuckReasons()
        #expect(reasons[OperationID(0)] == .neverPostedFinish)
        #expect(reasons[OperationID(1)] == .waitsFor(OperationID(0), root: OperationID(0)))
        #expect(m.untoldFinishes(now: Self.ms(900), grace: grace) { _ in false }.isEmpty, "once")
    }

    @Test func oneGivenUpForThatFinishesAfterAllIsCountedBackOut() {
        var m = Self.chain()
        m.customStartBegan(0, thread: Self.worker, real: Self.ms(2))
        m.customBegan(0, thread: nil, real: Self.ms(2))
        m.giveUp(0)
        #expect(m.workingCount == 0 && m.customInFlight.isEmpty)
        _ = m.customFoundationFinished(0, real: Self.ms(3000))
        #expect(m.workingCount == 0)
        #expect(m.records[0].phase == .finished)
    }

    @Test func theAnswersKeepOnlyTheirChanges() {
        let answers = CustomAnswers()
        answers.executing(3, false)
        #expect(answers.takeChanged().isEmpty, "false is what it was")
        answers.executing(3, true)
        answers.executing(3, true)
        answers.finished(1, true)
        let taken = answers.takeChanged()
        #expect(taken.map(\.0) == [1, 3])
        #expect(taken[1].1 == CustomAnswers.Answer(executing: true, finished: false, released: false))
        #expect(answers.takeChanged().isEmpty)
    }
}
