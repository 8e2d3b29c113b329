import Board
import RunEvents
import ScenarioKit
import Screen

/// The log pane's lines: one per event, as `EventFormatter.logLine`
/// prints it.
struct SessionLog: EventReader {
    let formatter: EventFormatter
    private(set) var entries: [LogEntry] = []

    init(scenario: Scenario) {
        formatter = EventFormatter(scenario: scenario)
    }

    mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch { entries.append(LogEntry(event, formatter: formatter)) }
    }
}
