import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// Frames: drawn when something changed, and on a timer only while
/// something on screen moves.
extension InteractiveApp {
    func frameInput(for view: ScenarioSession) -> FrameInput {
        view.frameInput(size: session.size, glyphs: glyphs, colors: session.colorsEnabled)
    }

    func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.redrawScheduled = false
                self?.redrawNow()
            }
        }
    }

    func redrawNow() {
        lastFrame = ProcessInfo.processInfo.systemUptime
        switch mode {
        case .scenario(let view, _):
            _ = session.flush(view.render(frame: frameInput(for: view)))
        case .picker(let model):
            _ = session.flush(model.render(size: session.size, glyphs: glyphs, colors: session.colorsEnabled))
        case .none:
            break
        }
    }

    /// Runs a frame timer only while something on screen moves: the clock
    /// of a live, unpaused run and its progress bars.
    func updateFrameTimer() {
        if let view = scenario, view.isMoving {
            guard frameTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(
                deadline: .now() + .milliseconds(50), repeating: .milliseconds(50), leeway: .milliseconds(10))
            timer.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.tick() }
            }
            timer.resume()
            frameTimer = timer
        } else {
            stopFrameTimer()
        }
    }

    func stopFrameTimer() {
        frameTimer?.cancel()
        frameTimer = nil
    }

    func tick() {
        guard let view = scenario else {
            stopFrameTimer()
            return
        }
        eventsArrived()
        if !view.hasBacklog { redrawNow() }
    }
}
