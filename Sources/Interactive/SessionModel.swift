import Board
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// One scenario in the interactive view, as a value: its run's events (live
/// or a recording), the board, history, lanes and log they build, the
/// lesson's captions, the interface state over them, the longest freeze of
/// the main thread, and what each key does to them.
///
/// Pure: it reads no clock (the moment is passed in), owns no run and
/// touches no file; what must happen outside comes back as `SessionEffect`s
/// for the shell (`ScenarioSession`) to carry out. The run waits for the
/// user after a stall: a suspended queue is the run waiting for a key, not
/// its end.
package struct SessionModel {
    /// How the session opens a scenario.
    package struct Settings: Sendable, Equatable {
        /// Scenario seconds per real second.
        package var speed: Double
        /// Open paused at t=0 (Space starts).
        package var paused: Bool
        /// Lesson mode: pause at each caption.
        package var lesson: Bool
        /// Open the scenario as its quiz's question (predict mode): paused,
        /// with what gives the answer away hidden until it is in.
        package var asQuestion: Bool
        /// The library file the question is, when its first answer goes to
        /// the practice record (`opscope practice` brings a missed one back).
        package var practiceQuestion: String?

        package init(
            speed: Double, paused: Bool, lesson: Bool, asQuestion: Bool = false, practiceQuestion: String? = nil
        ) {
            self.speed = speed
            self.paused = paused || asQuestion
            self.lesson = lesson && !asQuestion
            self.asQuestion = asQuestion
            self.practiceQuestion = asQuestion ? practiceQuestion : nil
        }
    }

    /// What the session shows: a live run of the scenario, or a recording.
    package enum Source: Sendable {
        case live
        /// `opscope replay`: the recording's events, played back.
        case recording([LifecycleEvent])

        var isRecording: Bool {
            if case .recording = self { return true }
            return false
        }
    }

    /// The scenario shown; a save of a watched file replaces it (`reload`).
    package internal(set) var scenario: Scenario
    package internal(set) var settings: Settings
    /// How it opened: what `r` goes back to.
    var opening: Settings
    /// `q` was pressed once in a lesson: a second `q` leaves, any other
    /// key stays (and does what it does).
    package internal(set) var leaveAsked = false
    let source: Source
    /// The file the scenario came from, for the header of a saved recording.
    var file: RecordingFile
    /// The run before this one (`r`, a reload), to compare with (`d`); nil
    /// before the first, and for a question or a replay.
    var comparison: RunComparison?
    /// The last save of a watched file had errors: what the problems
    /// overlay shows, until a save reads without them.
    var problems: FileProblems?
    /// A replay's clock over its recording, which is all in the history
    /// from the first frame: the screen shows the history at its position.
    var replay: ReplayClock?
    /// The run was handed to Foundation: false while a run opened paused
    /// waits for Space (a replay is there from its first frame).
    package internal(set) var started = false
    /// The live board, and every notification of the run with board
    /// checkpoints: what the history keys show.
    var liveBoard: LiveBoard
    package var board: BoardState { liveBoard.board }
    package var history: BoardHistory { liveBoard.history }
    package internal(set) var state = InterfaceState()
    /// The log pane's lines.
    var log: SessionLog
    /// The verdicts on the expectations, as the events pass.
    var judge: ExpectationJudge
    /// The board at the history cursor last shown, with the cursor: a key
    /// is handled on the moment the last frame showed, and a step seeks
    /// only the moment it goes to. What a history holds never changes (it
    /// only grows); a new one (a restart) forgets it.
    var seekMemo: (cursor: Int, board: BoardState)?
    /// What the frames of this run derive once (its timeline order, an
    /// unchanged thread canvas).
    var memo = ScreenMemo()
    /// The run as lanes over time, for the timeline and the thread view.
    var lanes: TimelineLanes
    /// Each caption reached, after how many notifications, for the history.
    var captionsReached: [(count: Int, caption: ShownCaption)] = []
    package internal(set) var results: [ExpectationResult]?
    /// The caption shown, and those reached while the run was already
    /// paused at it (main-queue work goes on under a pause, several
    /// captions may share a moment): in lesson mode each gets its Space.
    package internal(set) var caption: ShownCaption?
    var captionsWaiting: [ShownCaption] = []
    package internal(set) var pausedAtCaption = false
    /// A key's action changed the run (the engine took it): the captions
    /// from here on were written for the run without it.
    var changedByUser = false
    /// The open overlay paused the run: closing it resumes.
    var pausedForOverlay = false
    /// The status line says how far a large run's start is.
    var showsBuilding = false
    /// The operation a caption just shown names, to scroll into view.
    var revealPending: OperationID?
    /// The main-queue operation holding the main thread now, since when
    /// (real seconds), and the longest such hold of the run.
    var mainThreadBusy: (op: OperationID, since: Double)?
    package internal(set) var mainThreadBlocked: MainThreadBlock?
    /// The question, when the scenario opened as one (predict mode).
    package internal(set) var prediction: Prediction?
    /// What the events asked of the shell (a first answer to keep), for
    /// it to take after a batch (`owedEffects()`).
    var effectsOwed: [SessionEffect] = []
    /// The status line's word on the last grade (the score), which the
    /// word on keeping the answer follows.
    var gradeLine: String?

    package init(
        scenario: Scenario, settings: Settings, file: RecordingFile, source: Source = .live, notice: String? = nil,
        at wall: Double
    ) {
        self.scenario = scenario
        self.settings = settings
        opening = settings
        self.file = file
        self.source = source
        liveBoard = LiveBoard(scenario: scenario)
        lanes = TimelineLanes(scenario: scenario)
        log = SessionLog(scenario: scenario)
        judge = ExpectationJudge(scenario: scenario)
        prediction = settings.asQuestion && !source.isRecording ? Prediction(scenario: scenario) : nil
        if let notice { state.show(notice, kind: .refusal, now: wall, lasting: 30) }
    }

    var isReplay: Bool { source.isRecording }

    /// Opens the run: a live one is made, and started unless it opens
    /// paused (a run opened paused adds nothing to its queues until Space:
    /// paused scenario time holds the simulated work but not the threads it
    /// blocks, and the thread pool would grow behind the learner's back); a
    /// recording is loaded whole, so that every history key, the timeline
    /// and `g` reach all of it before anything is played.
    package mutating func open(at wall: Double) -> [SessionEffect] {
        let paused = settings.paused
        if case .recording(let events) = source {
            take(events, live: false, SessionMoment(wall: wall))
            var replay = ReplayClock(events: events, speed: settings.speed, pausesAtCaptions: settings.lesson)
            started = true
            state.historyCursor = events.isEmpty ? nil : 0
            if !paused { replay.play(from: 0, at: wall) }
            self.replay = replay
            return []
        }
        state.reconcile(with: board)
        started = !paused
        return [.newRun(speed: settings.speed, paused: paused, lesson: settings.lesson)] + (started ? [.startRun] : [])
    }

    /// The scenario time the screen shows: the run's now; the moment it
    /// ended or stalled once it did (the engine holds a waiting run's clock
    /// too); a replay's clock.
    func clock(_ moment: SessionMoment) -> Double {
        if let replay { return replay.isPlaying ? replay.now(at: moment.wall) : board.lastEventTime }
        if board.outcome != nil || board.stall != nil { return board.lastEventTime }
        return started ? moment.runNow : 0
    }

    func isPaused(_ moment: SessionMoment) -> Bool {
        if let replay { return !replay.isPlaying }
        return moment.runPaused
    }

    /// Something on the screen moves on its own: a live, unpaused run that
    /// has not ended nor stalled, or a replay playing.
    package func isMoving(_ moment: SessionMoment) -> Bool {
        if let replay { return replay.isPlaying }
        return started && !moment.runPaused && board.outcome == nil && board.stall == nil
    }

    // MARK: - Events

    /// A replay's clock moves the position shown. Returns whether anything
    /// on the screen changed.
    package mutating func tick(at wall: Double) -> Bool {
        guard var replay, replay.isPlaying else { return false }
        let before = state.historyCursor
        let position = replay.advance(at: wall)
        self.replay = replay
        showReplayPosition(position)
        return state.historyCursor != before || replay.isPlaying
    }

    /// A replay's position on the screen: the history there, or, at the
    /// recording's last event, its end.
    mutating func showReplayPosition(_ position: Int) {
        state.historyCursor = position >= history.count ? nil : position
        state.logScroll = 0
        pausedAtCaption = replay?.stoppedAtCaption ?? false
    }

    /// What each batch of the run's events feeds, in order. (Made at each
    /// batch: a fan-out of closures is no `Sendable` static, and making it
    /// is four small allocations.)
    private static var readers: EventFanOut<SessionModel> {
        EventFanOut().reading(\.liveBoard).reading(\.lanes).reading(\.log).reading(\.judge)
    }

    /// Takes a batch of the live run's events into the board, the history,
    /// the lanes, the log and the verdicts. Returns whether there were any.
    @discardableResult
    package mutating func take(_ batch: [LifecycleEvent], _ moment: SessionMoment) -> Bool {
        take(batch, live: true, moment)
    }

    /// `live`: events as they happen (a key's action says what it did); a
    /// recording loaded whole says nothing of its own.
    @discardableResult
    mutating func take(_ batch: [LifecycleEvent], live: Bool, _ moment: SessionMoment) -> Bool {
        guard !batch.isEmpty else { return false }
        let before = history.count
        Self.readers.read(batch, into: &self)
        prediction?.take(batch)
        // What the session itself does of a user's action and a caption;
        // a caption is kept with the count of events up to it.
        for (index, event) in zip((before + 1)..., batch) {
            switch event.kind {
            case .action(let action, .user, let ignored):
                if live { state.show(action, ignored: ignored, seq: event.seq, now: moment.wall) }
                if ignored == nil { changedByUser = true }
            case .action(.start(let op), _, let ignored):
                // A start by hand says what it did, or why it was not made;
                // not over a message the user's own doing left showing (a
                // restart's): the log line says it too.
                if live && state.visibleMessage(now: moment.wall) == nil {
                    state.show(.start(op), ignored: ignored, seq: event.seq, now: moment.wall)
                }
            case .caption(let caption, let paused):
                reachCaption(caption, after: index, at: event.time, paused: paused, live: live, moment)
            default:
                break
            }
        }
        judgeIfOver()
        gradeIfOver(moment)
        state.reconcile(with: board)
        return true
    }

    /// A caption the run reached. In lesson mode a caption reached while
    /// the run already waits at one waits for a Space of its own.
    private mutating func reachCaption(
        _ index: Int, after count: Int, at time: Double, paused: Bool, live: Bool, _ moment: SessionMoment
    ) {
        let reached = ShownCaption(text: scenario.captions[index].text, time: time, scripted: changedByUser)
        captionsReached.append((count, reached))
        if case .when(let op, _) = scenario.captions[index].trigger { revealPending = op }
        if !live {
            caption = reached
        } else if settings.lesson && pausedAtCaption && isPaused(moment) {
            captionsWaiting.append(reached)
        } else {
            caption = reached
            pausedAtCaption = paused || (settings.lesson && isPaused(moment))
        }
    }

    /// The verdicts on the expectations: once the run ended, or stuck for
    /// good (judged as a stalled end would be); nothing while it runs or
    /// waits for someone to resume a queue (a verdict then would not be
    /// the run's).
    private mutating func judgeIfOver() {
        if board.outcome != nil {
            if results == nil { results = judge.results() }
        } else if let stuck = board.stall, stuck.suspendedQueues(in: scenario).isEmpty {
            results = judge.results(outcome: .stalled(stuck))
        } else {
            results = nil
        }
    }

    /// A main-queue operation's work begins or ends on the main thread at
    /// `wall`: the longest hold of a quarter second or more is kept (less
    /// froze nothing a person at the keys notices).
    package mutating func mainThread(_ work: MainThreadWork, at wall: Double) {
        switch work {
        case .began(let op):
            mainThreadBusy = (op, wall)
        case .ended(let op):
            if let busy = mainThreadBusy, busy.op == op {
                let seconds = wall - busy.since
                if seconds >= 0.25, seconds > (mainThreadBlocked?.seconds ?? 0) {
                    mainThreadBlocked = MainThreadBlock(operation: op, seconds: seconds)
                }
            }
            mainThreadBusy = nil
        }
    }

    /// A question's run is over (it ended, or nothing can progress any
    /// more, since nobody acts on a question's run): the grade.
    private mutating func gradeIfOver(_ moment: SessionMoment) {
        guard prediction?.isRunning == true, board.outcome != nil || board.stall != nil,
            let grade = prediction?.grade(speed: settings.speed)
        else { return }
        // Only the first answer counts: a second try has seen the run.
        if prediction?.attempt == 1, let question = settings.practiceQuestion {
            effectsOwed.append(.keepAnswer(question: question, right: grade.isCorrect))
        }
        gradeLine = "graded: \(grade.scoreLine)" + (grade.isCorrect ? ", all right!" : "")
        let why = grade.isCorrect ? "" : " (the Question pane says why)"
        state.show((gradeLine ?? "") + why, kind: grade.isCorrect ? .info : .refusal, now: moment.wall, lasting: 10)
    }

    /// What the events asked of the shell since it last asked.
    package mutating func owedEffects() -> [SessionEffect] {
        defer { effectsOwed = [] }
        return effectsOwed
    }

    /// The shell kept (or could not keep) a first answer: `said` tells
    /// when the question comes back, or why it was not kept.
    package mutating func kept(_ said: String, at wall: Double) {
        // Short enough for 80 columns: the score, then the keeping.
        state.show((gradeLine.map { $0 + "; " } ?? "") + said, now: wall, lasting: 15)
    }
}
