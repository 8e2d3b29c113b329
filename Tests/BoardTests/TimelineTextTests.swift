import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// The text timeline: lanes, the queue's running row, the axis and the marks.
@Suite struct TimelineTextTests {
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "q", cap: .limit(2))],
        ops: [op("a", on: "q"), op("b", on: "q", after: ["a"]), op("c", on: "q")])

    /// a runs 0–0.4s; c is cancelled while it waits and finishes at 0.2s;
    /// b waits for a, then runs 0.4–0.8s.
    static func script() -> Script {
        var s = Script(scenario)
        s.cap("q", 2)
        s.add("a")
        s.add("b", ready: false)
        s.add("c")
        s.start("a", thread: 1)
        s.at(0.2)
        s.skip("c")
        s.at(0.4)
        s.finish("a")
        s.ready("b")
        s.start("b", thread: 1)
        s.at(0.8)
        s.finish("b")
        return s
    }

    @Test func aRunReadsAsLanesGroupedByItsQueue() {
        let lanes = TimelineLanes(scenario: Self.scenario, events: Self.script().events)
        let text = TimelineText.render(lanes, width: 51)
        #expect(
            text == """
                timeline · 0s to 0.8s · one column = 20ms
                           0s        0.2s      0.4s      0.6s
                           ├─────────┼─────────┼─────────┼─────────
                q (cap 2)
                  running  1111111111111111111111111111111111111111
                  a        ████████████████████✓
                  b        ····················███████████████████✓
                  c        ░░░░░░░░░░⊘
                · pending  ░ ready  █ executing  ✓ finished  ⊘ finished cancelled

                """)
    }

    @Test func marksAreListedWithTheirTimes() {
        var script = Self.script()
        script.at(0.2)
        script.emit(.action(.cancel(script.id("c")), origin: .timed(0), ignored: nil))
        let lanes = TimelineLanes(scenario: Self.scenario, events: script.events)
        let lines = TimelineText.render(lanes, width: 51).split(separator: "\n")
        #expect(lines.contains("marks                ▲"))
        #expect(lines.contains("  ▲ 0.200s  cancel c"))
    }

    @Test func theRunningRowCountsTheMostAtOnceInEachColumn() {
        let steps = [
            TimelineLanes.QueueStep(time: 0, executing: 1, cap: 2),
            TimelineLanes.QueueStep(time: 0.05, executing: 2, cap: 2),
            TimelineLanes.QueueStep(time: 0.06, executing: 1, cap: 2),
            TimelineLanes.QueueStep(time: 0.25, executing: 0, cap: 2),
        ]
        #expect(TimelineText.runningRow(steps, plot: 4, step: 0.1) == "211 ")
    }
}
