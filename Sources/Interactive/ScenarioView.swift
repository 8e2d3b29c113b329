import Board
import CommandSupport
import Foundation
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// One scenario in the interactive view: its run on the real engine (or a
/// recording of one played back), the board its events build, and the
/// interface state over it.
///
/// Main-queue only. The run's engine threads never touch this object; they
/// post a wake-up, and `drain()` takes the events here. The run waits for
/// the user after a stall (`StallPolicy.waitsForUser`): a suspended queue
/// is the run waiting for a key, not its end.
@MainActor
package final class ScenarioView {
    package enum KeyResult {
        case `continue`
        case quit
    }

    /// How the view opens a scenario.
    package struct Settings {
        /// Scenario seconds per real second.
        var speed: Double
        /// Open paused at t=0 (Space starts).
        var paused: Bool
        /// Lesson mode: pause at each caption.
        var lesson: Bool
    }

    /// What the view shows: a live run of the scenario, or a recording.
    package enum Source {
        case live
        /// `opscope replay`: the recording's events, played back.
        case recording([LifecycleEvent])

        var isRecording: Bool {
            if case .recording = self { return true }
            return false
        }
    }

    package let scenario: Scenario
    private let formatter: EventFormatter
    private var settings: Settings
    /// How it opened: what `r` goes back to.
    private let opening: Settings
    private let source: Source
    /// The file the scenario came from, for the header of a saved recording.
    private let file: RecordingFile
    /// The live run on the real engine (nil for a replay).
    private var run: ScenarioRun?
    /// A replay's clock over its recording, which is all in the history
    /// from the first frame: the screen shows the history at its position.
    private var playback: RecordingPlayback?
    /// `start()` was called on the run: false while a run opened paused
    /// waits for Space (a replay is there from its first frame).
    private var started = false
    private var wake: (@Sendable () -> Void)?
    private var mainThreadWork: (@Sendable (MainThreadWork) -> Void)?
    private(set) var board: BoardState
    private var state = InterfaceState()
    private var log: [LogEntry] = []
    /// Every notification of the run, with board checkpoints: what the
    /// history keys show.
    private var history: BoardHistory
    /// The board at the history cursor last shown, with the cursor: a key
    /// is handled on the moment the last frame showed, and a step seeks
    /// only the moment it goes to. What a history holds never changes (it
    /// only grows); a new one (a restart) forgets it.
    private var seekMemo: (cursor: Int, board: BoardState)?
    /// What the frames of this scenario derive once (its timeline order,
    /// an unchanged thread canvas).
    private var memo = ScreenMemo()
    /// The run as lanes over time, for the timeline and the thread view.
    private var lanes: TimelineLanes
    /// Each caption reached, after how many notifications, for the history.
    private var captionsReached: [(count: Int, caption: ShownCaption)] = []
    private var results: [ExpectationResult]?
    /// The caption shown, and those reached while the run was already
    /// paused at it (main-queue work goes on under a pause, several
    /// captions may share a moment): in lesson mode each gets its Space.
    private var caption: ShownCaption?
    private var captionsWaiting: [ShownCaption] = []
    private var pausedAtCaption = false
    /// A key's action changed the run (the engine took it): the captions
    /// from here on were written for the run without it.
    private var changedByUser = false
    /// The open overlay paused the run: closing it resumes.
    private var pausedForOverlay = false
    /// The operation a caption just shown names, to scroll into view.
    private var revealPending: OperationID?

    /// The main-queue operation holding the main thread now, since when
    /// (real seconds), and the longest such hold of the run.
    private var mainThreadBusy: (op: OperationID, since: Double)?
    private var mainThreadBlocked: MainThreadBlock?

    package init(
        scenario: Scenario, settings: Settings, file: RecordingFile, source: Source = .live, notice: String? = nil
    ) {
        self.scenario = scenario
        self.settings = settings
        opening = settings
        self.file = file
        self.source = source
        formatter = EventFormatter(scenario: scenario)
        board = BoardState(scenario: scenario)
        history = BoardHistory(scenario: scenario)
        lanes = TimelineLanes(scenario: scenario)
        if let notice { state.show(notice, kind: .refusal, now: ProcessInfo.processInfo.systemUptime, lasting: 30) }
    }

    /// Makes the run and starts it, or, opened paused, waits for Space
    /// before it hands anything to Foundation. `wake` is called from engine
    /// threads when events wait; `mainThreadWork` on the main thread as a
    /// main-queue operation's work begins and ends there.
    package func start(
        wake: @escaping @Sendable () -> Void, mainThreadWork: @escaping @Sendable (MainThreadWork) -> Void
    ) {
        self.wake = wake
        self.mainThreadWork = mainThreadWork
        begin(paused: settings.paused)
    }

    private func begin(paused: Bool) {
        if case .recording(let events) = source {
            // The whole recording, at once: every history key, the timeline
            // and `g` reach all of it before anything is played.
            take(events, live: false)
            let playback = RecordingPlayback(events: events, speed: settings.speed, pausesAtCaptions: settings.lesson)
            self.playback = playback
            started = true
            state.historyCursor = events.isEmpty ? nil : 0
            if !paused { playback.play(from: 0) }
            return
        }
        let options = RunOptions(
            speed: settings.speed, startsPaused: paused, stallPolicy: .waitsForUser,
            pausesAtCaptions: settings.lesson, onMainThreadWork: mainThreadWork)
        let run = ScenarioRun(scenario: scenario, options: options, onEvents: wake)
        self.run = run
        state.reconcile(with: board)
        // A run opened paused adds nothing to its queues until Space: paused
        // scenario time holds the simulated work but not the threads it
        // blocks, and the thread pool would grow behind the learner's back
        // (nor can a pause hold work of the main queue, which must not hold
        // the thread that reads the keys).
        started = !paused
        if started { run.start() }
    }

    /// Ends the run and releases its threads.
    package func stop() {
        run?.stop()
        playback?.pause()
    }

    /// Takes the events the engine recorded since last time into the board
    /// and the log. Returns whether there were any.
    @discardableResult
    package func drain() -> Bool {
        if let playback {
            guard playback.isPlaying else { return false }
            let before = state.historyCursor
            showPlaybackPosition(playback.advance())
            return state.historyCursor != before || playback.isPlaying
        }
        guard let run else { return false }
        return take(run.takeEvents())
    }

    /// A replay's position on the screen: the history there, or, at the
    /// recording's last event, its end.
    private func showPlaybackPosition(_ position: Int) {
        state.historyCursor = position >= history.count ? nil : position
        state.logScroll = 0
        pausedAtCaption = playback?.stoppedAtCaption ?? false
    }

    /// `live`: events as they happen (a key's action says what it did); a
    /// recording loaded whole says nothing of its own.
    @discardableResult
    private func take(_ batch: [LifecycleEvent], live: Bool = true) -> Bool {
        guard !batch.isEmpty else { return false }
        let wall = ProcessInfo.processInfo.systemUptime
        for event in batch {
            board.apply(event)
            history.append(event, boardAfter: board)
            lanes.record(event)
            log.append(LogEntry(event, formatter: formatter))
            switch event.kind {
            case .action(let action, .user, let ignored):
                if live { state.show(action, ignored: ignored, seq: event.seq, now: wall) }
                if ignored == nil { changedByUser = true }
            case .caption(let index, let paused):
                let reached = ShownCaption(
                    text: scenario.captions[index].text, time: event.time, scripted: changedByUser)
                captionsReached.append((history.count, reached))
                if case .when(let op, _) = scenario.captions[index].trigger { revealPending = op }
                if !live {
                    caption = reached
                } else if settings.lesson && pausedAtCaption && isPaused {
                    // Stopped at one the learner has not gone past: this
                    // one waits for its own Space.
                    captionsWaiting.append(reached)
                } else {
                    caption = reached
                    pausedAtCaption = paused || (settings.lesson && isPaused)
                }
            default:
                break
            }
        }
        if board.outcome != nil {
            if results == nil { results = ExpectationChecker.evaluate(scenario, events: history.events) }
        } else if let stuck = board.stall, stuck.suspendedQueues(in: scenario).isEmpty {
            // Stuck for good: judged as a stalled end would be.
            results = ExpectationChecker.evaluate(scenario, events: history.events, outcome: .stalled(stuck))
        } else {
            // Running, or waiting for someone to resume a queue: nothing is
            // judged yet (a verdict now would not be the run's).
            results = nil
        }
        state.reconcile(with: board)
        return true
    }

    /// Called on the main thread as a main-queue operation's work begins
    /// (the caller draws right after: the last frame before the main thread
    /// blocks) and ends.
    package func mainThread(_ work: MainThreadWork) {
        let now = ProcessInfo.processInfo.systemUptime
        switch work {
        case .began(let op):
            mainThreadBusy = (op, now)
        case .ended(let op):
            if let busy = mainThreadBusy, busy.op == op {
                let seconds = now - busy.since
                // A hold of less than a quarter second froze nothing a
                // person at the keys notices.
                if seconds >= 0.25, seconds > (mainThreadBlocked?.seconds ?? 0) {
                    mainThreadBlocked = MainThreadBlock(operation: op, seconds: seconds)
                }
            }
            mainThreadBusy = nil
        }
    }

    private var isPaused: Bool {
        if let playback { return !playback.isPlaying }
        return run?.isPaused ?? true
    }

    private var isReplay: Bool { source.isRecording }

    /// Something on screen changes with time: the clock of a live run, or
    /// of a replay until its last event.
    package var isMoving: Bool {
        if let playback { return playback.isPlaying }
        return started && !isPaused && board.outcome == nil && board.stall == nil
    }

    /// The time the clock shows: the run's now; the moment it ended or
    /// stalled once it did (the engine holds a waiting run's clock too).
    private var clock: Double {
        if let playback { return playback.isPlaying ? playback.now : board.lastEventTime }
        if board.outcome != nil || board.stall != nil { return board.lastEventTime }
        return run?.now ?? 0
    }

    package func frameInput(size: Size, glyphs: GlyphSet, colors: Bool) -> FrameInput {
        var frame = FrameInput(
            now: clock, wallClock: ProcessInfo.processInfo.systemUptime, speed: settings.speed,
            // After the end, Space continues only to a caption still waiting.
            isPaused: isPaused,
            pausedAtCaption: pausedAtCaption && (board.outcome == nil ? isPaused : !captionsWaiting.isEmpty),
            notStarted: !started,
            lesson: settings.lesson, caption: caption, size: size, glyphs: glyphs, colors: colors, log: log,
            expectationResults: results, mainThreadBusy: mainThreadBusy?.op, mainThreadBlocked: mainThreadBlocked,
            history: history, historyShown: state.historyCursor, isReplay: isReplay)
        frame.timeline = lanes
        frame.memo = memo
        if let shown = state.historyCursor {
            // That moment: its clock and its caption (the log pane ends
            // at its line by itself).
            frame.now = history.time(after: shown)
            frame.caption = captionsReached.last { $0.count <= shown }?.caption
            frame.pausedAtCaption = false
            if let playback {
                // A replay plays through the history: its clock, a stop at
                // a caption, and no verdict before its end.
                if playback.isPlaying { frame.now = max(frame.now, playback.now) }
                frame.pausedAtCaption = playback.stoppedAtCaption && !playback.isPlaying
                frame.expectationResults = nil
            }
        }
        return frame
    }

    /// The board on the screen: the history cursor's moment, or the live one.
    private var shownBoard: BoardState {
        guard let cursor = state.historyCursor else { return board }
        if let memo = seekMemo, memo.cursor == cursor { return memo.board }
        // The moment shown before is written over, in place.
        var shown = seekMemo?.board ?? history.board(after: cursor)
        seekMemo = nil
        history.seek(&shown, to: cursor)
        seekMemo = (cursor, shown)
        return shown
    }

    package func render(frame: FrameInput) -> CellGrid {
        if let op = revealPending {
            // The operation the caption names, in view at any size.
            revealPending = nil
            state.reveal(op, board: shownBoard, frame: frame)
        }
        return InterfaceRenderer.render(board: shownBoard, state: state, frame: frame).grid
    }

    package func handle(_ key: Key, frame: FrameInput) -> KeyResult {
        let wall = frame.wallClock
        let cursorBefore = state.historyCursor
        let overlayBefore = state.overlay
        defer {
            // A replay moved by hand (a step, a jump, a click on the
            // timeline) stands where it was moved to.
            if let playback, state.historyCursor != cursorBefore, playback.isPlaying || cursorBefore != nil {
                playback.move(to: state.historyCursor ?? history.count)
                pausedAtCaption = false
            }
        }
        switch InterfaceController.handle(
            key, state: &state, board: shownBoard, live: playback == nil ? board : nil, frame: frame)
        {
        case .none, .redraw:
            break
        case .perform(let action):
            if run?.perform(action, origin: .user) != true {
                state.show(InterfaceController.endedRefusal(frame), kind: .refusal, now: wall)
            } else {
                // The action and what the engine did with it are in the
                // stream by now: the next key, however soon it comes (a
                // burst), acts on the state this one left.
                drain()
            }
        case .togglePause:
            togglePause()
        case .toggleLesson:
            settings.lesson.toggle()
            run?.pausesAtCaptions = settings.lesson
            playback?.pausesAtCaptions = settings.lesson
            state.show(
                settings.lesson
                    ? "lesson mode: the run pauses at each caption (m turns it off)"
                    : "lesson mode off: captions show without pausing", now: wall)
        case .setSpeed(let newSpeed):
            settings.speed = newSpeed
            run?.setSpeed(newSpeed)
            playback?.setSpeed(newSpeed)
        case .restart:
            if let playback {
                state = state.restarted()
                settings = opening
                playback.setSpeed(opening.speed)
                playback.pausesAtCaptions = opening.lesson
                playback.move(to: 0)
                showPlaybackPosition(0)
                if !opening.paused { playback.play(from: 0) }
                state.show(
                    opening.paused
                        ? "back at the recording's start: Space plays it" : "the recording plays again from t=0",
                    now: wall)
                return .continue
            }
            restart()
            let how = opening.paused ? ", not started: Space starts it" : ""
            state.show("restarted: a new run, with new queues and operations, from t=0\(how)", now: wall)
        case .saveRecording:
            saveRecording(now: wall)
        case .quit:
            return .quit
        }
        holdWhileOverlaid(openedFrom: overlayBefore)
        return .continue
    }

    /// The help and the Swift code cover the board: a run (or a replay)
    /// that was moving pauses while one is open, and goes on when it closes.
    private func holdWhileOverlaid(openedFrom before: InterfaceState.Overlay) {
        let now = state.overlay
        if before == .none, now != .none, isMoving {
            run?.pause()
            playback?.pause()
            pausedForOverlay = true
        } else if now == .none, pausedForOverlay {
            pausedForOverlay = false
            if let playback {
                playback.play(from: state.historyCursor ?? history.count)
            } else if board.outcome == nil {
                run?.resume()
            }
        }
    }

    private func togglePause() {
        if let playback {
            if playback.isPlaying {
                playback.pause()
            } else if pausedAtCaption, !captionsWaiting.isEmpty {
                caption = captionsWaiting.removeFirst()
            } else if state.historyCursor == nil {
                state.show(
                    "this is the end of the recording \u{2014} r plays it again", kind: .refusal,
                    now: ProcessInfo.processInfo.systemUptime)
            } else {
                pausedAtCaption = false
                playback.play(from: state.historyCursor ?? history.count)
            }
            return
        }
        guard let run else { return }
        if !started {
            started = true
            run.resume()
            run.start()
        } else if run.isPaused || board.outcome != nil {
            if pausedAtCaption, !captionsWaiting.isEmpty {
                // The next caption of this moment, still paused.
                caption = captionsWaiting.removeFirst()
                return
            }
            pausedAtCaption = false
            if board.outcome == nil { run.resume() }
        } else {
            run.pause()
        }
    }

    /// `W`: writes the run shown, every notification so far, as a
    /// recording (`opscope trace --format jsonl`'s format, header first)
    /// into the current folder, and says where.
    private func saveRecording(now wall: Double) {
        guard history.count > 0 else {
            state.show("nothing to save yet: the run has not begun", kind: .refusal, now: wall)
            return
        }
        let name = RecordingFile.savedName(for: file.path, at: Date())
        let header = JSONLineEncoder.Header(
            opscope: Version.opscope, language: Version.language, path: file.path, source: file.source)
        let bytes = JSONLineEncoder.recording(header, of: scenario, events: history.events)
        if FileManager.default.createFile(atPath: name, contents: Data(bytes)) {
            // Short enough for 80 columns: the name is the file's, dated.
            state.show("saved as \(name): opscope replay plays it", now: wall)
        } else {
            state.show("cannot write \(name) in this folder: nothing saved", kind: .refusal, now: wall)
        }
    }

    /// `r`: a new run with new operations (an operation runs only once),
    /// opened the way this one was: a lesson paused at t=0 again, in lesson
    /// mode, at its speed.
    private func restart() {
        run?.stop()
        board = BoardState(scenario: scenario)
        history = BoardHistory(scenario: scenario)
        seekMemo = nil
        memo = ScreenMemo()
        lanes = TimelineLanes(scenario: scenario)
        captionsReached = []
        log = []
        results = nil
        caption = nil
        captionsWaiting = []
        pausedAtCaption = false
        changedByUser = false
        mainThreadBusy = nil
        mainThreadBlocked = nil
        state = state.restarted()
        settings = opening
        begin(paused: opening.paused)
    }
}
