/// Scenario time: real elapsed time × speed, minus paused spans.
///
/// Kept as an anchor (scenario time at a real instant) that is moved on
/// every pause, resume and speed change, so reading it is one subtraction
/// and one multiplication. Only read and changed under the run's lock,
/// with a real-time reading taken under that lock, so stamped times never
/// go backwards.
///
/// Two things stop it, independently: the user's pause, and the hold of a
/// run that waits for the user after a stall (`StallPolicy.waitsForUser`).
/// It moves only when neither holds, or when only the pause does and the
/// main thread's work runs through it (`mainThreadWorks`): the thread
/// that would read the key that resumes is the one working.
struct ScenarioClock {
    private(set) var speed: Double
    /// Paused by the user (or a caption in lesson mode).
    private(set) var isPaused: Bool
    /// Held while a stalled run waits for the user.
    private(set) var isHeld = false
    /// Work on the main thread runs through the pause.
    private(set) var mainThreadWorks = false
    private(set) var isRunning = false
    private var anchorReal: UInt64 = 0
    private var anchorScenario: Double = 0

    init(speed: Double, paused: Bool) {
        self.speed = speed > 0 ? speed : 1
        self.isPaused = paused
    }

    /// Paused (and no main-thread work runs through it) or held: scenario
    /// time does not move.
    var isStopped: Bool { (isPaused && !mainThreadWorks) || isHeld }

    @inline(__always) func now(_ real: UInt64) -> Double {
        if !isRunning || isStopped { return anchorScenario }
        return anchorScenario + Double(real &- anchorReal) * 1e-9 * speed
    }

    mutating func start(_ real: UInt64) {
        isRunning = true
        anchorReal = real
    }

    mutating func pause(_ real: UInt64) { set(\.isPaused, true, real) }
    mutating func resume(_ real: UInt64) { set(\.isPaused, false, real) }
    mutating func hold(_ real: UInt64) { set(\.isHeld, true, real) }

    /// Holds it at scenario time `t`, no later than its reading at `real`:
    /// a stall held at the moment the run became stuck.
    mutating func hold(at t: Double, _ real: UInt64) {
        hold(real)
        anchorScenario = min(anchorScenario, max(t, 0))
    }
    mutating func release(_ real: UInt64) { set(\.isHeld, false, real) }
    /// Work on the main thread begins (`true`) or ends running through the
    /// pause.
    mutating func mainThreadWorks(_ on: Bool, _ real: UInt64) { set(\.mainThreadWorks, on, real) }

    /// Sets one of the two stops at `real`: the reading freezes when the
    /// first comes on, and moves again from there when the last goes off.
    private mutating func set(_ stop: WritableKeyPath<ScenarioClock, Bool>, _ on: Bool, _ real: UInt64) {
        guard self[keyPath: stop] != on else { return }
        let wasStopped = isStopped
        if !wasStopped {
            anchorScenario = now(real)
            anchorReal = real
        }
        self[keyPath: stop] = on
        if wasStopped && !isStopped { anchorReal = real }
    }

    mutating func setSpeed(_ newSpeed: Double, _ real: UInt64) {
        guard newSpeed > 0, newSpeed.isFinite else { return }
        anchorScenario = now(real)
        anchorReal = real
        speed = newSpeed
    }
}
