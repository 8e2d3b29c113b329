import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The engine's facts as the shell reports them, one model call each, and
/// what each tells the shell to do: no Foundation, no threads, no sleeps.
/// Every model is made with the real initializer (`RunModelTests.model`).
@Suite struct RunModelFactsTests {
    typealias T = RunModelTests

    static let worker = RunModel.ThreadIdentity(id: 7, isMain: false)

    static func events(_ m: RunModel, from: Int) -> [String] { T.lines(m, from: from) }

    // MARK: - Asynchronous start

    @Test func anAsynchronousStartBeginsAndATimerEndsIt() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("a", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let step = m.asyncStarted(0, thread: Self.worker, real: T.ms(1))
        #expect(step.state == .executing && step.postsExecuting && !step.postsFinished)
        #expect(step.wakesScheduler, "its timer may be due before what the scheduler sleeps for")
        #expect(m.nextScheduled()?.item == .timer(0))
        let before = m.log.events.count
        let fired = m.asyncTimerFired(0, real: T.ms(101))
        #expect(fired == .finishing(RunModel.DispatchScan()))
        #expect(Self.events(m, from: before).prefix(2) == ["a isExecuting bool(false)", "a isFinished bool(true)"])
        #expect(m.asyncTimerFired(0, real: T.ms(102)) == RunModel.AsyncStep(), "a second firing does nothing")
    }

    @Test func anAsynchronousOperationOfNoDurationFinishesAtItsStart() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("zero", on: q, ms: 0)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let step = m.asyncStarted(0, thread: Self.worker, real: T.ms(1))
        #expect(step.state == .finished && step.postsExecuting && step.postsFinished && !step.wakesScheduler)
        #expect(m.records[0].phase == .finished)
        #expect(m.timers.nextAsyncEnd == nil)
        #expect(T.lines(m).last == "end completed")
    }

    @Test func oneThatNeverPostsItsFinishOnlyBegins() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("forgets", on: q, ms: 0, neverFinishes: true)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let step = m.asyncStarted(0, thread: Self.worker, real: T.ms(1))
        #expect(step.state == .executing && !step.postsFinished && !step.wakesScheduler)
        #expect(m.records[0].phase == .executing && (m.timers.nextAsyncEnd == nil))
    }

    @Test func aCancelledOneFinishesAtItsStartWithoutRunning() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("a", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let cancel = m.cancelled(0, real: T.ms(1)) {
            Issue.record("an asynchronous operation has no start window")
            return true
        }
        #expect(cancel.foundation == .underLock)
        let before = m.log.events.count
        let step = m.asyncStarted(0, thread: Self.worker, real: T.ms(2))
        #expect(step.state == .finished && !step.postsExecuting && step.postsFinished)
        #expect(Self.events(m, from: before).prefix(2) == ["a dispatched", "a isFinished bool(true)"])
        #expect(!T.lines(m).contains("a isExecuting bool(true)"))
    }

    @Test func afterAStopAnAsynchronousStartIsLetGoOfUnannounced() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("a", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        #expect(m.stopped().wasRunning)
        let count = m.log.events.count
        let step = m.asyncStarted(0, thread: Self.worker, real: T.ms(1))
        #expect(step.state == .finished && step.postsFinished && !step.postsExecuting)
        #expect(m.log.events.count == count)
    }

    // MARK: - Cancels

    @Test func aCancelThatLosesTheStartWindowIsHeldUntilMainBegins() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("w", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let lost = m.cancelled(0, real: T.ms(1)) { false }
        #expect(lost == RunModel.CancelStep(), "nothing announced, nothing asked of Foundation")
        #expect(m.records[0].heldCancel && !m.records[0].cancelled)
        #expect(m.cancelled(0, real: T.ms(2)) { true } == RunModel.CancelStep(), "held: a repeat does nothing")
        let before = m.log.events.count
        let work = m.syncMainBegan(0, thread: Self.worker, real: T.ms(3))
        #expect(work.appliesHeldCancel && work.cooperative && T.same(work.duration, 0.1))
        #expect(
            Self.events(m, from: before) == ["w dispatched", "w isExecuting bool(true)", "w isCancelled bool(true)"])
    }

    @Test func aCancelThatWinsTheStartWindowIsACancelBeforeStart() {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        let first = b.work("first", on: q, ms: 100)
        b.work("w", on: q, ms: 100, after: [first])
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        var claimed = false
        let step = m.cancelled(1, real: T.ms(1)) {
            claimed = true
            return true
        }
        #expect(claimed)
        #expect(step.foundation == .underLock && step.readied.newlyReady == [1])
        #expect(Array(T.lines(m).suffix(2)) == ["w isCancelled bool(true)", "w isReady bool(true)"])
        _ = m.syncStartFoundCancelled(1, real: T.ms(2))
        #expect(m.records[1].phase == .finished)
        #expect(m.syncStartFoundCancelled(1, real: T.ms(3)) == RunModel.DispatchScan(), "finished once")
    }

    @Test func cancellingWhatFinishedOrWasCancelledOrAfterTheStopAsksLittle() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("w", on: q, ms: 0)
        b.work("x", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        m.begin(0, thread: 1, real: T.ms(1))
        m.finish(0, real: T.ms(1))
        #expect(m.cancelled(0, real: T.ms(2)) { true } == RunModel.CancelStep())
        _ = m.cancelled(1, real: T.ms(2)) { true }
        #expect(m.cancelled(1, real: T.ms(3)) { true } == RunModel.CancelStep())
        _ = m.stopped()
        let count = m.log.events.count
        #expect(m.cancelled(1, real: T.ms(4)) { true }.foundation == .afterUnlock)
        #expect(m.log.events.count == count)
    }

    // MARK: - Barriers

    @Test func aBarrierBlockRunsItsWorkAndOpensItsGateOnce() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let flush = b.barrier("flush", on: q, ms: 50)
        b.work("named", on: q, ms: 0, after: [flush])
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        let work = m.barrierBlockBegan(0, thread: Self.worker, real: T.ms(1))
        #expect(work.map { T.same($0.end, 0.051) && !$0.cooperative && $0.simulates } == true)
        let ended = m.barrierBlockEnded(0, real: T.ms(51))
        #expect(ended.opensGate && ended.scan.newlyReady == [1])
        #expect(m.barrierReallyFinished(0, real: T.ms(52)).opensGate == false, "the gate opens once")
    }

    @Test func aBarrierFinishedByCancelAllOrAfterTheStopDoesNotRun() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        b.work("w", on: q, ms: 400, ignoresCancel: true)
        b.barrier("flush", on: q)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        m.begin(0, thread: 1, real: T.ms(1))
        let effect = m.perform(.cancelAll(q), origin: .user, real: T.ms(2))
        #expect(effect == .cancelAll(0, barriers: [1], queueSuspended: false))
        #expect(effect.barriersToWatch == [1], "watched now: the queue is not suspended")
        _ = m.barrierReallyFinished(1, real: T.ms(3))
        #expect(m.barrierBlockBegan(1, thread: Self.worker, real: T.ms(4)) == nil)

        var s = T.model(b)
        s.add(0, real: T.ms(0))
        s.add(1, real: T.ms(0))
        let stop = s.stopped()
        #expect(stop.wasRunning && stop.gates == [1], "a barrier that never ran: its gate opens at the stop")
        #expect(s.barrierBlockBegan(1, thread: Self.worker, real: T.ms(4)) == nil)
    }

    @Test func aStopBeforeTheStartOpensNothing() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.barrier("flush", on: q)
        var m = RunModel(scenario: b.scenario, options: RunOptions())
        let stop = m.stopped()
        #expect(!stop.wasRunning && stop.gates.isEmpty)
    }

    // MARK: - Threads, work, the cap

    @Test func threadsAreTaggedInTheOrderTheRunFirstSeesThemAndTheMainThreadIsZero() {
        var m = T.model(ScenarioBuilder())
        let tags = [(5, false), (9, true), (3, false), (5, false)].map { id, main in
            m.threads.tag(RunModel.ThreadIdentity(id: UInt(id), isMain: main))
        }
        #expect(tags == [1, 0, 2, 1])
    }

    @Test func simulatedWorkSleepsInSlicesHoldsWhilePausedAndRunsThroughThePauseOnTheMainThread() {
        var m = T.model(ScenarioBuilder())
        #expect(
            m.workWait(until: 1, cooperative: true, cancelled: false, onMainThread: false, real: T.ms(0))
                == .sleep(0.01))
        guard
            case .sleep(let last) = m.workWait(
                until: 0.1, cooperative: true, cancelled: false, onMainThread: false, real: T.ms(99))
        else {
            Issue.record("a slice of what is left")
            return
        }
        #expect(T.same(last, 0.001))
        #expect(
            m.workWait(until: 0.1, cooperative: true, cancelled: false, onMainThread: false, real: T.ms(101)) == .done)
        m.clock.pause(T.ms(50))
        #expect(
            m.workWait(until: 0.1, cooperative: true, cancelled: false, onMainThread: false, real: T.ms(5000))
                == .waitForResume)
        // On the main thread the pause does not hold the work: scenario
        // time runs on for it, from where the pause stopped it (0.05s), and
        // stops again as it returns.
        guard
            case .sleep(let slice) = m.workWait(
                until: 0.1, cooperative: true, cancelled: false, onMainThread: true, real: T.ms(5000))
        else {
            Issue.record("the main thread is never held")
            return
        }
        #expect(T.same(slice, 0.01))
        #expect(T.same(m.now(T.ms(5030)), 0.08))
        #expect(
            m.workWait(until: 0.1, cooperative: true, cancelled: false, onMainThread: true, real: T.ms(5050)) == .done)
        #expect(T.same(m.now(T.ms(9000)), 0.1), "paused again once the work returned")
        #expect(m.clock.isPaused)
        // Held (a stalled run waiting for the user): main-thread work runs
        // out in real time, and leaves the pause in force behind it.
        m.clock.hold(T.ms(9000))
        guard
            case .runOutInRealTime(let rest) = m.workWait(
                until: 0.2, cooperative: true, cancelled: false, onMainThread: true, real: T.ms(9000))
        else {
            Issue.record("held: the main thread's work runs out in real time")
            return
        }
        #expect(T.same(rest, 0.1))
        #expect(!m.clock.mainThreadWorks)
        m.clock.release(T.ms(9100))
        #expect(T.same(m.now(T.ms(9500)), 0.1), "the pause holds once the hold is gone")
        #expect(m.workWait(until: 1, cooperative: true, cancelled: true, onMainThread: false, real: T.ms(0)) == .done)
        #expect(m.workWait(until: 1, cooperative: false, cancelled: true, onMainThread: false, real: T.ms(0)) != .done)
        #expect(
            !m.keepsWorking(cooperative: true, cancelled: true) && m.keepsWorking(cooperative: false, cancelled: true))
        _ = m.stopped()
        #expect(m.workWait(until: 1, cooperative: true, cancelled: false, onMainThread: false, real: T.ms(0)) == .done)
        #expect(!m.keepsWorking(cooperative: false, cancelled: false))
    }

    @Test(arguments: [
        (ConcurrencyCap.limit(0), false, 1), (.limit(3), false, 3), (.systemDefault, false, -1), (.limit(3), true, 1),
    ])
    func theCapRuleIsStatedOnce(cap: ConcurrencyCap, main: Bool, expected: Int) {
        let spec = QueueSpec(name: "q", cap: cap, qos: nil, startsSuspended: false, isMain: main)
        #expect(RunModel.QueueState.startingCap(spec) == expected)
        #expect([-2, -1, 0, 1, 7].map(RunModel.QueueState.accepts(cap:)) == [false, true, false, true, true])
    }

    // MARK: - The scheduler and the stall's debounce, on made-up times

    @Test func theSchedulerFiresWhatIsDueAndOtherwiseSleepsUntilIt() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 10)
        b.at(100, .suspend(q))
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        guard case .sleep(let seconds, let watchesStall) = m.schedulerStep(real: T.ms(50)) else {
            Issue.record("nothing is due yet")
            return
        }
        #expect(T.same(seconds, 0.05) && !watchesStall, "an action to come holds off the stall")
        #expect(m.schedulerStep(real: T.ms(101)) == .fire(.action(0)))
        #expect(m.schedulerStep(real: T.ms(101)) == .sleep(0.2, watchesStall: true))
        _ = m.stopped()
        #expect(m.schedulerStep(real: T.ms(102)) == .ends)
    }

    @Test func aStallIsDeclaredOnlyOnceItHeldUnchangedAcrossTheDebounce() {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.work("a", on: q, ms: 10)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.watchForStall(real: T.ms(10))
        m.watchForStall(real: T.ms(209))
        #expect(!m.log.isClosed, "199 ms: not yet")
        m.watchForStall(real: T.ms(210))
        #expect(T.lines(m).last == "end stalled")
    }

    @Test func aNewEventStartsTheDebounceAgain() {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.work("a", on: q, ms: 10)
        b.work("b", on: q, ms: 10)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.watchForStall(real: T.ms(10))
        m.add(1, real: T.ms(100))
        m.watchForStall(real: T.ms(210))
        #expect(!m.log.isClosed)
        m.watchForStall(real: T.ms(410))
        #expect(T.lines(m).last == "end stalled")
    }

    /// Replaces a sleep of 700 ms in a real run: the scheduler's watch, over
    /// ten seconds of a paused run, declares nothing.
    @Test func aPausedRunIsNeverDeclaredStalledHoweverLongTheWatch() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("forgets", on: q, ms: 10, neverFinishes: true)
        var m = T.model(b, policy: .waitsForUser)
        m.add(0, real: T.ms(0))
        _ = m.asyncStarted(0, thread: Self.worker, real: T.ms(0))
        m.clock.pause(T.ms(1))
        for tick in stride(from: 0, through: 10_000, by: 200) { m.watchForStall(real: T.ms(tick)) }
        #expect(!T.lines(m).contains("stall"))
        m.clock.resume(T.ms(10_000))
        m.watchForStall(real: T.ms(10_100))
        m.watchForStall(real: T.ms(10_300))
        #expect(T.lines(m).last == "stall")
    }

    /// Replaces a sleep of 600 ms in a real run: once a run that waits for
    /// the user announced its stall, watching on announces nothing more and
    /// never ends it.
    @Test func aStallThatWaitsForTheUserIsAnnouncedOnceAndNeverEndsTheRun() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.async("forgets", on: q, ms: 10, neverFinishes: true)
        var m = T.model(b, policy: .waitsForUser)
        m.add(0, real: T.ms(0))
        _ = m.asyncStarted(0, thread: Self.worker, real: T.ms(0))
        for tick in stride(from: 20, through: 10_000, by: 200) { m.watchForStall(real: T.ms(tick)) }
        #expect(T.lines(m).filter { $0 == "stall" }.count == 1)
        #expect(!m.log.isClosed)
    }

    // MARK: - Delivery and the start's chunks

    @Test func theConsumerIsToldOnceUntilItTakesAndTheEndOnce() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 0)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        #expect(m.delivery(hasConsumer: true).tellsConsumer)
        m.begin(0, thread: 1, real: T.ms(1))
        #expect(!m.delivery(hasConsumer: true).tellsConsumer, "not taken yet: told already")
        _ = m.takeEvents()
        m.finish(0, real: T.ms(1))
        let last = m.delivery(hasConsumer: true)
        #expect(last.tellsConsumer && last.announcesEnd)
        #expect(m.delivery(hasConsumer: true) == RunModel.Delivery())
    }

    /// A consumer that takes and comes back by itself is not told of what
    /// comes meanwhile; its next plain take lets the next event tell it.
    @Test func aConsumerThatComesBackIsNotToldUntilItTakesPlainly() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 0)
        b.work("b", on: q, ms: 0)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        #expect(m.delivery(hasConsumer: true).tellsConsumer)
        #expect(!m.takeEvents(comesBack: true).isEmpty)
        m.add(1, real: T.ms(1))
        #expect(!m.delivery(hasConsumer: true).tellsConsumer, "it comes back by itself")
        #expect(!m.takeEvents().isEmpty, "what came meanwhile is there for it")
        m.begin(0, thread: 1, real: T.ms(2))
        #expect(m.delivery(hasConsumer: true).tellsConsumer)
    }

    @Test func aSmallStartEndsAChunkWithAnAddThatMayDispatch() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        let other = b.queue("other", suspended: true)
        b.work("held", on: other, ms: 10)
        b.work("a", on: q, ms: 10)
        b.work("b", on: q, ms: 10)
        b.work("later", on: q, ms: 10)
        b.at(10, .add(OperationID(3)))
        var m = T.model(b)
        #expect(m.initialAddCount == 3 && m.upcomingAdds.elementsEqual([0, 1, 2]))
        let first = m.addChunk(real: T.ms(0))
        #expect(first.handovers.map(\.index) == [0, 1] && first.scan.newlyReady == [1], "it ends after a's add")
        #expect(!m.initialAddsDone)
        let second = m.addChunk(real: T.ms(0))
        #expect(second.handovers.map(\.index) == [2] && m.initialAddsDone)
    }
}
