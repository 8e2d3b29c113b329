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
        let path = opening.file.path
        // The new run's board and history are made on the read's thread;
        // so is the library of the user's classes (a compile), so that one
        // that does not build leaves the run shown as it is.
        watch = ScenarioWatch.start(
            path, scenario: opening.scenario, ownCode: .accepted,
            prepare: { scenario in
                var unready: String?
                if !scenario.customOperations.isEmpty,
                    case .failure(let why) = OwnClassBuild.library(for: scenario, scenarioPath: path, stop: nil)
                {
                    unready = "your classes cannot run: \(why.summary)"
                }
                return Prepared(basis: SessionModel.RunBasis(scenario: scenario), unready: unready)
            },
            deliver: { arrival in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { InteractiveApp.current?.reloadArrived(arrival) }
                }
            })
        if watch == nil {
            scenario?.cannotWatch()
            redrawNow()
        }
        watchCode(of: opening.scenario, at: path)
    }

    /// What a save's read made ready on its thread.
    struct Prepared: Sendable {
        var basis: SessionModel.RunBasis
        /// Why the user's classes cannot run (they do not build).
        var unready: String?
    }

    /// The user's Swift files `scenario` names are watched with it.
    func watchCode(of scenario: Scenario, at path: String) {
        watch?.watchCode(scenario.code.map { OwnCodeCheck.resolve($0, scenarioPath: path) })
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
            let prepared = arrival.prepared as? Prepared
            watchCode(of: new, at: file.path)
            if let unready = prepared?.unready {
                view.cannotReload(unready)
                scheduleRedraw()
                return
            }
            let settings = SessionModel.Settings(
                speed: options.speed ?? new.speed ?? 1, paused: options.startsPaused, lesson: options.lesson)
            view.reload(
                new, file: RecordingFile(path: file.path, source: String(decoding: file.bytes, as: UTF8.self)),
                settings: settings,
                // A save of the user's code leaves the scenario as it was.
                changes: changes.statements == 0 && !new.code.isEmpty
                    ? "the scenario is as it was; your classes run as they are now" : changes.summary,
                basis: prepared?.basis)
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
