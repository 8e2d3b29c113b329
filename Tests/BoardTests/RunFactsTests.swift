import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// The facts a run's claims need, gathered one event at a time: the same
/// whether every operation is tracked or only the ones the claims name.
@Suite struct RunFactsTests {
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "q", cap: .limit(2))],
        ops: (0..<6).map { op("o\($0)", on: "q") },
        expect: [
            ("o1 before o4", { .before($0("o1"), $0("o4")) }),
            ("concurrent o2, o3", { .concurrent([$0("o2"), $0("o3")]) }),
            ("skipped o5", { .skipped($0("o5")) }),
        ])
    static let events: [LifecycleEvent] = {
        var s = Script(scenario)
        s.cap("q", 2)
        for i in 0..<6 { s.add("o\(i)") }
        s.emit(.action(.cancel(s.id("o5")), origin: .timed(0), ignored: nil))
        s.skip("o5")
        for pair in [(0, 1), (2, 3)] {
            s.at(Double(pair.0) * 0.1)
            s.start("o\(pair.0)", thread: 1)
            s.start("o\(pair.1)", thread: 2)
            s.at(Double(pair.0) * 0.1 + 0.05)
            s.finish("o\(pair.0)")
            s.finish("o\(pair.1)")
        }
        s.at(0.5)
        s.start("o4", thread: 1)
        s.finish("o4")
        s.end()
        return s.events
    }()

    static func facts(_ facts: RunFacts) -> RunFacts {
        var facts = facts
        for event in events { facts.record(event) }
        return facts
    }

    @Test func factsForTheExpectationsTrackOnlyTheOperationsTheyName() {
        let all = Self.facts(RunFacts(scenario: Self.scenario))
        let some = Self.facts(.forExpectations(of: Self.scenario))
        let ids = Names(scenario: Self.scenario)
        for name in ["o1", "o2", "o3", "o4", "o5"] {
            #expect(some[ids(name)].started == all[ids(name)].started, "\(name)")
            #expect(some[ids(name)].finished == all[ids(name)].finished, "\(name)")
            #expect(some[ids(name)].cancelled == all[ids(name)].cancelled, "\(name)")
        }
        #expect(all[ids("o0")].started != nil)
        #expect(some[ids("o0")].started == nil, "o0 is named by no claim, so nothing is kept for it")
        #expect(some.peak(of: QueueID(0)) == 2 && all.peak(of: QueueID(0)) == 2, "peaks count every operation")
        #expect(some.outcome == .completed)
        #expect(some.timedActionsPerformed == 1)
        #expect(some.eventCount == Self.events.count)
        #expect(all.startOrder.count == 5)
        #expect(some.startOrder.isEmpty, "the start order is kept only when every operation is tracked")
    }

    @Test func anOverlapIsWatchedAsTheEventsPass() {
        let some = Self.facts(.forExpectations(of: Self.scenario))
        let ids = Names(scenario: Self.scenario)
        let overlap = some.overlap(of: [ids("o2"), ids("o3")])
        #expect(overlap?.moment?.time == 0.2)
        #expect(overlap?.most == 2)
        #expect(some.overlap(of: [ids("o0"), ids("o4")]) == nil, "a set nobody asked to watch")
        let timeline = RunTimeline(scenario: Self.scenario, events: Self.events)
        #expect(timeline.overlap(of: [ids("o2"), ids("o3")]).moment == overlap?.moment)
    }
}
