import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Synchronization
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
    await runChecked(scenario: builder.scenario, speed: speed, timeout: timeout, sourceLocation: sourceLocation)
}

/// `runChecked` for a scenario written in the language (it must read
/// without an error).
func runChecked(
    source: String, speed: Double = 20, timeout: Double = 20,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> Stream {
    let result = ScenarioReader.read(SourceFile(path: "test.ops", bytes: Array(source.utf8)))
    let scenario = try #require(result.scenario, "\(result.diagnostics)", sourceLocation: sourceLocation)
    return await runChecked(scenario: scenario, speed: speed, timeout: timeout, sourceLocation: sourceLocation)
}

/// `stateReader` nil runs without Foundation's state read (each dispatch
/// announced at its start).
func runChecked(
    scenario: Scenario, speed: Double = 20, timeout: Double = 20,
    stateReader: EngineState? = EngineState.processDefault,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async -> Stream {
    let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: speed, stateReader: stateReader))
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

/// Real time that a test can skip ahead: the run's scenario clock reads
/// it, so a test that would sleep to see that scenario time stands still
/// skips minutes in an instant instead.
final class SkippableClock: Sendable {
    private let skipped = Atomic<UInt64>(0)

    /// Monotonic nanoseconds, plus what was skipped.
    @Sendable func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds &+ skipped.load(ordering: .acquiring)
    }

    func skip(seconds: Double) {
        skipped.add(UInt64(seconds * 1e9), ordering: .releasing)
    }
}
