import LifecycleEngine
import RunEvents
import ScenarioKit

/// What the interactive view shows a run through: a live run on the real
/// engine (`ScenarioRun`), or a recording played back (`RecordingPlayback`).
/// The view drains events from it, pauses and resumes its clock, changes
/// its speed; only a live run takes actions.
@MainActor
protocol ShownRun: AnyObject {
    /// Starts scenario time (a live run builds its queues now).
    func start()
    /// Ends it; nothing is recorded afterwards.
    func stop()
    /// The events due since the last call, in order.
    func takeEvents() -> [LifecycleEvent]
    /// Asks the engine for `action`; false when the run cannot take it
    /// (ended, not started, or a recording).
    func perform(_ action: Action, origin: ActionOrigin) -> Bool
    func pause()
    func resume()
    var isPaused: Bool { get }
    /// Scenario seconds now.
    var now: Double { get }
    func setSpeed(_ speed: Double)
    var pausesAtCaptions: Bool { get set }
}

extension ScenarioRun: ShownRun {}
