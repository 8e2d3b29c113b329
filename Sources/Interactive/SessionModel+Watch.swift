import Foundation
import ScenarioKit
import Screen

extension SessionModel {
    /// A save of the watched file read without errors: the run shown stops
    /// and becomes the run before (for `d`), and a run of `new` starts as
    /// `r` would start it, with `settings` (the command line's, over the
    /// file's own `speed`). The selection, the queue, the panes and the
    /// board area are carried over by name where they still exist
    /// (`InterfaceState.carried(from:to:)`); the status line says what the
    /// save changed (`changes`, `ScenarioChanges.summary`).
    package mutating func reload(
        _ new: Scenario, file: RecordingFile, settings: Settings, changes: String, basis: RunBasis? = nil,
        at wall: Double
    ) -> [SessionEffect] {
        guard !isReplay, prediction == nil else { return [] }
        keepForComparison("the run before this save")
        let carried = state.carried(from: scenario, to: new)
        scenario = new
        self.file = file
        self.settings = settings
        opening = settings
        problems = nil
        pausedForOverlay = false
        forgetRun(from: basis)
        state = carried
        let effects = open(at: wall)
        let how = settings.paused ? ", not started: Space starts it" : ""
        state.show("reloaded \(Self.name(file.path)): \(changes)\(how)", now: wall, lasting: 10)
        return effects
    }

    /// A save of the watched file that has errors: its diagnostics show
    /// over the run, which goes on (the file's last good version); the
    /// next save that reads without errors reloads.
    package mutating func showProblems(_ result: ParseResult, file: SourceFile, at wall: Double) {
        guard !isReplay, prediction == nil else { return }
        let shown = FileProblems(result, file: file)
        problems = shown
        state.overlay = .problems
        state.overlayScroll = 0
        let count = result.errorCount == 1 ? "an error" : "\(result.errorCount) errors"
        state.show(
            "\(shown.name) has \(count): the run shown is from before it; Esc closes", kind: .refusal, now: wall,
            lasting: 30)
    }

    /// The watched file had nothing to read at a save (removed, a folder
    /// or a symbolic link loop in its place): the run shown, the file's
    /// last good save, stays, and the next save tries again.
    package mutating func cannotReload(_ reason: String, at wall: Double) {
        state.show("\(reason): the run shown stays; the next save tries again", kind: .refusal, now: wall, lasting: 30)
    }

    /// The live run ended before it announced its end (`BoardRun.endedEarly`):
    /// what it showed stays, and the status line says why for as long as
    /// the run is shown.
    package mutating func runEndedEarly(_ why: String, at wall: Double) {
        state.show(why, kind: .refusal, now: wall, lasting: 3600)
    }

    /// No watch could be started (no inotify and no pipe left).
    package mutating func cannotWatch(at wall: Double) {
        state.show(
            "cannot watch \(Self.name(file.path)) for saves: a save does not reload it", kind: .refusal, now: wall,
            lasting: 30)
    }

    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}
