import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The run's rules without threads, sleeps or Foundation: the facts the
/// engine reports are fed to the model in the order a real run reports
/// them, with made-up real times, and the events it records are checked.
@Suite struct RunModelTests {
    /// Real time in nanoseconds for `ms` milliseconds after the start.
    static func ms(_ ms: Int) -> UInt64 { 1_000_000_000 + UInt64(ms) * 1_000_000 }

    /// Scenario seconds equal but for rounding.
    static func same(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    static func model(_ b: ScenarioBuilder, policy: StallPolicy = .endsRun, lesson: Bool = false) -> RunModel {
        var model = RunModel(
            scenario: b.scenario, options: RunOptions(stallPolicy: policy, pausesAtCaptions: lesson))
        _ = model.start(real: ms(0))
        return model
    }

    /// The op keys of the log from index `from`, as `name key value`.
    static func lines(_ model: RunModel, from: Int = 0) -> [String] {
        let scenario = model.scenario
        return model.log.events[from...].compactMap { e in
            switch e.kind {
            case .operation(let op, let key, _, let new):
                return "\(scenario[operation: op].name) \(key.rawValue) \(new)"
            case .queue(let q, let key, _, let new):
                return "\(scenario[queue: q].name) \(key.rawValue) \(new)"
            case .action(let action, _, let ignored):
                return "action \(ScenarioPrinter.actionText(action, in: scenario))"
                    + (ignored.map { " ignored: \($0.text)" } ?? "")
            case .caption(let i, let paused):
                return "caption \(i)" + (paused ? " paused" : "")
            case .stall: return "stall"
            case .end(.completed): return "end completed"
            case .end(.stalled): return "end stalled"
            case .dispatched(let op): return "\(scenario[operation: op].name) dispatched"
            case .mainThreadWait(let action, let phase):
                return "main \(ScenarioPrinter.actionText(action, in: scenario)) \(phase.rawValue)"
            case .startCall(let op, let phase):
                return "main \(scenario[operation: op].name).start() \(phase.rawValue)"
            case .stranded(let op):
                return "\(scenario[operation: op].name) stranded"
            case .leftover(let op, let phase):
                return "\(scenario[operation: op].name) leftover \(phase.rawValue)"
            case .block, .completion: return nil
            }
        }
    }

    @Test func aDependencyReleasesItsDependentInsideItsFinish() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let fetch = b.work("fetch", on: q, ms: 100)
        b.work("parse", on: q, ms: 100, after: [fetch])
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.add(1, real: Self.ms(0))
        m.begin(0, thread: 1, real: Self.ms(1))
        let before = m.log.events.count
        m.finish(0, real: Self.ms(101))
        #expect(
            Self.lines(m, from: before) == [
                "fetch isExecuting bool(false)", "fetch isFinished bool(true)", "q operationCount int(1)",
                "parse isReady bool(true)",
            ])
        #expect(Self.same(m.log.events.last?.time, 0.101))
        m.begin(1, thread: 1, real: Self.ms(102))
        m.finish(1, real: Self.ms(202))
        #expect(Self.lines(m).last == "end completed")
    }

    @Test func suspendAndResumeAreAnnouncedOnceAndRepeatsAreIgnored() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 10)
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        let r1 = m.perform(.suspend(q), origin: .user, real: Self.ms(5))
        #expect(r1 == .setSuspended(0, true, barriers: []))
        let r2 = m.perform(.suspend(q), origin: .user, real: Self.ms(6))
        #expect(r2 == RunModel.Effect.none)
        let r3 = m.perform(.resume(q), origin: .user, real: Self.ms(7))
        #expect(r3 == .setSuspended(0, false, barriers: []))
        #expect(
            Array(Self.lines(m).suffix(5)) == [
                "action suspend q", "q isSuspended bool(true)", "action suspend q ignored: already suspended",
                "action resume q", "q isSuspended bool(false)",
            ])
    }

    @Test func cancelBeforeStartMakesAWaitingOperationReadyAndItsFinishReleasesDependents() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let download = b.async("download", on: q, ms: 1000)
        let parse = b.work("parse", on: q, ms: 300, after: [download])
        b.work("save", on: q, ms: 300, after: [parse])
        var m = Self.model(b)
        for i in 0..<3 { m.add(i, real: Self.ms(0)) }
        m.begin(0, thread: 1, real: Self.ms(1))
        let r4 = m.perform(.cancel(parse), origin: .timed(0), real: Self.ms(200))
        #expect(r4 == .cancel(1))
        let before = m.log.events.count
        let step = m.cancelled(1, real: Self.ms(200)) { true }
        #expect(step.foundation == .underLock, "parse has not started")
        m.finish(1, real: Self.ms(201))
        #expect(
            Self.lines(m, from: before) == [
                "parse isCancelled bool(true)", "parse isReady bool(true)", "parse isFinished bool(true)",
                "q operationCount int(2)", "save isReady bool(true)",
            ])
        let r5 = m.perform(.cancel(parse), origin: .user, real: Self.ms(300))
        #expect(r5 == RunModel.Effect.none)
        #expect(Self.lines(m).last == "action cancel parse ignored: already finished")
    }

    @Test func cancellingWhatRunsOnlySetsTheFlagAndAnAsynchronousOneThatChecksItFinishes() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("sync", on: q, ms: 500)
        b.async("async", on: q, ms: 500)
        b.async("forgets", on: q, ms: 500, neverFinishes: true)
        var m = Self.model(b)
        for i in 0..<3 {
            m.add(i, real: Self.ms(0))
            m.begin(i, thread: Int16(i + 1), real: Self.ms(1))
        }
        #expect(Self.same(m.timers.nextAsyncEnd?.due, 0.501), "the async one's timer is set when it begins")
        let steps = (0..<3).map { i in
            m.cancelled(i, real: Self.ms(2)) {
                Issue.record("a started operation has no start window to claim")
                return true
            }
        }
        #expect(steps.map(\.foundation) == [.afterUnlock, .underLock, .afterUnlock])
        #expect(steps.map(\.async.postsFinished) == [false, true, false], "only the async one that checks finishes")
        #expect(m.records[1].phase == .finished && m.records[0].phase == .executing)
        #expect(m.records.allSatisfy { $0.cancelled })
    }

    @Test func aBarrierWaitsForWhatCameBeforeAndWhatComesAfterWaitsForIt() {
        var b = ScenarioBuilder()
        let q = b.queue("disk", cap: .limit(3))
        b.work("w", on: q, ms: 300)
        b.barrier("flush", on: q, ms: 100)
        b.work("r", on: q, ms: 200)
        var m = Self.model(b)
        for i in 0..<3 { m.add(i, real: Self.ms(0)) }
        #expect(m.records[1].phase == .pending && m.records[2].phase == .pending)
        #expect(m.waitsOn(2) == [1])
        m.begin(0, thread: 1, real: Self.ms(1))
        m.finish(0, real: Self.ms(301))
        #expect(m.records[1].phase == .ready && m.records[2].phase == .pending)
        m.begin(1, thread: 1, real: Self.ms(302))
        m.finish(1, real: Self.ms(402))
        #expect(m.records[2].phase == .ready)
    }

    @Test func cancelAllCancelsAWaitingBarrierWhoseFinishWaitsForFoundation() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(3))
        b.work("w", on: q, ms: 400, ignoresCancel: true)
        b.barrier("flush", on: q)
        b.work("after", on: q, ms: 100)
        var m = Self.model(b)
        for i in 0..<3 { m.add(i, real: Self.ms(0)) }
        m.begin(0, thread: 1, real: Self.ms(1))
        let effect = m.perform(.cancelAll(q), origin: .timed(0), real: Self.ms(100))
        #expect(effect == .cancelAll(0, barriers: [1], queueSuspended: false))
        #expect(m.records[1].cancelled && m.records[1].phase == .ready && m.records[1].awaitsRealFinish)
        // Foundation's cancels of w and after come back as facts.
        m.cancelWhileExecuting(0, real: Self.ms(100))
        m.cancelBeforeStart(2, real: Self.ms(100))
        #expect(m.records[1].phase == .ready, "not finished at the cancel")
        m.finish(0, real: Self.ms(401))
        let r6 = m.barrierReallyFinished(1, real: Self.ms(401)).opensGate
        #expect(r6, "its gate opens once")
        let again = m.barrierReallyFinished(1, real: Self.ms(402)).opensGate
        #expect(!again)
        m.finish(2, real: Self.ms(402))
        let finishes = Self.lines(m).filter { $0.hasSuffix("isFinished bool(true)") }
        #expect(finishes == ["w isFinished bool(true)", "flush isFinished bool(true)", "after isFinished bool(true)"])
        #expect(Self.lines(m).last == "end completed")
    }

    @Test func aCompletionBlockOwedKeepsTheRunFromCompleting() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 10, completion: [])
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.begin(0, thread: 1, real: Self.ms(1))
        m.finish(0, real: Self.ms(11))
        #expect(!m.log.isClosed)
        #expect(!m.stallCondition, "a completion block is owed")
        m.completionRan(0, thread: 2, real: Self.ms(12))
        m.completionReturned(real: Self.ms(12))
        #expect(Self.lines(m).last == "end completed")
    }

    @Test func whenCaptionsFollowTheirMomentAndPauseTimeInLessonMode() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 100)
        var scenario = b.scenario
        scenario.captions = [Caption(trigger: .when(a, .starts), text: "a starts")]
        var m = RunModel(scenario: scenario, options: RunOptions(pausesAtCaptions: true))
        _ = m.start(real: Self.ms(0))
        m.add(0, real: Self.ms(0))
        m.begin(0, thread: 1, real: Self.ms(50))
        #expect(Array(Self.lines(m).suffix(2)) == ["a isExecuting bool(true)", "caption 0 paused"])
        #expect(m.clock.isPaused)
        #expect(Self.same(m.now(Self.ms(5000)), 0.05), "scenario time stands still at the caption")
    }

    /// At one moment: the actions, then the timers due, then the captions,
    /// whatever the lines' order (a caption describes what its moment did).
    @Test func theScheduleTakesActionsThenTimersThenCaptions() {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.async("a", on: q, ms: 100)
        b.at(100, .resume(q))
        var scenario = b.scenario
        scenario.actions[0].location = SourceLocation(line: 5, column: 1)
        scenario.captions = [
            Caption(trigger: .at(.milliseconds(100)), text: "first", location: SourceLocation(line: 4, column: 1))
        ]
        var m = RunModel(scenario: scenario, options: RunOptions())
        _ = m.start(real: Self.ms(0))
        m.add(0, real: Self.ms(0))
        #expect(m.nextScheduled()?.item == .action(0), "written after the caption, the action still goes first")
        m.take(.action(0))
        #expect(m.nextScheduled()?.item == .caption(0))
        m.take(.caption(0))
        #expect(m.nextScheduled() == nil)
        m.begin(0, thread: 1, real: Self.ms(100))
        #expect(m.nextScheduled()?.item == .timer(0))
        #expect(Self.same(m.nextScheduled()?.due, 0.2))
    }

    @Test func aStallThatWaitsForTheUserHoldsTimeAndIsAnnouncedOnce() throws {
        var b = ScenarioBuilder()
        let q = b.queue("downloads", suspended: true)
        b.work("a", on: q, ms: 10)
        var m = Self.model(b, policy: .waitsForUser)
        m.add(0, real: Self.ms(0))
        let seq = try #require(m.stallProbe(at: 1e9))
        let r7 = m.declareStall(ifStillAt: seq, real: Self.ms(300))
        #expect(r7)
        #expect(Self.lines(m).last == "stall")
        #expect(m.stallProbe(at: 1e9) == nil, "announced once")
        #expect(Self.same(m.log.events.last?.time, 0), "stamped when it got stuck: the add")
        #expect(Self.same(m.now(Self.ms(9000)), 0), "time is held there")
        let r8 = m.perform(.resume(q), origin: .user, real: Self.ms(9000))
        #expect(r8 == .setSuspended(0, false, barriers: []))
        #expect(Self.same(m.log.events.last?.time, 0), "and moves on from where it stopped")
    }

    /// An asynchronous operation that never posts isFinished has not failed
    /// before its work is over: the stall comes at the end of its work,
    /// stamped there however late it is confirmed and whatever paused.
    @Test func aForgottenFinishStallsWhenItsWorkEnds() throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let broken = b.async("broken", on: q, ms: 300, neverFinishes: true)
        b.work("next", on: q, ms: 100, after: [broken])
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.add(1, real: Self.ms(0))
        m.begin(0, thread: 1, real: Self.ms(1))
        #expect(m.stallProbe(at: 0.2) == nil, "its work is not over yet")
        m.clock.pause(Self.ms(100))
        m.clock.resume(Self.ms(2000))
        let seq = try #require(m.stallProbe(at: m.now(Self.ms(2500))))
        let declared = m.declareStall(ifStillAt: seq, real: Self.ms(2500))
        #expect(declared)
        #expect(Self.lines(m).last == "end stalled")
        #expect(Self.same(m.log.events.last?.time, 0.301))
    }

    @Test func noStallIsDeclaredWhileTheUserPausedTheRun() {
        var b = ScenarioBuilder()
        let q = b.queue("q", suspended: true)
        b.work("a", on: q, ms: 10)
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.clock.pause(Self.ms(1))
        #expect(m.stallProbe(at: 1e9) == nil)
        m.clock.resume(Self.ms(2))
        #expect(m.stallProbe(at: 1e9) != nil)
    }

    @Test func stuckReasonsAreTrueOrUnknownNeverAGuess() {
        var b = ScenarioBuilder()
        let held = b.queue("held", suspended: true)
        let busy = b.queue("busy", cap: .limit(1))
        let free = b.queue("free")
        let waiting = b.work("waiting", on: held, ms: 10)
        let forgets = b.async("forgets", on: busy, ms: 10, neverFinishes: true)
        let behind = b.work("behind", on: busy, ms: 10)
        let chained = b.work("chained", on: free, ms: 10, after: [behind])
        let last = b.work("last", on: free, ms: 10, after: [chained])
        let odd = b.work("odd", on: free, ms: 10)
        var m = Self.model(b)
        for i in 0..<6 { m.add(i, real: Self.ms(0)) }
        m.begin(forgets.index, thread: 1, real: Self.ms(1))
        // A ready operation on a queue with room, yet not running: nothing
        // in the model says why (in a real run Foundation would start it).
        let reasons = m.stuckReasons()
        #expect(reasons[waiting] == .queueSuspended(held))
        #expect(reasons[forgets] == .neverPostedFinish)
        // behind has no dependency: it waits for busy's one slot, which
        // forgets holds (it started and never finished).
        #expect(reasons[behind] == .waitsForSlot(busy, cap: 1, holders: [forgets]))
        #expect(reasons[chained] == .waitsFor(behind, root: behind))
        #expect(reasons[last] == .waitsFor(chained, root: behind))
        #expect(reasons[odd] == .unknown)
        // Told with the reasons, a chain ends on its root's own: a slot.
        let scenario = b.scenario
        #expect(
            reasons[last]!.clause(in: scenario, reasons: reasons)
                == "it waits for chained, which waits for behind, which never finishes; behind: it waits for a slot "
                + "of busy: 1 of 1 slot held: forgets started and never finished")
        #expect(reasons[forgets]!.clause(in: scenario, reasons: reasons) == "it never posted isFinished")
    }

    @Test func tenThousandStuckOperationsGetTheirReasons() {
        var b = ScenarioBuilder()
        let held = b.queue("held", suspended: true)
        let chainQueue = b.queue("chain")
        let first = b.async("first", on: chainQueue, ms: 10, neverFinishes: true)
        var previous = first
        for i in 0..<5_000 { previous = b.work("c\(i)", on: chainQueue, ms: 1, after: [previous]) }
        for i in 0..<5_000 { b.work("h\(i)", on: held, ms: 1) }
        var m = Self.model(b)
        for i in b.scenario.operations.indices { m.add(i, real: Self.ms(0)) }
        m.begin(first.index, thread: 1, real: Self.ms(1))
        let reasons = m.stuckReasons()
        #expect(reasons.count == 10_001)
        #expect(reasons[previous] == .waitsFor(OperationID(previous.index - 1), root: first))
        #expect(reasons[OperationID(b.scenario.operations.count - 1)] == .queueSuspended(held))
    }

    @Test func theTimerHeapGivesTheEarliestFirstAndTiesInTheOrderSet() {
        var heap = TimerHeap()
        for (due, op) in [(0.5, 1), (0.2, 2), (0.5, 3), (0.1, 4), (0.2, 5)] { heap.push(due: due, op: Int32(op)) }
        var order: [Int32] = []
        while let entry = heap.pop() { order.append(entry.op) }
        #expect(order == [4, 2, 5, 1, 3])
        #expect(heap.isEmpty)
    }

    @Test func aDependencyOnAnotherQueueIsReleasedTheSameWay() {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let cpu = b.queue("cpu", cap: .limit(1))
        let download = b.work("download", on: net, ms: 100)
        b.work("parse", on: cpu, ms: 100, after: [download])
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.add(1, real: Self.ms(0))
        #expect(m.queues[1].readyWaiting == 0)
        m.begin(0, thread: 1, real: Self.ms(1))
        m.finish(0, real: Self.ms(101))
        #expect(m.records[1].phase == .ready)
        #expect(m.queues[1].readyWaiting == 1, "counted on its own queue")
    }

    @Test func theCapDecidesWhetherReadyWorkCanProgress() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        b.async("holds", on: q, ms: 10, neverFinishes: true)
        b.work("waits", on: q, ms: 10)
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.add(1, real: Self.ms(0))
        #expect(!m.stallCondition, "two ready, a free slot: the engine will start one")
        m.begin(0, thread: 1, real: Self.ms(1))
        #expect(m.stallCondition, "the only slot is held by work that never finishes")
        let r1 = m.perform(.setCap(q, .limit(2)), origin: .user, real: Self.ms(2))
        #expect(r1 == .setCap(0, 2))
        #expect(!m.stallCondition, "a cap change frees a slot")
    }
}

extension RunModelTests {
    @Test func aRunEndsWhenItsOperationsFinishNotWhenAFarFutureActionWouldFire() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 10)
        b.at(1_000_000_000_000, .cancel(a))
        var m = Self.model(b)
        m.add(0, real: Self.ms(0))
        m.begin(0, thread: 1, real: Self.ms(1))
        m.finish(0, real: Self.ms(11))
        #expect(Self.lines(m).last == "end completed")
        #expect(Self.same(m.log.events.last?.time, 0.011))
        #expect(m.timedActionsNotPerformed == 1)
    }
}
