import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit

/// A recording played back as if it ran again: its events come due at
/// their recorded scenario times on a clock that pauses, resumes and
/// changes speed like a live run's, and lesson mode pauses at each caption
/// as it would live. Nothing here touches Foundation's engine: a replay
/// shows what was recorded and cannot change it (`perform` refuses).
///
/// The clock is read from `realTime`, injected so that tests drive it.
@MainActor
final class RecordingPlayback: ShownRun {
    private let events: [LifecycleEvent]
    /// How many events were taken.
    private var next = 0
    private let realTime: () -> Double
    private var speed: Double
    /// Scenario time at `since` (real seconds), and whether it advances.
    private var base = 0.0
    private var since: Double
    private var running = false
    /// The clock ran at some point: before that, only steps take events.
    private var started = false
    private var stopped = false
    var pausesAtCaptions: Bool

    init(
        events: [LifecycleEvent], speed: Double, pausesAtCaptions: Bool,
        realTime: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.events = events
        self.speed = speed
        self.pausesAtCaptions = pausesAtCaptions
        self.realTime = realTime
        since = realTime()
    }

    /// Every event was taken: the recording's last moment is on the screen.
    var isExhausted: Bool { next >= events.count }

    /// The time of the last event recorded: the clock never goes past it.
    private var lastTime: Double { events.last?.time ?? 0 }

    var now: Double {
        guard running else { return min(base, lastTime) }
        return min(base + (realTime() - since) * speed, lastTime)
    }

    var isPaused: Bool { !running }

    func start() {
        guard !stopped else { return }
        resume()
    }

    func stop() {
        pause()
        stopped = true
    }

    func pause() {
        guard running else { return }
        base = now
        running = false
    }

    func resume() {
        guard !running, !stopped else { return }
        since = realTime()
        running = true
        started = true
    }

    func setSpeed(_ speed: Double) {
        base = now
        since = realTime()
        self.speed = speed
    }

    /// A replay cannot change the run.
    func perform(_ action: Action, origin: ActionOrigin) -> Bool { false }

    /// The events whose time has come, up to and including a caption when
    /// lesson mode pauses there (the clock then stops at its time).
    func takeEvents() -> [LifecycleEvent] {
        guard started, !stopped else { return [] }
        let due = now
        var taken: [LifecycleEvent] = []
        while next < events.count, events[next].time <= due {
            var event = events[next]
            next += 1
            if case .caption(let index, _) = event.kind {
                event.kind = .caption(index, paused: pausesAtCaptions && running)
                if pausesAtCaptions && running {
                    taken.append(event)
                    base = event.time
                    running = false
                    break
                }
            }
            taken.append(event)
        }
        return taken
    }

    /// The next event, whatever its time: the clock moves to it (a step
    /// through the recording, `]` at its live edge).
    func takeNext() -> LifecycleEvent? {
        guard !stopped, next < events.count else { return nil }
        let event = events[next]
        next += 1
        base = max(base, event.time)
        since = realTime()
        return event
    }

    /// Jumps to the recording's end: every event left is due now, no pause
    /// at a caption on the way.
    func takeAll() -> [LifecycleEvent] {
        guard !stopped else { return [] }
        let rest = Array(events[next...])
        next = events.count
        base = lastTime
        running = false
        return rest
    }
}
