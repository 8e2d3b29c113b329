import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// Runs a scenario to its end on the real engine, checks the stream's
/// invariants and that it ended, and returns it for queries.
///
/// Async on purpose: a test that blocks its Swift-concurrency thread in
/// `waitForEnd` takes one of the two dispatch worker threads this machine
/// starts with, and synchronous operations then wait for a thread.
func runChecked(
    _ builder: ScenarioBuilder, speed: Double = 20, timeout: Double = 20,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async -> Stream {
    let scenario = builder.scenario
    let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: speed))
    run.start()
    let events = await run.ended(timeout: timeout)
    run.stop()
    let stream = Stream(events: events, scenario: scenario)
    #expect(stream.outcome != nil, "run did not end", sourceLocation: sourceLocation)
    expectCleanStream(events, scenario, sourceLocation: sourceLocation)
    return stream
}

extension RunOutcome {
    var isCompleted: Bool { self == .completed }
}

/// Every engine test's stream passes both the board's invariant checker
/// (causal order, caps, monotonic phases, one start and one finish) and
/// the engine's own stream checks.
func expectCleanStream(
    _ events: [LifecycleEvent], _ scenario: Scenario,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let violations = InvariantChecker.check(events, scenario: scenario)
    #expect(violations.isEmpty, "\(violations.prefix(10))", sourceLocation: sourceLocation)
    let problems = StreamChecks.violations(events, scenario)
    #expect(problems.isEmpty, "\(problems.prefix(10))", sourceLocation: sourceLocation)
}
