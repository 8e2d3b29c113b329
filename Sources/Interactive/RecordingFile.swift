import Foundation
import ScenarioKit

/// What the interactive view opens: a scenario from its file, to run live,
/// or a recording of a run of it, to play back.
package struct ScenarioOpening {
    package var scenario: Scenario
    package var file: RecordingFile
    package var source: SessionModel.Source
    /// Said on the status line as the view opens (a recording's unreadable
    /// line, and that the replay stops before it).
    package var notice: String?

    package init(scenario: Scenario, file: RecordingFile, source: SessionModel.Source = .live, notice: String? = nil) {
        self.scenario = scenario
        self.file = file
        self.source = source
        self.notice = notice
    }

    /// A scenario file read without errors, to run live.
    package init(scenario: Scenario, file: SourceFile) {
        self.init(
            scenario: scenario,
            file: RecordingFile(path: file.path, source: String(decoding: file.bytes, as: UTF8.self)))
    }
}

/// The scenario file a view shows, as a recording's header carries it:
/// its path as given and its whole text, and whether the run shown
/// observed the moments of dispatch.
package struct RecordingFile: Sendable {
    package var path: String
    package var source: String
    /// The run observed each moment of dispatch (the recording's header,
    /// or the live run's `ScenarioRun.observesDispatches`); false: each
    /// `dispatched` came as its operation started, and the view says so.
    package var dispatchesObserved: Bool

    package init(path: String, source: String, dispatchesObserved: Bool = true) {
        self.path = path
        self.source = source
        self.dispatchesObserved = dispatchesObserved
    }

    /// `05-suspend-20261201-141502.jsonl`: the scenario's file name without
    /// its extension, and the local date and time to the second.
    package static func savedName(for path: String, at date: Date) -> String {
        let last = (path as NSString).lastPathComponent
        let stem = (last as NSString).deletingPathExtension
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return (stem.isEmpty ? "run" : stem) + "-" + formatter.string(from: date) + ".jsonl"
    }
}
