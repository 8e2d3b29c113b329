import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// One pass over the stream answers every question about the run as a
/// whole, and the board at any position is the reduction of that prefix.
@Suite struct RunTimelineTests {
    /// 90 operations on a queue of cap 2, each added, started and
    /// finished, one cancelled before it started: about 360 events, so the
    /// boards cross a checkpoint.
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "q", cap: .limit(2))], ops: (0..<90).map { op("o\($0)", on: "q") })
    static let events: [LifecycleEvent] = {
        var s = Script(scenario)
        s.cap("q", 2)
        for i in 0..<90 { s.add("o\(i)") }
        s.emit(.action(.cancel(s.id("o89")), origin: .timed(0), ignored: nil))
        s.skip("o89")
        for i in 0..<89 {
            s.at(Double(i) * 0.1)
            s.start("o\(i)", thread: 1 + i % 2)
            if i % 2 == 1 {
                s.at(Double(i) * 0.1 + 0.05)
                s.finish("o\(i - 1)")
                s.finish("o\(i)")
            }
        }
        s.at(6)
        s.finish("o88")
        s.end()
        return s.events
    }()

    @Test func theBoardAtEveryPositionIsTheReductionOfThatPrefix() {
        let timeline = RunTimeline(scenario: Self.scenario, events: Self.events)
        #expect(Self.events.count > 256)
        for n in stride(from: 0, through: Self.events.count, by: 7) + [Self.events.count] {
            #expect(
                timeline.board(afterFirst: n)
                    == BoardState(scenario: Self.scenario, replaying: Array(Self.events.prefix(n))), "at \(n)")
        }
        let seq = Self.events[100].seq
        #expect(
            timeline.board(through: seq)
                == BoardState(scenario: Self.scenario, replaying: Array(Self.events.prefix(101))))
    }

    @Test func theFactsOfTheRun() {
        let timeline = RunTimeline(scenario: Self.scenario, events: Self.events)
        let ids = Names(scenario: Self.scenario)
        #expect(timeline.peak(of: QueueID(0)) == 2)
        #expect(timeline.startOrder.count == 89)
        #expect(timeline.startOrder.first == ids("o0"))
        #expect(timeline.finalState(of: ids("o89")) == .skipped)
        #expect(timeline[ids("o89")].cancelCause == RunTimeline.Cause(action: .cancel(ids("o89")), origin: .timed(0)))
        #expect(timeline.finalState(of: ids("o3")) == .finished)
        #expect(timeline[ids("o3")].thread == ThreadTag(2))
        #expect(timeline.outcome == .completed)
        #expect(timeline.overlap(of: [ids("o0"), ids("o1")]).moment?.time == 0.1)
        let before = timeline.boardBeforeStart(of: ids("o2"))
        #expect(before?[operation: ids("o2")].phase == .ready)
        #expect(before?[operation: ids("o1")].phase == .finished)
    }
}
