import Dispatch
import ScenarioKit

/// How a run is driven.
public struct RunOptions: Sendable {
    /// Scenario seconds per real second (`--speed`); > 0.
    public var speed: Double
    /// Start with scenario time paused.
    public var startsPaused: Bool

    public init(speed: Double = 1, startsPaused: Bool = false) {
        self.speed = speed
        self.startsPaused = startsPaused
    }
}

/// One run of a scenario on Foundation's real `OperationQueue`s.
///
/// PLACEHOLDER: the engine replaces this file. The public surface below is
/// the contract the commands and the interface code against.
public final class ScenarioRun: @unchecked Sendable {
    public let scenario: Scenario

    /// `onEvents` is called (on an engine thread) whenever the mailbox goes
    /// from empty to non-empty; the consumer then calls `takeEvents()`.
    public init(
        scenario: Scenario, options: RunOptions = RunOptions(),
        onEvents: (@Sendable () -> Void)? = nil
    ) {
        self.scenario = scenario
    }

    /// Builds the queues and operations and starts scenario time.
    public func start() {}

    /// Removes and returns every event recorded since the last call, in order.
    public func takeEvents() -> [LifecycleEvent] { [] }

    /// Blocks the calling thread (never the main thread when the scenario
    /// has a `main` queue) until the run has ended or `timeout` real seconds
    /// passed, and returns the whole stream; the last event is `.end` when
    /// the run ended.
    public func waitForEnd(timeout: Double) -> [LifecycleEvent] { [] }

    /// The current scenario time, in scenario seconds.
    public var now: Double { 0 }

    public func perform(_ action: Action, origin: ActionOrigin) {}
    public func pause() {}
    public func resume() {}
    public var isPaused: Bool { false }
    public func setSpeed(_ speed: Double) {}

    /// Ends the run early: cancels what is left and releases waiting work,
    /// so that no engine thread is left blocked.
    public func stop() {}
}
