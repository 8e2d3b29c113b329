import Foundation
import RunEvents

/// Where a replay is in its recording, moving on a clock of its own.
///
/// A replay has its whole recording from its first frame: every event is in
/// the history, and what the screen shows is a position in it (how many
/// events have happened). This clock moves the position as the recorded
/// scenario times come due: it plays from any position, pauses, resumes,
/// changes speed like a live run's clock, and in lesson mode stops at each
/// caption, with the events of the caption's moment shown. Nothing here
/// touches Foundation's engine.
///
/// The real time is read from `realTime`, injected so that tests drive it.
@MainActor
final class RecordingPlayback {
    /// Each event's scenario time, in order.
    private let times: [Double]
    /// Which events are captions.
    private let isCaption: [Bool]
    private let realTime: () -> Double
    private(set) var speed: Double
    /// The events shown: 0 (the start) … `times.count` (the end).
    private(set) var position = 0
    /// Scenario time at `since` (real seconds), and whether it advances.
    private var base = 0.0
    private var since: Double
    private(set) var isPlaying = false
    /// It stopped at a caption (lesson mode), not by a pause.
    private(set) var stoppedAtCaption = false
    var pausesAtCaptions: Bool

    init(
        events: [LifecycleEvent], speed: Double, pausesAtCaptions: Bool,
        realTime: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        times = events.map(\.time)
        isCaption = events.map {
            if case .caption = $0.kind { return true }
            return false
        }
        self.speed = speed
        self.pausesAtCaptions = pausesAtCaptions
        self.realTime = realTime
        since = realTime()
    }

    var count: Int { times.count }

    /// At the recording's last event: nothing more to play.
    var isAtEnd: Bool { position >= times.count }

    /// The scenario time the screen shows: the clock while it plays, the
    /// position's moment while it stands; never past the last event.
    var now: Double {
        guard isPlaying else { return time(at: position) }
        return min(base + (realTime() - since) * speed, times.last ?? 0)
    }

    /// The moment after the first `position` events (0 before any).
    func time(at position: Int) -> Double {
        position > 0 && position <= times.count ? times[position - 1] : 0
    }

    /// Plays on from `position`, its clock at that moment. False at the end.
    @discardableResult
    func play(from position: Int) -> Bool {
        self.position = min(max(0, position), times.count)
        guard !isAtEnd else {
            isPlaying = false
            return false
        }
        base = time(at: self.position)
        since = realTime()
        isPlaying = true
        stoppedAtCaption = false
        return true
    }

    func pause() {
        guard isPlaying else { return }
        base = now
        isPlaying = false
    }

    /// The position moved by hand (a step, a jump): it stands there.
    func move(to position: Int) {
        pause()
        self.position = min(max(0, position), times.count)
        stoppedAtCaption = false
    }

    func setSpeed(_ newSpeed: Double) {
        base = now
        since = realTime()
        speed = newSpeed
    }

    /// Moves the position over the events whose time has come; in lesson
    /// mode it stops after a caption and the events of its moment. Returns
    /// the new position.
    @discardableResult
    func advance() -> Int {
        guard isPlaying else { return position }
        let due = now
        while position < times.count, times[position] <= due {
            position += 1
            if pausesAtCaptions && isCaption[position - 1] {
                let moment = times[position - 1]
                while position < times.count, times[position] <= moment, !isCaption[position] { position += 1 }
                base = moment
                isPlaying = false
                stoppedAtCaption = true
                return position
            }
        }
        if isAtEnd { isPlaying = false }
        return position
    }
}
