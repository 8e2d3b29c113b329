import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// The text timeline: lanes, the queue's running row, the axis and the marks.
@Suite struct TimelineTextTests {
    static let scenario = ThreeOperations.scenario(cap: 2)

    static func script() -> Script { ThreeOperations.script(cap: 2) }

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
                · pending  ░ ready  █ executing  ✓ finished
                ⊘ finished cancelled

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
