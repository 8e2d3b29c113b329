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

    /// Each action with who did it: an `at` line of the file, a completion
    /// block, a key (`EventFormatter.originText`'s words, the trace's).
    @Test func marksAreListedWithTheirTimesAndWhoActed() {
        var scenario = Self.scenario
        let (a, c) = (scenario.operationID(named: "a")!, scenario.operationID(named: "c")!)
        scenario.operations[a.index].location = SourceLocation(line: 3, column: 4)
        scenario.actions = [
            TimedAction(time: .milliseconds(200), action: .cancel(c), location: .init(line: 9, column: 1))
        ]
        var script = Script(scenario)
        for event in Self.script().events {
            script.at(event.time)
            script.emit(event.kind, thread: event.thread)
        }
        script.at(0.2)
        script.emit(.action(.cancel(c), origin: .timed(0), ignored: nil))
        script.at(0.4)
        script.emit(.action(.suspend(QueueID(0)), origin: .completion(a), ignored: nil))
        script.at(0.6)
        script.emit(.action(.cancel(a), origin: .user, ignored: .alreadyFinished))
        let lanes = TimelineLanes(scenario: scenario, events: script.events)
        let lines = TimelineText.render(lanes, width: 51).split(separator: "\n")
        #expect(lines.contains("marks                ▲         ▲         ▲"))
        #expect(lines.contains("  ▲ 0.200s  cancel c (at 200ms, line 9)"))
        // Wrapped within the width, never cut: who acted always shows.
        #expect(lines.contains("  ▲ 0.400s  suspend q (completion block of a,"))
        #expect(lines.contains("            line 3)"))
        #expect(lines.contains("  ▲ 0.600s  cancel a (key pressed; ignored: already"))
        #expect(lines.contains("            finished)"))
        #expect(lines.allSatisfy { $0.count <= 51 })
        // A scenario made in code has no lines: the words say none.
        var plain = Script(Self.scenario)
        plain.emit(.action(.cancel(c), origin: .completion(a), ignored: nil))
        #expect(
            TimelineLanes(scenario: Self.scenario, events: plain.events).marks.map(\.text) == [
                "cancel c (completion block of a)"
            ])
    }

    @Test func theRunningRowCountsTheMostAtOnceInEachColumn() {
        let steps = [
            TimelineLanes.QueueStep(time: 0, executing: 1, cap: 2),
            TimelineLanes.QueueStep(time: 0.05, executing: 2, cap: 2),
            TimelineLanes.QueueStep(time: 0.06, executing: 1, cap: 2),
            TimelineLanes.QueueStep(time: 0.25, executing: 0, cap: 2),
        ]
        #expect(String(RunningScale.glyphs(TimelineText.runningTops(steps, plot: 4, step: 0.1)).glyphs) == "211 ")
    }

    /// A stop with no start would count −1 running: a column holds one
    /// character, and a count below zero is no count at all.
    @Test func theRunningRowNeverCountsBelowZero() {
        let steps = [
            TimelineLanes.QueueStep(time: 0, executing: -1, cap: 2),
            TimelineLanes.QueueStep(time: 0.15, executing: Int.min, cap: 2),
            TimelineLanes.QueueStep(time: 0.25, executing: 1, cap: 2),
        ]
        #expect(String(RunningScale.glyphs(TimelineText.runningTops(steps, plot: 4, step: 0.1)).glyphs) == "  11")
        var script = Script(Self.scenario)
        script.add("a")
        script.set("a", .isExecuting, false)
        script.at(1)
        script.end()
        let text = TimelineText.render(TimelineLanes(scenario: Self.scenario, events: script.events), width: 60)
        #expect(!text.contains("-"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }
}
