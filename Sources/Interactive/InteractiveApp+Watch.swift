import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// `--watch`: each save of the scenario's file, read on the watch's
/// thread, shown here.
extension InteractiveApp {
    /// Watches the scenario's file: each save is read and checked on the
    /// watch's thread, and what came of it arrives here on the main queue.
    func startWatching(_ opening: ScenarioOpening) {
        // The new run's board and history are made on the read's thread.
        watch = ScenarioWatch.start(
            opening.file.path, scenario: opening.scenario, prepare: { SessionModel.RunBasis(scenario: $0) },
            deliver: { arrival in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { InteractiveApp.current?.reloadArrived(arrival) }
                }
            })
        if watch == nil {
            scenario?.cannotWatch()
            redrawNow()
        }
    }

    /// A save of the watched file: a new run of it (settings as on the
    /// command line, over the file's own `speed`), drawn at once; or its
    /// diagnostics over the run shown; or, when there is nothing to read
    /// (removed, a folder or a link loop in its place), a line that says
    /// so over the run shown, which stays. One a newer save made stale
    /// while it waited on the main queue is skipped.
    func reloadArrived(_ arrival: ScenarioWatch.Arrival) {
        guard !end.hasEnded, let view = scenario, !arrival.isSuperseded else { return }
        switch arrival.reload {
        case .scenario(let new, let file, let changes):
            let settings = SessionModel.Settings(
                speed: options.speed ?? new.speed ?? 1, paused: options.startsPaused, lesson: options.lesson)
            view.reload(
                new, file: RecordingFile(path: file.path, source: String(decoding: file.bytes, as: UTF8.self)),
                settings: settings, changes: changes.summary, basis: arrival.prepared as? SessionModel.RunBasis)
            redrawNow()
            updateFrameTimer()
        case .problems(let result, let file):
            view.showProblems(result, file: file)
            scheduleRedraw()
        case .unreadable(let reason):
            view.cannotReload(reason.text((view.model.file.path as NSString).lastPathComponent))
            scheduleRedraw()
        }
    }
}
