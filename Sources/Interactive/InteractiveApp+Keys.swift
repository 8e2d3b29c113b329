import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// Keys: to the picker or to the scenario shown, and a picker entry opened.
extension InteractiveApp {
    func handle(_ key: Key) {
        if key == .resize {
            resized()
            return
        }
        switch mode {
        case .none:
            return
        case .picker(var model):
            let outcome = ScenarioPicker.handle(
                key, state: &model.state, list: model.list, size: session.size, glyphs: glyphs)
            mode = .picker(model)
            switch outcome {
            case .none: return
            case .redraw, .showDiagnostics: scheduleRedraw()
            case .quit: quit()
            case .open(let index): openFromPicker(index, model)
            }
        case .scenario(let shown, let picker):
            switch shown.handle(key, frame: frameInput(for: shown)) {
            case .continue:
                scheduleRedraw()
            case .quit:
                shown.stop()
                if var picker {
                    // A question answered there shows its mark now.
                    if shown.model.prediction != nil { picker.refreshPractice() }
                    mode = .picker(picker)
                    stopFrameTimer()
                    redrawNow()
                } else {
                    quit()
                }
            }
            updateFrameTimer()
        }
    }

    /// Reads the file again (it may have changed since the picker listed
    /// it): one that runs opens; one that cannot shows why in the pane.
    func openFromPicker(_ index: Int, _ picker: PickerModel) {
        var model = picker
        guard model.paths.indices.contains(index) else { return }
        if let kata = model.katas[index] {
            checkKata(kata, entry: index, model)
            return
        }
        let (entry, opening) = PickerLauncher.read(model.paths[index])
        guard let opening else {
            model.list[entry: index] = entry
            model.state.pane = PickerPane(entry: index)
            mode = .picker(model)
            scheduleRedraw()
            return
        }
        let asQuestion = model.questions.contains(index)
        open(
            opening, from: model, asQuestion: asQuestion,
            practiceQuestion: asQuestion ? (model.paths[index] as NSString).lastPathComponent : nil)
    }

    /// Opens a scenario (or a recording of it). From the picker it opens
    /// the way a lesson is read: paused at t=0 with the notes showing, in
}
