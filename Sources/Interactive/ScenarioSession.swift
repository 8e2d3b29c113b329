import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// The shell of one scenario in the interactive view: it holds the session
/// (`SessionModel`, a value that decides everything), the run on the real
/// engine, and the clocks, and carries out what the session asks.
///
/// Main-queue only. The run's engine threads never touch this object; they
/// post a wake-up, and `drain()` takes the events here.
///
/// A run is handed to Foundation on a thread of its own (a large file's
/// adds take seconds), so keys, saves and signals are served meanwhile:
/// `q` quits, `r` or a save replaces the run (whose adds end after their
/// chunk); only the keys that act on the run wait for it to be built
/// (they are refused until then). A run replaced or left is stopped in the
/// background (`ScenarioRun.stopInBackground`): nothing here waits for
/// Foundation.
@MainActor
package final class ScenarioSession {
    /// Makes a live run of a scenario with these options; its events
    /// wake the session.
    package typealias RunMaker =
        @MainActor (Scenario, RecordingFile, RunOptions, (@Sendable () -> Void)?) -> any BoardRun

    package private(set) var model: SessionModel
    /// The live run on the real engine (nil for a replay).
    private var run: (any BoardRun)?
    /// Makes each live run: on the engine in this process, or, for a
    /// scenario with the user's classes, in a child that loads them
    /// (`ChildRun`), however it was opened (the command line, the picker, a
    /// save of a watched file that adds a class).
    package var makeRun: RunMaker = { scenario, file, options, wake in
        guard scenario.customOperations.isEmpty else { return ChildRun.maker()(scenario, file, options, wake) }
        return ScenarioRun(scenario: scenario, options: options, onEvents: wake)
    }
    /// The run that ended early (`BoardRun.endedEarly`) and was said so.
    private var saidEndedEarly: ObjectIdentifier?
    /// The run whose operations are being handed to Foundation, if one
    /// is, and how far (nil until its first report).
    private var building: (run: any BoardRun, progress: BuildProgress?)?
    /// When the next frame may be drawn for the build's progress.
    private var nextBuildFrame = 0.0
    /// Events taken from the run and not yet given to the model, from
    /// `backlogStart` on (`drain()`).
    private var backlog: [LifecycleEvent] = []
    private var backlogStart = 0
    private var wake: (@Sendable () -> Void)?
    private var mainThreadWork: (@Sendable (MainThreadWork) -> Void)?
    /// Made around each wait of the main thread (`RunOptions.aroundMainThreadWait`).
    package var aroundMainThreadWait: (@Sendable (Action, () -> Void) -> Void)?
    /// Real monotonic seconds and the calendar date, injected for tests.
    private let wallClock: () -> Double
    private let date: () -> Date

    package init(
        _ model: SessionModel, wallClock: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
        date: @escaping () -> Date = Date.init
    ) {
        self.model = model
        self.wallClock = wallClock
        self.date = date
    }

    package var scenario: Scenario { model.scenario }

    /// The moment now: the real time, and the live run's own reading.
    private var moment: SessionMoment {
        SessionMoment(wall: wallClock(), runPaused: run?.isPaused ?? true, runNow: run?.now ?? 0)
    }

    /// Opens the session. `wake` is called from engine threads when events
    /// wait; `mainThreadWork` on the main thread as a main-queue
    /// operation's work begins and ends there.
    package func start(
        wake: @escaping @Sendable () -> Void, mainThreadWork: @escaping @Sendable (MainThreadWork) -> Void
    ) {
        self.wake = wake
        self.mainThreadWork = mainThreadWork
        carryOut(model.open(at: wallClock()))
    }

    /// Whether the run stalled, asked from any thread (the stand-in's,
    /// while a wait blocks the main thread).
    package func stallProbe() -> @Sendable () -> Bool {
        let run = self.run
        return { run?.isStalled ?? false }
    }

    /// Ends the run, in the background (its threads let go, its objects
    /// freed once Foundation is done with them); its events not taken yet
    /// go with it.
    package func stop() {
        run?.stopInBackground()
        building = nil
        backlog = []
        backlogStart = 0
    }

    /// Whether the run shown is still being handed to Foundation.
    package var isBuilding: Bool { building != nil }

    /// Most events given to the model at one turn of the main queue: a run
    /// that got ahead of the screen (a large file's adds, thousands of
    /// short operations) is taken a slice at a time, so that keys, saves
    /// and signals come between two slices, not after the whole backlog
    /// (`q` waited minutes behind the log lines of a 2.5-million-operation
    /// run).
    static let slice = 4_096

    /// Takes what happened since last time: the run's events, a slice at
    /// a time (`slice`; all of them with `all`), or a replay's clock.
    /// Returns whether anything on the screen changed; `hasBacklog` says
    /// whether events wait for the next turn.
    @discardableResult
    package func drain(all: Bool = false) -> Bool {
        guard let run else { return model.tick(at: wallClock()) }
        if backlogStart >= backlog.count {
            backlog = run.takeEvents()
            backlogStart = 0
        } else if all {
            backlog += run.takeEvents()
        }
        let end = all ? backlog.count : min(backlog.count, backlogStart + Self.slice)
        let batch = backlogStart == 0 && end == backlog.count ? backlog : Array(backlog[backlogStart..<end])
        backlogStart = end
        if backlogStart >= backlog.count {
            backlog = []
            backlogStart = 0
        }
        var changed = model.take(batch, moment)
        carryOut(model.owedEffects())
        if let why = run.endedEarly, saidEndedEarly != ObjectIdentifier(run), !hasBacklog {
            saidEndedEarly = ObjectIdentifier(run)
            model.runEndedEarly(why, at: wallClock())
            changed = true
        }
        return changed
    }

    /// Events taken from the run wait for the next `drain()`.
    package var hasBacklog: Bool { backlogStart < backlog.count }

    /// As a main-queue operation's work begins (the caller draws right
    /// after: the last frame before the main thread blocks) and ends.
    package func mainThread(_ work: MainThreadWork) {
        model.mainThread(work, at: wallClock())
    }

    package var isMoving: Bool { model.isMoving(moment) }

    package func frameInput(size: Size, glyphs: GlyphSet, colors: Bool) -> FrameInput {
        model.frameInput(size: size, glyphs: glyphs, colors: colors, moment)
    }

    package func render(frame: FrameInput) -> CellGrid {
        model.render(frame: frame)
    }

    package enum KeyResult {
        case `continue`
        case quit
    }

    package func handle(_ key: Key, frame: FrameInput) -> KeyResult {
        carryOut(model.handle(key, frame: frame, moment, date: date())) ? .quit : .continue
    }

    /// A save of the watched file: `reload` (what to run), or the file's
    /// problems, or why it could not be read.
    package func reload(
        _ new: Scenario, file: RecordingFile, settings: SessionModel.Settings, changes: String,
        basis: SessionModel.RunBasis? = nil
    ) {
        carryOut(model.reload(new, file: file, settings: settings, changes: changes, basis: basis, at: wallClock()))
    }

    package func showProblems(_ result: ParseResult, file: SourceFile) {
        model.showProblems(result, file: file, at: wallClock())
    }

    package func cannotReload(_ reason: String) {
        model.cannotReload(reason, at: wallClock())
    }

    package func cannotWatch() {
        model.cannotWatch(at: wallClock())
    }

    /// Called on the main thread while a large run's start hands its
    /// operations to Foundation: the main thread does nothing else
    /// meanwhile, so this is when to draw (the status line says how far
    /// it is).
    package var onBuilding: (() -> Void)?
    /// Keeps a question's first answer in the practice record and says
    /// when it comes back (`PracticeKeeper`); nil keeps nothing.
    package var keepAnswer: (@Sendable (_ question: String, _ right: Bool) -> String)?

    /// A question's run, for the stand-in to grade while a wait holds the
    /// main thread (`BlockedQuestion`); nil when this is no question.
    package func blockedQuestion() -> BlockedQuestion? {
        guard model.prediction != nil, let run = run as? ScenarioRun else { return nil }
        return BlockedQuestion(model: model, run: run, keeper: keepAnswer ?? { _, _ in "your answer was not kept" })
    }

    /// Starts `run` on a thread of its own (`opscope start`), which
    /// reports how far its adds are to the main queue every 0.1 s; a start
    /// of more than a moment keeps the status line up to date through
    /// `onBuilding`, spending at most a fifth of the main thread's time on
    /// frames (one of a board of a million cards takes a second). The
    /// message goes once it is done.
    private func start(_ run: any BoardRun) {
        building = (run, nil)
        nextBuildFrame = 0
        let starter = Thread { [weak self] in
            run.start(reportingEvery: 0.1) { progress in
                DispatchQueue.main.async { MainActor.assumeIsolated { self?.reached(progress, by: run) } }
            }
        }
        starter.name = "opscope start"
        starter.start()
        // A large graph is laid out meanwhile, so that G finds it made.
        let (memo, scenario) = (model.memo, model.scenario)
        if scenario.operations.count >= ScreenMemo.graphLaidOutAhead {
            let layout = Thread { memo.layOutGraph(of: scenario) }
            layout.name = "opscope graph"
            layout.qualityOfService = .utility
            layout.start()
        }
    }

    /// A report of `run`'s start, on the main queue; nothing once another
    /// run replaced it.
    private func reached(_ progress: BuildProgress, by run: any BoardRun) {
        guard let building, building.run === run else { return }
        let now = wallClock()
        if progress.isComplete {
            self.building = nil
            model.building(nil, at: now)
            onBuilding?()
            return
        }
        self.building?.progress = progress
        guard now >= nextBuildFrame else { return }
        model.building(progress.text, at: now)
        onBuilding?()
        let drawn = wallClock()
        nextBuildFrame = drawn + max(0.1, 4 * (drawn - now))
    }

    /// Does what the session asked, in order. True when it asked to quit.
    @discardableResult
    private func carryOut(_ effects: [SessionEffect]) -> Bool {
        for effect in effects {
            switch effect {
            case .newRun(let speed, let paused, let lesson):
                stop()
                // The session keeps the stream (its history): the run need not.
                let options = RunOptions(
                    speed: speed, startsPaused: paused, stallPolicy: .waitsForUser, pausesAtCaptions: lesson,
                    onMainThreadWork: mainThreadWork, aroundMainThreadWait: aroundMainThreadWait,
                    keepsHistory: false)
                run = makeRun(model.scenario, model.file, options, wake)
                model.file.dispatchesObserved = run?.observesDispatches ?? true
            case .startRun:
                run?.resume()
                if let run { start(run) }
            case .pauseRun:
                run?.pause()
            case .resumeRun:
                run?.resume()
            case .perform(_, _) where building != nil:
                // Its start holds the run's action lock until its last add.
                let how = building?.progress.map { " (\($0.percent)%)" } ?? ""
                model.refused(
                    "the run is still being built\(how): keys that act on it work once it runs", at: wallClock())
            case .perform(let action, let refusal):
                if run?.perform(action, origin: .user) == true {
                    // The action and what the engine did with it are in the
                    // stream by now: the next key, however soon it comes (a
                    // burst), acts on the state this one left.
                    drain(all: true)
                } else {
                    model.refused(refusal, at: wallClock())
                }
            case .setSpeed(let speed):
                run?.setSpeed(speed)
            case .setLesson(let lesson):
                run?.setPausesAtCaptions(lesson)
            case .save(let name, let bytes):
                let ok = FileManager.default.createFile(atPath: name, contents: Data(bytes))
                model.saved(name, ok: ok, at: wallClock())
            case .keepAnswer(let question, let right):
                if let said = keepAnswer?(question, right) { model.kept(said, at: wallClock()) }
            case .quit:
                return true
            }
        }
        return false
    }
}
