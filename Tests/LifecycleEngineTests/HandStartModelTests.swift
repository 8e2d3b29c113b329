import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// `start` by hand in the pure model: what is refused and why, when the
/// call is made, what it counts in (nothing of any queue), when the run
/// may end, and what a start that never comes makes of a stall.
struct HandStartModelTests {
    static func ms(_ n: Int) -> UInt64 { RunModelTests.ms(n) }
    static let main = RunModel.ThreadIdentity(id: 1, isMain: true)

    /// The scheduler's part: `scenario.actions[index]` is due, taken and performed.
    static func due(_ m: inout RunModel, _ index: Int, real: UInt64) -> RunModel.Effect {
        m.take(.action(index))
        let effect = m.perform(m.scenario.actions[index].action, origin: .timed(index), real: real)
        m.timedActionDone(real: real)
        return effect
    }

    /// token on net, fetch (started by hand) after it, parse on net after fetch.
    static func chain() -> (ScenarioBuilder, token: OperationID, fetch: OperationID, parse: OperationID) {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let token = b.work("token", on: net, ms: 100)
        let fetch = b.work("fetch", on: net, ms: 50, after: [token])
        let parse = b.work("parse", on: net, ms: 20, after: [fetch])
        b.at(10, .start(fetch))
        b.at(200, .start(fetch))
        return (b, token, fetch, parse)
    }

    @Test func aStartBeforeItsDependencyFinishedIsRefusedAndNothingIsCalled() {
        let (b, _, fetch, _) = Self.chain()
        var m = RunModelTests.model(b)
        m.add(0, real: Self.ms(0))
        m.add(2, real: Self.ms(0))
        let effect = Self.due(&m, 0, real: Self.ms(10))
        #expect(effect == .startOnMainThread(fetch.index, .timed(0)))
        #expect(m.mainThread.handStartsOpen == 1)
        #expect(!m.stallCondition, "the main thread has yet to take it")
        let taken = m.handStartTaken(1, origin: .timed(0), foundationReady: false, giveUp: false, real: Self.ms(11))
        #expect(taken == .refused(.startNotReady))
        #expect(m.mainThread.handStartsOpen == 0 && m.mainThread.handStart == nil)
        #expect(RunModelTests.lines(m).suffix(1) == ["action start fetch ignored: " + ActionRefusal.startNotReady.text])
    }

    @Test func theCallIsMadeOnceReadyAndTheRunEndsOnlyAfterItReturned() {
        let (b, _, fetch, _) = Self.chain()
        var m = RunModelTests.model(b)
        m.add(0, real: Self.ms(0))
        m.add(2, real: Self.ms(0))
        _ = m.begin(0, thread: 1, real: Self.ms(0))
        _ = Self.due(&m, 0, real: Self.ms(10))
        let early = m.handStartTaken(1, origin: .timed(0), foundationReady: false, giveUp: false, real: Self.ms(11))
        #expect(early == .refused(.startNotReady))
        _ = m.finish(0, real: Self.ms(100))
        #expect(m.records[1].phase == .notAdded, "ready by its count, but in no queue: never Ready, never added")
        let effect = Self.due(&m, 1, real: Self.ms(200))
        #expect(effect == .startOnMainThread(fetch.index, .timed(1)))
        // The run counts it ready before Foundation processed token's finish: look again.
        let notYet = m.handStartTaken(1, origin: .timed(1), foundationReady: false, giveUp: false, real: Self.ms(200))
        #expect(notYet == .notYet)
        let call = m.handStartTaken(1, origin: .timed(1), foundationReady: true, giveUp: false, real: Self.ms(201))
        #expect(call == .call)
        #expect(m.mainThread.handStart == 1)
        let work = m.syncMainBegan(1, thread: Self.main, real: Self.ms(201))
        #expect(work.duration == 0.05)
        #expect(m.queues[0].executing == 0, "it takes no slot of the queue the file put it on")
        _ = m.syncMainEnded(1, real: Self.ms(251))
        #expect(m.queues[0].operationCount == 1, "parse only: fetch was never counted")
        _ = m.begin(2, thread: 2, real: Self.ms(252))
        _ = m.finish(2, real: Self.ms(272))
        #expect(!m.log.isClosed, "every operation finished, but the call has not returned yet")
        m.handStartReturned(1, real: Self.ms(273))
        let lines = RunModelTests.lines(m)
        #expect(lines.last == "end completed")
        let calls = lines.filter { $0.hasPrefix("action start") || $0.hasPrefix("main fetch") }
        #expect(
            calls == [
                "action start fetch ignored: " + ActionRefusal.startNotReady.text, "action start fetch",
                "main fetch.start() started", "main fetch.start() returned",
            ])
        #expect(!lines.contains("fetch dispatched") && !lines.contains { $0.hasPrefix("fetch isReady") })
    }

    @Test func whenFoundationNeverSaysReadyTheStartIsRefused() {
        let (b, _, fetch, _) = Self.chain()
        var m = RunModelTests.model(b)
        m.add(0, real: Self.ms(0))
        _ = m.begin(0, thread: 1, real: Self.ms(0))
        _ = m.finish(0, real: Self.ms(100))
        _ = m.perform(.start(fetch), origin: .timed(1), real: Self.ms(200))
        // Foundation's start() would stop the program: the call is not made.
        let taken = m.handStartTaken(1, origin: .timed(1), foundationReady: false, giveUp: true, real: Self.ms(201))
        #expect(taken == .refused(.startNotReady))
    }

    @Test func aCancelledOperationIsCalledAndAFinishedOneToo() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let spare = b.work("spare", on: net, ms: 50)
        b.at(0, .start(spare))
        var m = RunModelTests.model(b)
        _ = m.cancelled(0, real: Self.ms(1)) { true }
        #expect(m.startRefusal(0) == nil, "Foundation's cancel() made it ready")
        _ = Self.due(&m, 0, real: Self.ms(2))
        let taken = m.handStartTaken(0, origin: .timed(0), foundationReady: true, giveUp: false, real: Self.ms(2))
        #expect(taken == .call)
        _ = m.syncStartFoundCancelled(0, real: Self.ms(2))
        #expect(m.records[0].phase == .finished && !m.log.isClosed)
        #expect(m.startRefusal(0) == nil, "finished: Foundation's start() does nothing, so it is called")
        m.handStartReturned(0, real: Self.ms(3))
        let lines = RunModelTests.lines(m)
        #expect(lines.last == "end completed", "the run ended once the call returned")
        #expect(!lines.contains("spare isExecuting bool(true)"), "it finished without running")
    }

    @Test(arguments: [
        (RunModel.Phase.executing, false, ActionRefusal.startWhileExecuting),
        (.executing, true, .startWhileExecutingAsync),
        (.ready, false, .startInAQueue),
        (.pending, false, .startInAQueue),
    ])
    func whatIsNeverCalled(_ phase: RunModel.Phase, _ async: Bool, _ refusal: ActionRefusal) {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let op = async ? b.async("op", on: net, ms: 50) : b.work("op", on: net, ms: 50)
        b.at(0, .start(op))
        var m = RunModelTests.model(b)
        m.records[0].phase = phase
        #expect(m.startRefusal(0) == refusal)
    }

    @Test func aBarrierIsNeverStartedByHand() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let flush = b.barrier("flush", on: net)
        b.at(0, .start(flush))
        let m = RunModelTests.model(b)
        #expect(m.startRefusal(0) == .startInAQueue)
    }

    @Test func anOperationNothingIsLeftToStartIsStuckWithThatReason() {
        let (b, _, _, parse) = Self.chain()
        var m = RunModelTests.model(b)
        m.add(0, real: Self.ms(0))
        m.add(2, real: Self.ms(0))
        _ = m.begin(0, thread: 1, real: Self.ms(0))
        _ = m.finish(0, real: Self.ms(100))
        #expect(
            m.stuckReasons() == [
                OperationID(1): .notStartedByHand, parse: .waitsFor(OperationID(1), root: OperationID(1)),
            ])
    }

    @Test func aStartQueuedBehindAWaitThatNeverReturnsIsAStall() {
        var b = ScenarioBuilder()
        let ui = b.queue("ui", main: true)
        let net = b.queue("net")
        let badge = b.work("badge", on: ui, ms: 50)
        let fetch = b.work("fetch", on: net, ms: 50)
        b.at(0, .wait(badge))
        b.at(10, .start(fetch))
        var m = RunModelTests.model(b)
        _ = Self.due(&m, 0, real: Self.ms(0))
        let began = m.mainWaitStarted(.wait(badge), real: Self.ms(1))
        #expect(began)
        m.add(0, real: Self.ms(1))
        _ = Self.due(&m, 1, real: Self.ms(10))
        #expect(!m.handStartProgresses, "the main thread never comes back from its wait")
        #expect(m.stallCondition)
        #expect(m.stuckReasons() == [badge: .mainThreadBlocked, fetch: .mainThreadBlocked])
    }
}
