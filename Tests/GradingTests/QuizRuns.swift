import EventFixtures
import RunEvents
import ScenarioKit

/// Runs the quiz tests grade against, written as the engine announces them.
enum QuizRuns {
    /// q serial, suspended; low-one, normal-one, high-one, urgent (veryHigh),
    /// resumed at 0.1: urgent, high-one, normal-one, low-one, 0.1 s each.
    static let priority: (Scenario, [LifecycleEvent]) = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1), startsSuspended: true)],
            ops: [
                op("low-one", on: "q", priority: .low), op("normal-one", on: "q"),
                op("high-one", on: "q", priority: .high), op("urgent", on: "q", priority: .veryHigh),
            ])
        scenario.actions = [TimedAction(time: .milliseconds(100), action: .resume(QueueID(0)))]
        var s = Script(scenario)
        s.cap("q", 1)
        s.suspended("q", true)
        for name in ["low-one", "normal-one", "high-one", "urgent"] { s.add(name) }
        s.at(0.100)
        s.emit(.action(.resume(QueueID(0)), origin: .timed(0), ignored: nil))
        s.suspended("q", false)
        s.run("urgent", from: 0.101, to: 0.200)
        s.run("high-one", from: 0.201, to: 0.300)
        s.run("normal-one", from: 0.301, to: 0.400)
        s.run("low-one", from: 0.401, to: 0.500)
        s.end()
        return (scenario, s.events)
    }()
}
