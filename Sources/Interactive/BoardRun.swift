import LifecycleEngine
import RunEvents
import ScenarioKit

/// The live run a board shows and acts on: a run on the real engine in
/// this process (`ScenarioRun`), or in a child opscope that loaded the
/// user's classes (`ChildRun`). The session (`ScenarioSession`) sees no
/// difference: it takes events, sends actions and reads the clock.
package protocol BoardRun: AnyObject, Sendable {
    /// Builds the queues and operations and starts the run, reporting how
    /// far the adds are (`ScenarioRun.start(reportingEvery:_:)`).
    func start(reportingEvery interval: Double, _ report: (BuildProgress) -> Void)
    /// Every event announced since the last take, in order.
    func takeEvents() -> [LifecycleEvent]
    /// A key's action; false when the run takes none (not started, ended).
    func perform(_ action: Action, origin: ActionOrigin) -> Bool
    func pause()
    func resume()
    func setSpeed(_ speed: Double)
    func setPausesAtCaptions(_ on: Bool)
    /// Ends the run without waiting for it.
    func stopInBackground()
    var isPaused: Bool { get }
    /// Scenario seconds now.
    var now: Double { get }
    var isStalled: Bool { get }
    /// The run sees each moment of dispatch (`ScenarioRun.observesDispatches`).
    var observesDispatches: Bool { get }
    /// Why the run ended before its end was announced (the child that ran
    /// it crashed, or could not be read), in words for the status line;
    /// nil while it did not.
    var endedEarly: String? { get }
}

extension ScenarioRun: BoardRun {
    package func setPausesAtCaptions(_ on: Bool) { pausesAtCaptions = on }
    /// A run in this process ends by announcing it, or not at all.
    package var endedEarly: String? { nil }
}
