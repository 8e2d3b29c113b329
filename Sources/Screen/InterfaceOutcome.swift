import ScenarioKit

/// What the loop must do after a key: the controller changed only the
/// interface state, everything that touches the run is asked for here.
/// Every case but `.none` also means "redraw".
public enum InterfaceOutcome: Sendable, Hashable {
    /// Nothing changed (a move at the edge of the board).
    case none
    /// Interface state changed (selection, pane, overlay, message): redraw.
    case redraw
    /// Hand the action to the run: `run.perform(action, origin: .user)`.
    /// Only cancel, cancelAll, suspend, resume, setCap and setPriority; the
    /// status line then says what the engine did with it (its event).
    case perform(Action)
    /// Start a run that has not started; else `run.isPaused ? run.resume() : run.pause()`.
    case togglePause
    /// Lesson mode on or off (the run pauses at each caption).
    case toggleLesson
    /// `run.setSpeed(_:)`, already clamped to `InterfaceController.speedRange`.
    case setSpeed(Double)
    /// Start the scenario again from a fresh board (the state was reset).
    case restart
    /// Save the run shown as a recording.
    case saveRecording
    case quit
}
