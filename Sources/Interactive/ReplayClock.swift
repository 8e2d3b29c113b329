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
/// A value: the real time (`wall`, monotonic seconds) is passed to every
/// call that reads or moves the clock.
struct ReplayClock: Sendable {
    /// Each event's scenario time, in order.
    private let times: [Double]
    /// Which events are captions.
    private let isCaption: [Bool]
    private(set) var speed: Double
    /// The events shown: 0 (the start) … `times.count` (the end).
    private(set) var position = 0
    /// Scenario time at `since` (real seconds), and whether it advances.
    private var base = 0.0
    private var since = 0.0
    private(set) var isPlaying = false
    /// It stopped at a caption (lesson mode), not by a pause.
    private(set) var stoppedAtCaption = false
    var pausesAtCaptions: Bool

    init(events: [LifecycleEvent], speed: Double, pausesAtCaptions: Bool) {
        times = events.map(\.time)
        isCaption = events.map {
            if case .caption = $0.kind { return true }
            return false
        }
        self.speed = speed
        self.pausesAtCaptions = pausesAtCaptions
    }

    var count: Int { times.count }

    /// At the recording's last event: nothing more to play.
    var isAtEnd: Bool { position >= times.count }

    /// The scenario time the screen shows at `wall`: the clock while it
    /// plays, the position's moment while it stands; never past the last
    /// event.
    func now(at wall: Double) -> Double {
        guard isPlaying else { return time(at: position) }
        return min(base + (wall - since) * speed, times.last ?? 0)
    }

    /// The moment after the first `position` events (0 before any).
    func time(at position: Int) -> Double {
        position > 0 && position <= times.count ? times[position - 1] : 0
    }

    /// Plays on from `position`, its clock at that moment. False at the end.
    @discardableResult
    mutating func play(from position: Int, at wall: Double) -> Bool {
        self.position = min(max(0, position), times.count)
        guard !isAtEnd else {
            isPlaying = false
            return false
        }
        base = time(at: self.position)
        since = wall
        isPlaying = true
        stoppedAtCaption = false
        return true
    }

    mutating func pause(at wall: Double) {
        guard isPlaying else { return }
        base = now(at: wall)
        isPlaying = false
    }

    /// The position moved by hand (a step, a jump): it stands there.
    mutating func move(to position: Int, at wall: Double) {
        pause(at: wall)
        self.position = min(max(0, position), times.count)
        stoppedAtCaption = false
    }

    mutating func setSpeed(_ newSpeed: Double, at wall: Double) {
        base = now(at: wall)
        since = wall
        speed = newSpeed
    }

    /// Moves the position over the events whose time has come by `wall`;
    /// in lesson mode it stops after a caption and the events of its
    /// moment. Returns the new position.
    @discardableResult
    mutating func advance(at wall: Double) -> Int {
        guard isPlaying else { return position }
        let due = now(at: wall)
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
