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
@MainActor
package final class ScenarioSession {
    package private(set) var model: SessionModel
    /// The live run on the real engine (nil for a replay).
    private var run: ScenarioRun?
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

    /// Ends the run and releases its threads.
    package func stop() {
        run?.stop()
    }

    /// Takes what happened since last time: the run's events, a replay's
    /// clock. Returns whether anything on the screen changed.
    @discardableResult
    package func drain() -> Bool {
        guard let run else { return model.tick(at: wallClock()) }
        let changed = model.take(run.takeEvents(), moment)
        carryOut(model.owedEffects())
        return changed
    }

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
    package func reload(_ new: Scenario, file: RecordingFile, settings: SessionModel.Settings, changes: String) {
        carryOut(model.reload(new, file: file, settings: settings, changes: changes, at: wallClock()))
    }

    package func showProblems(_ result: ParseResult, file: SourceFile) {
        model.showProblems(result, file: file, at: wallClock())
    }

    package func cannotReload(_ reason: String) {
        model.cannotReload(reason, at: wallClock())
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
        guard model.prediction != nil, let run else { return nil }
        return BlockedQuestion(model: model, run: run, keeper: keepAnswer ?? { _, _ in "your answer was not kept" })
    }

    /// Starts `run`; a start of more than a moment keeps the screen up to
    /// date through `onBuilding`, spending at most a fifth of its time on
    /// frames (one of a board of a million cards takes a second). The
    /// message goes once it is done; the caller draws the next frame.
    private func start(_ run: ScenarioRun) {
        var nextFrame = 0.0
        run.start(reportingEvery: 0.1) { progress in
            let now = wallClock()
            if progress.isComplete {
                model.building(nil, at: now)
                return
            }
            guard now >= nextFrame else { return }
            model.building(progress.text, at: now)
            onBuilding?()
            let drawn = wallClock()
            nextFrame = drawn + max(0.1, 4 * (drawn - now))
        }
    }

    /// Does what the session asked, in order. True when it asked to quit.
    @discardableResult
    private func carryOut(_ effects: [SessionEffect]) -> Bool {
        for effect in effects {
            switch effect {
            case .newRun(let speed, let paused, let lesson):
                run?.stop()
                let options = RunOptions(
                    speed: speed, startsPaused: paused, stallPolicy: .waitsForUser, pausesAtCaptions: lesson,
                    onMainThreadWork: mainThreadWork, aroundMainThreadWait: aroundMainThreadWait)
                run = ScenarioRun(scenario: model.scenario, options: options, onEvents: wake)
            case .startRun:
                run?.resume()
                if let run { start(run) }
            case .pauseRun:
                run?.pause()
            case .resumeRun:
                run?.resume()
            case .perform(let action, let refusal):
                if run?.perform(action, origin: .user) == true {
                    // The action and what the engine did with it are in the
                    // stream by now: the next key, however soon it comes (a
                    // burst), acts on the state this one left.
                    drain()
                } else {
                    model.refused(refusal, at: wallClock())
                }
            case .setSpeed(let speed):
                run?.setSpeed(speed)
            case .setLesson(let lesson):
                run?.pausesAtCaptions = lesson
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
