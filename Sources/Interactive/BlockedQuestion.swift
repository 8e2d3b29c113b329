import Foundation
import LifecycleEngine
import Screen

/// A question (predict mode) whose run goes on while a wait of the
/// scenario blocks the main thread, which reads the keys and draws. When
/// the run stalls in that wait (a deadlock: nothing can end it, so the
/// main thread never comes back), the grade is made here all the same,
/// from what the engine reported by the stall, as `opscope trace` reports
/// it: the stand-in's thread takes the run's events into a copy of the
/// session, keeps the first answer in the practice record, and returns
/// the frame with the grade, to be drawn without ncurses
/// (`GridEscapes`).
///
/// Only the stand-in's thread touches it once it is made (on the main
/// thread, just before the wait): the copy of the session is its own, and
/// the main thread, blocked in Foundation's wait, runs nothing meanwhile.
package final class BlockedQuestion: @unchecked Sendable {
    private var model: SessionModel
    private let run: ScenarioRun
    private let keeper: @Sendable (_ question: String, _ right: Bool) -> String
    private var graded = false

    init(
        model: SessionModel, run: ScenarioRun,
        keeper: @escaping @Sendable (_ question: String, _ right: Bool) -> String
    ) {
        self.model = model
        self.run = run
        self.keeper = keeper
    }

    /// Whether the grade is made (and its frame was returned once).
    package var isGraded: Bool { graded }

    /// Whether the frame's message line holds a message now (the grade's
    /// score, a refusal), which the blocked line must not cover.
    package var showsMessage: Bool {
        model.state.visibleMessage(now: ProcessInfo.processInfo.systemUptime) != nil
    }

    /// Once, when the run is over while the main thread is still held:
    /// the frame with the grade. Nil before and after.
    package func gradedFrame(_ look: FrameLook) -> CellGrid? {
        guard !graded else { return nil }
        let moment = self.moment
        model.take(run.takeEvents(), moment)
        for case .keepAnswer(let question, let right) in model.owedEffects() {
            model.kept(keeper(question, right), at: moment.wall)
        }
        guard case .graded? = model.prediction?.phase else { return nil }
        graded = true
        return frame(look, moment)
    }

    /// What a key typed after the grade comes to.
    package enum Outcome {
        /// Draw this frame.
        case redraw(CellGrid)
        /// Leave (`q`, Esc).
        case quit
    }

    /// A key after the grade: the views' keys as ever (the history, Enter
    /// to the deciding moments, the panes, `W`); a key that would act on
    /// the run is refused: the run cannot go on without the main thread.
    package func handle(_ key: Key, _ look: FrameLook) -> Outcome {
        let moment = self.moment
        let shown = model.frameInput(size: look.size, glyphs: look.glyphs, colors: look.colors, moment)
        for effect in model.handle(key, frame: shown, moment, date: Date()) {
            switch effect {
            case .quit:
                return .quit
            case .save(let name, let bytes):
                let ok = FileManager.default.createFile(atPath: name, contents: Data(bytes))
                model.saved(name, ok: ok, at: moment.wall)
            case .perform, .newRun, .startRun:
                model.refused(
                    "the main thread is blocked for good in this wait: the run cannot go on (r asks again in a new "
                        + "opscope)", at: moment.wall)
            case .pauseRun, .resumeRun, .setSpeed, .setLesson, .keepAnswer:
                break
            }
        }
        return .redraw(frame(look, moment))
    }

    private var moment: SessionMoment {
        SessionMoment(wall: ProcessInfo.processInfo.systemUptime, runPaused: run.isPaused, runNow: run.now)
    }

    private func frame(_ look: FrameLook, _ moment: SessionMoment) -> CellGrid {
        model.render(frame: model.frameInput(size: look.size, glyphs: look.glyphs, colors: look.colors, moment))
    }
}

/// What a frame drawn off the main thread needs of the terminal.
package struct FrameLook: Sendable {
    package var size: Size
    package var glyphs: GlyphSet
    package var colors: Bool
}
