import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// An operation started by hand, as everything reduced from the stream
/// sees it: never added nor dispatched, in no queue's counts, its card
/// from Pending to Executing to Finished, the chain `why` tells, the text
/// timeline's group of its own.
@Suite struct StartByHandBoardTests {
    typealias F = StartByHandFixture
    static let fetch = OperationID(1)
    static let net = QueueID(0)

    static func board(after count: Int) -> BoardState {
        BoardState(scenario: F.scenario, replaying: Array(F.events.prefix(count)))
    }

    @Test func theStreamKeepsEveryRuleOfALife() {
        #expect(InvariantChecker.check(F.events, scenario: F.scenario).isEmpty)
        var life = LifeCheck(scenario: F.scenario)
        for event in F.events { #expect(life.visit(event) == nil, "\(event)") }
    }

    @Test func itsCardGoesFromPendingToExecutingToFinishedAndItCountsInNoQueue() {
        let refused = Self.board(after: F.refused)
        #expect(refused[operation: Self.fetch].phase == .notAdded)
        #expect(refused.whyNotRunning(Self.fetch) == [.waitingFor([OperationID(0)]), .startsByHand])
        let ready = Self.board(after: F.tokenFinished)
        #expect(ready.whyNotRunning(Self.fetch) == [.startsByHand])
        let running = Self.board(after: F.fetchStarted)
        #expect(running[operation: Self.fetch].phase == .executing)
        #expect(running[operation: Self.fetch].thread == .main)
        #expect(running[queue: Self.net].executing == 0, "token finished, parse waits: fetch is not net's")
        let end = Self.board(after: F.events.count)
        #expect(end[operation: Self.fetch].phase == .finished)
        #expect(end[operation: Self.fetch].addedAt == nil && end[operation: Self.fetch].dispatchedAt == nil)
        #expect(end[queue: Self.net].peak == 1)
        #expect(end.outcome == .completed)
    }

    @Test func theFactsCountItInNoQueue() {
        var facts = RunFacts(scenario: F.scenario)
        for event in F.events { facts.record(event) }
        #expect(facts.peak(of: Self.net) == 1)
        #expect(facts.startOrder == [OperationID(0), Self.fetch, OperationID(2)])
    }

    @Test func whyTellsTheStartByHandAndTheRefusedOne() {
        let timeline = RunTimeline(scenario: F.scenario, events: F.events)
        let (fetch, started) = WhyAnswer.chain(to: Self.fetch, in: timeline)
        #expect(started)
        #expect(
            fetch == [
                "fetch started at 0.600s: it was started by hand on the main thread only at 0.600s, by 'at 600ms "
                    + "start fetch' (line 6)",
                "fetch started at 0.600s on the main thread, by hand (it is in no queue). What decided when, from the "
                    + "start of the run:",
                "  0.000s → 0.600s   600ms  the run came to 'at 600ms start fetch' (line 6)",
                "  0.600s → 0.600s     0ms  the main thread called fetch.start() by hand for 'at 600ms start fetch' "
                    + "(line 6) as soon as it was free: fetch is in no queue",
                "  the links add up to 0.600s: 0.600s, when it started",
                "  start() not called at 0.100s (line 5): " + ActionRefusal.startNotReady.text,
            ], "\(fetch)")
        let parse = WhyAnswer.chain(to: OperationID(2), in: timeline).lines
        #expect(
            parse.contains(
                "  0.600s → 0.900s   300ms  fetch ran, started by hand on the main thread, and what follows waited for it"
            ), "\(parse)")
    }

    @Test func theTextTimelineDrawsItInAGroupOfItsOwn() throws {
        let lanes = TimelineLanes(scenario: F.scenario, events: F.events)
        #expect(lanes.lanes[1].startedByHand && lanes.lanes[1].begins == 0.6)
        #expect(lanes.queueSteps[0].allSatisfy { $0.executing <= 1 }, "net's running never counts fetch")
        let text = TimelineText.render(lanes, width: 60)
        let lines = text.split(separator: "\n").map(String.init)
        let group = try #require(lines.firstIndex { $0.hasPrefix("by hand (in no queue") })
        #expect(lines[group + 1].hasPrefix("  fetch"), "\(text)")
        #expect(lines[group + 1].contains("█") && lines[group + 1].hasSuffix("✓"), "\(text)")
        #expect(!lines[..<group].contains { $0.hasPrefix("  fetch") }, "not under net: \(text)")
    }

    @Test func anOperationStartedByHandThatIsDispatchedBreaksItsLife() {
        var script = Script(F.scenario)
        script.emit(.dispatched(Self.fetch))
        var life = LifeCheck(scenario: F.scenario)
        #expect(
            life.visit(script.events[0])?.message
                == "'fetch' was dispatched, but it is started by hand: no queue holds it")
    }
}
