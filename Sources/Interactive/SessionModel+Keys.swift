import Board
import CommandSupport
import Foundation
import Grading
import RunEvents
import RunFormats
import ScenarioKit
import Screen
import TextKit

extension SessionModel {
    /// A key, on the moment the screen shows: the interface's outcome, and
    /// what it asks of the run, the files and the process. `date` names a
    /// saved recording.
    package mutating func handle(_ key: Key, frame: FrameInput, _ moment: SessionMoment, date: Date)
        -> [SessionEffect]
    {
        let wall = moment.wall
        if leaveAsked {
            leaveAsked = false
            if key == .character("q") { return [.quit] }
            state.clearMessages()
        }
        if let effects = predictionKey(key, frame: frame, moment) { return effects }
        let cursorBefore = state.historyCursor
        let overlayBefore = state.overlay
        let shown = shownBoard()
        var effects: [SessionEffect] = []
        switch InterfaceController.handle(
            key, state: &state, board: shown, live: replay == nil ? board : nil, frame: frame)
        {
        case .none, .redraw:
            break
        case .perform where prediction?.isRunning == true:
            state.show(
                "this run answers your question: the keys that change it work once it is graded",
                kind: .refusal, now: wall)
        case .perform(let action):
            effects = [.perform(action, refusal: InterfaceController.endedRefusal(frame))]
        case .togglePause:
            effects = togglePause(moment)
        case .toggleLesson:
            settings.lesson.toggle()
            replay?.pausesAtCaptions = settings.lesson
            if replay == nil { effects = [.setLesson(settings.lesson)] }
            state.show(
                settings.lesson
                    ? "lesson mode: the run pauses at each caption (m turns it off)"
                    : "lesson mode off: captions show without pausing", now: wall)
        case .setSpeed(let newSpeed):
            settings.speed = newSpeed
            replay?.setSpeed(newSpeed, at: wall)
            if replay == nil { effects = [.setSpeed(newSpeed)] }
        case .restart:
            return restart(at: wall)
        case .saveRecording:
            effects = save(at: wall, date: date)
        case .quit:
            // A lesson is read slowly: one stray q must not end it. Ctrl-C
            // still leaves at once.
            if opening.lesson, key == .character("q") {
                leaveAsked = true
                state.show("q again leaves the lesson; any other key stays", now: wall, lasting: 10)
                return []
            }
            return [.quit]
        }
        // A replay moved by hand (a step, a jump, a click on the timeline)
        // stands where it was moved to.
        if var replay, state.historyCursor != cursorBefore, replay.isPlaying || cursorBefore != nil {
            replay.move(to: state.historyCursor ?? history.count, at: wall)
            self.replay = replay
            pausedAtCaption = false
        }
        return effects + holdWhileOverlaid(openedFrom: overlayBefore, moment)
    }

    /// A key for the question, if it is one: while the answer is typed,
    /// every key but the arrows, a click and the overlay's goes to the
    /// answer; once graded, Enter goes to the next moment that decided a
    /// wrong row. nil: the interface handles it.
    private mutating func predictionKey(_ key: Key, frame: FrameInput, _ moment: SessionMoment) -> [SessionEffect]? {
        guard var prediction, state.overlay == .none else { return nil }
        defer { self.prediction = prediction }
        if case .graded = prediction.phase {
            guard key == .enter else { return nil }
            guard let next = prediction.nextDecidingMoment(),
                let index = history.events.firstIndex(where: { $0.seq == next.seq })
            else {
                state.show("no wrong row has a moment to show", kind: .refusal, now: moment.wall)
                return []
            }
            state.historyCursor = index + 1
            state.logScroll = 0
            let event = history.events[index]
            if let op = Self.operation(of: event) {
                state.selectedOperation = op
                state.inspectsQueue = false
                revealPending = op
            }
            let row = next.row
            let what = row.label.isEmpty ? (row.actual == "—" ? row.yours : row.actual) : row.label
            let place = next.count > 1 ? " (\(next.number) of \(next.count))" : ""
            state.show(
                "\(Spelling.seconds(event.time)): the moment that decided \(what)\(place) \u{2014} [ ] step, End goes "
                    + "back to the end, Enter the next", now: moment.wall, lasting: 15)
            return []
        }
        guard prediction.isAnswering else { return nil }
        switch prediction.edit(key, selected: state.selectedOperation) {
        case .edited:
            return []
        case .submitted:
            started = true
            state.show("your answer is in: the real run starts", now: moment.wall)
            return [.startRun]
        case .leave:
            return [.quit]
        case .showSwift:
            state.overlay = .swift
            state.overlayScroll = 0
            return []
        case .interface:
            return nil
        }
    }

    /// The operation an event is about, if one.
    static func operation(of event: LifecycleEvent) -> OperationID? {
        switch event.kind {
        case .operation(let op, _, _, _), .dispatched(let op), .completion(let op, _): op
        default: nil
        }
    }

    /// How far a large run's start is in handing its operations to
    /// Foundation (`building 1,000,000 operations… 40%`), on the status
    /// line while it lasts; nil once it is done, which clears it.
    package mutating func building(_ text: String?, at wall: Double) {
        if let text {
            state.show(text, now: wall, lasting: 60)
            showsBuilding = true
        } else if showsBuilding {
            state.clearMessages()
            showsBuilding = false
        }
    }

    /// The engine refused a key's action: the run ended meanwhile.
    package mutating func refused(_ refusal: String, at wall: Double) {
        state.show(refusal, kind: .refusal, now: wall)
    }

    /// The help and the Swift code cover the board: a run (or a replay)
    /// that was moving pauses while one is open, and goes on when it closes.
    private mutating func holdWhileOverlaid(openedFrom before: InterfaceState.Overlay, _ moment: SessionMoment)
        -> [SessionEffect]
    {
        let now = state.overlay
        // The diff follows the run as it goes: it does not pause it.
        if before == .none, now == .help || now == .swift, isMoving(moment) {
            pausedForOverlay = true
            if replay != nil {
                replay?.pause(at: moment.wall)
                return []
            }
            return [.pauseRun]
        }
        if now == .none, pausedForOverlay {
            pausedForOverlay = false
            if replay != nil {
                let position = state.historyCursor ?? history.count
                replay?.play(from: position, at: moment.wall)
            } else if board.outcome == nil {
                return [.resumeRun]
            }
        }
        return []
    }

    /// Space: starts a run opened paused, pauses or resumes it; at a caption
    /// a person has not gone past, the next caption of that moment first.
    private mutating func togglePause(_ moment: SessionMoment) -> [SessionEffect] {
        if var replay {
            defer { self.replay = replay }
            if replay.isPlaying {
                replay.pause(at: moment.wall)
            } else if pausedAtCaption, !captionsWaiting.isEmpty {
                caption = captionsWaiting.removeFirst()
            } else if state.historyCursor == nil {
                state.show(
                    "this is the end of the recording \u{2014} r plays it again", kind: .refusal, now: moment.wall)
            } else {
                pausedAtCaption = false
                replay.play(from: state.historyCursor ?? history.count, at: moment.wall)
            }
            return []
        }
        if !started {
            started = true
            return [.startRun]
        }
        if moment.runPaused || board.outcome != nil {
            if pausedAtCaption, !captionsWaiting.isEmpty {
                // The next caption of this moment, still paused.
                caption = captionsWaiting.removeFirst()
                return []
            }
            pausedAtCaption = false
            return board.outcome == nil ? [.resumeRun] : []
        }
        return [.pauseRun]
    }

    /// `r`: the scenario opened again the way it opened (a lesson paused at
    /// t=0 again, in lesson mode, at its speed): a replay from its start, a
    /// live scenario as a new run with new operations (an operation runs
    /// only once).
    private mutating func restart(at wall: Double) -> [SessionEffect] {
        state = state.restarted()
        settings = opening
        pausedForOverlay = false
        if var replay {
            replay.setSpeed(opening.speed, at: wall)
            replay.pausesAtCaptions = opening.lesson
            replay.move(to: 0, at: wall)
            if !opening.paused { replay.play(from: 0, at: wall) }
            self.replay = replay
            showReplayPosition(0)
            state.show(
                opening.paused ? "back at the recording's start: Space plays it" : "the recording plays again from t=0",
                now: wall)
            return []
        }
        if prediction == nil { keepForComparison("the run before r") }
        forgetRun()
        let effects = open(at: wall)
        if prediction != nil {
            prediction?.again()
            state.show("the question again, on a fresh run: edit your answer, Enter submits", now: wall)
            return effects
        }
        let how = opening.paused ? ", not started: Space starts it" : ""
        state.show("restarted: a new run, with new queues and operations, from t=0\(how)", now: wall)
        return effects
    }

    /// What a new run of a scenario starts from: its empty board and
    /// history, lanes, log and verdicts. Made off the main thread for a
    /// save (`ScenarioWatch`'s `prepare`): for a file of millions of
    /// operations it takes seconds.
    package struct RunBasis: Sendable {
        let liveBoard: LiveBoard
        let lanes: TimelineLanes
        let log: SessionLog
        let judge: ExpectationJudge

        package init(scenario: Scenario) {
            liveBoard = LiveBoard(scenario: scenario)
            lanes = TimelineLanes(scenario: scenario)
            log = SessionLog(scenario: scenario)
            judge = ExpectationJudge(scenario: scenario)
        }
    }

    /// Lets go of everything the run shown built (its board and history,
    /// lanes, log, verdicts, captions), for a new run of `scenario`, from
    /// `basis` when one was made for it.
    mutating func forgetRun(from basis: RunBasis? = nil) {
        let basis = basis ?? RunBasis(scenario: scenario)
        liveBoard = basis.liveBoard
        seekMemo = nil
        memo = ScreenMemo()
        lanes = basis.lanes
        captionsReached = []
        log = basis.log
        judge = basis.judge
        results = nil
        caption = nil
        captionsWaiting = []
        pausedAtCaption = false
        changedByUser = false
        mainThreadBusy = nil
        mainThreadBlocked = nil
    }

    /// A new run is about to replace the one shown: it becomes the run
    /// before, for `d`. A run that had not begun (no notification) leaves
    /// the one before it there.
    mutating func keepForComparison(_ label: String) {
        if history.count > 0 {
            comparison = RunComparison(
                before: RunComparison.Before(
                    scenario: scenario, events: history.events, file: file.path, label: label))
        } else if let kept = comparison {
            comparison = RunComparison(before: kept.before)
        }
    }

    /// `W`: the run shown, every notification so far, as a recording
    /// (`opscope trace --format jsonl`'s format, header first), named for
    /// its file and `date`.
    private mutating func save(at wall: Double, date: Date) -> [SessionEffect] {
        guard history.count > 0 else {
            state.show("nothing to save yet: the run has not begun", kind: .refusal, now: wall)
            return []
        }
        let header = JSONLineEncoder.Header(
            opscope: Version.opscope, language: Version.language, path: file.path, source: file.source,
            dispatchesObserved: file.dispatchesObserved)
        let bytes = JSONLineEncoder.recording(header, of: scenario, events: history.events)
        return [.save(name: RecordingFile.savedName(for: file.path, at: date), bytes: bytes)]
    }

    /// The shell wrote (or could not write) a recording `save` asked for.
    package mutating func saved(_ name: String, ok: Bool, at wall: Double) {
        if ok {
            // Short enough for 80 columns: the name is the file's, dated.
            state.show("saved as \(name): opscope replay plays it", now: wall)
        } else {
            state.show("cannot write \(name) in this folder: nothing saved", kind: .refusal, now: wall)
        }
    }
}
