import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// A scenario opened on the board, and its run's events and main-thread
/// work as they arrive.
extension InteractiveApp {
    /// lesson mode; a replay opens paused at t=0 too.
    func open(
        _ opening: ScenarioOpening, from picker: PickerModel?, asQuestion: Bool = false,
        practiceQuestion: String? = nil
    ) {
        let scenario = opening.scenario
        let fromPicker = picker != nil
        let settings = SessionModel.Settings(
            speed: options.speed ?? scenario.speed ?? 1,
            paused: fromPicker || opening.source.isRecording || options.startsPaused,
            lesson: fromPicker || options.lesson, asQuestion: asQuestion || options.asQuestion,
            practiceQuestion: practiceQuestion ?? options.practiceQuestion)
        let view = ScenarioSession(
            SessionModel(
                scenario: scenario, settings: settings, file: opening.file, source: opening.source,
                notice: opening.notice, at: ProcessInfo.processInfo.systemUptime))
        mode = .scenario(view, picker: picker)
        view.onBuilding = { [weak self] in self?.redrawNow() }
        let standIn = self.standIn
        let carryOn = options.carryOnAfterLostMainThread
        view.aroundMainThreadWait = { [weak self] action, wait in
            // On the main thread.
            let (line, question, look): (BlockedMainThreadLine?, BlockedQuestion?, FrameLook?) =
                MainActor.assumeIsolated {
                    let line = self?.frameBeforeWait(action)
                    return (line, self?.scenario?.blockedQuestion(), self?.frameLook)
                }
            if let line {
                standIn.setDuty {
                    if let question, let look {
                        Self.blockedTurn(line, question, look, carryOn: carryOn)
                    } else {
                        line.tick()
                    }
                }
            }
            standIn.park(wait)
            standIn.setDuty(nil)
            MainActor.assumeIsolated { self?.mainThreadIsBack() }
        }
        view.keepAnswer = { @Sendable file, right in
            PracticeKeeper()?.keep(file, scenario: scenario, right: right)
                ?? "your answer was not kept: no data folder (set HOME or XDG_DATA_HOME)"
        }
        view.start(
            wake: { [weak self] in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { self?.eventsArrived() }
                }
            },
            mainThreadWork: { [weak self] work in
                // On the main thread, inside the operation's work.
                MainActor.assumeIsolated { self?.mainThreadWork(work) }
            })
        redrawNow()
        updateFrameTimer()
    }

    /// A main-queue operation begins (or ends) its work on this thread:
    /// draw now what the run looks like, since nothing will be drawn until
    /// the work returns.
    func mainThreadWork(_ work: MainThreadWork) {
        guard let view = scenario else { return }
        view.mainThread(work)
        if case .began = work {
            view.drain(all: true)
            redrawNow()
        }
    }

    /// The run's events: a slice of them now, the rest at the next turns
    /// of the main queue (`ScenarioSession.drain`), so that a key or a
    /// save waiting there comes first. While a backlog lasts, a frame is
    /// drawn at most every `backlogFrameInterval`. `all` takes every event
    /// there is (the last frame before the main thread blocks).
    func eventsArrived(all: Bool = false) {
        guard let view = scenario else { return }
        if view.drain(all: all) {
            if !view.hasBacklog || ProcessInfo.processInfo.systemUptime - lastFrame >= Self.backlogFrameInterval {
                scheduleRedraw()
            }
        }
        if view.hasBacklog, !drainScheduled {
            drainScheduled = true
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    self?.drainScheduled = false
                    self?.eventsArrived()
                }
            }
        }
        updateFrameTimer()
    }

    /// Seconds between two frames while the events taken are behind.
    static let backlogFrameInterval = 0.25
}
