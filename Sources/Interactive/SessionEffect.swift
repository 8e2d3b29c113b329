import ScenarioKit

/// What the session needs to know of the world at one call, passed in by
/// the shell: the real time, and the live run's own reading of its clock.
package struct SessionMoment: Sendable {
    /// Real monotonic seconds: transient messages, a freeze's length, a
    /// replay's clock.
    package var wall: Double
    /// The live run's scenario clock is stopped (by a key, a caption, a
    /// run not started); true without a live run.
    package var runPaused: Bool
    /// The live run's scenario time now; 0 without a live run.
    package var runNow: Double

    package init(wall: Double, runPaused: Bool = true, runNow: Double = 0) {
        self.wall = wall
        self.runPaused = runPaused
        self.runNow = runNow
    }
}

/// What the session asks its shell to do: to the run on the real engine,
/// to the file system, to the process.
package enum SessionEffect: Equatable, Sendable {
    /// Stop the run shown, if any, and make a new one of the scenario with
    /// these settings, handing Foundation nothing yet.
    case newRun(speed: Double, paused: Bool, lesson: Bool)
    /// Hand the run to Foundation, its clock moving (Space on a run opened
    /// paused, or a run opened moving).
    case startRun
    case pauseRun
    case resumeRun
    /// A key's action on the engine. Said on the status line if the
    /// engine takes nothing more (the run ended): `refusal`.
    case perform(Action, refusal: String)
    case setSpeed(Double)
    /// The run pauses at each caption, or not.
    case setLesson(Bool)
    /// Write `bytes` to a new file `name` in the current folder, then tell
    /// the session (`saved(_:ok:at:)`).
    case save(name: String, bytes: [UInt8])
    /// Keep a question's first answer in the practice record (the library
    /// file `question`), then tell the session (`kept(_:at:)`).
    case keepAnswer(question: String, right: Bool)
    case quit
}
