import RunEvents
import ScenarioKit

/// Checks that an event stream obeys the rules of the real engine and of
/// opscope's observation (SCENARIO-LANGUAGE.md "The event stream",
/// docs/SCENARIO-LANGUAGE.md, "Announcements in the KVO style").
///
/// Pure: the same events give the same violations, in stream order. A
/// stream without an `.end` is taken as a run still going on, not as a
/// violation. Rules: first those of each operation's life and the
/// queues' numbers (`LifeCheck`, which a recording is read by too:
/// added before anything else, dispatched, started, stopped and finished
/// once each and in that order, a completion block after the finish,
/// `.end` last, …), then the engine's:
/// - `seq` strictly increases, `time` never goes back;
/// - causal order: a dependency's `isFinished` comes before its dependent's
///   `isReady` turns true (once the dependent was added, unless it was
///   cancelled first) and before its `isExecuting` turns true; barriers
///   count as dependencies of the operations added after them on their
///   queue and depend on those added before (only the start is checked
///   for these implicit dependencies);
/// - a dispatch comes once what the operation waits for finished (or it
///   was cancelled); an implicit barrier counts here only while it still
///   waits for something itself (an operation added once its barrier was
///   dispatched is dispatched at once and waits on the dispatch queue);
///   with `observesDispatch`, every start, and every finish without a
///   start (barriers aside), comes after a dispatch;
/// - never more operations of a queue dispatched or executing than its cap
///   allows (see `CapAllowance`: after a lowering, what was dispatched
///   before still runs);
/// - no `isReady` true → false after the start; an operation cancelled
///   before it started never executes.
public enum InvariantChecker {
    /// `observesDispatch`: the stream announces every dispatch (a live
    /// run's does; a recording of format version 1 has none).
    public static func check(
        _ events: [LifecycleEvent], scenario: Scenario, observesDispatch: Bool = true
    ) -> [InvariantViolation] {
        var walk = InvariantWalk(scenario: scenario, observesDispatch: observesDispatch)
        for event in events { walk.visit(event) }
        return walk.violations
    }
}
