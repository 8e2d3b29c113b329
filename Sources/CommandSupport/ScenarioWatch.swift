import Foundation
import ScenarioKit
import Synchronization

/// `--watch`: a scenario file read and checked again each time it is
/// saved, off the main thread, and what came of it handed to `deliver`
/// (which posts it to the main queue).
///
/// The file is read, parsed and validated on the watch's thread, so the
/// main thread, which draws and runs the `main` queue, never waits for the
/// disk or for the language; it only gets a scenario ready to run, or the
/// diagnostics to show.
package final class ScenarioWatch: Sendable {
    /// What a save gave.
    package enum Reload: Sendable {
        /// The file reads without errors: the scenario to run, the file as
        /// read, and what changed since the last one that did.
        case scenario(Scenario, SourceFile, ScenarioChanges)
        /// The file has errors: the result with its diagnostics, and the
        /// file as read (for the source lines under the carets).
        case problems(ParseResult, SourceFile)
        /// The file cannot be read now (removed, not readable): why, in
        /// words. The next save tries again.
        case unreadable(String)
    }

    private let watch: FileWatch
    package var mechanism: FileWatch.Mechanism { watch.mechanism }

    private init(watch: FileWatch) { self.watch = watch }

    /// Watches `path`; `scenario` is the run shown now, what the first
    /// save's changes are counted from. `deliver` is called on the watch's
    /// thread. nil when no watch can be started.
    package static func start(
        _ path: String, scenario: Scenario, debouncer: SaveDebouncer = SaveDebouncer(), polling: Bool = false,
        deliver: @escaping @Sendable (Reload) -> Void
    ) -> ScenarioWatch? {
        let last = Mutex(scenario)
        let watch = FileWatch.start(path, debouncer: debouncer, polling: polling) {
            let reload = read(path, since: last.withLock { $0 })
            if case .scenario(let scenario, _, _) = reload { last.withLock { $0 = scenario } }
            deliver(reload)
        }
        return watch.map(ScenarioWatch.init)
    }

    package func stop() { watch.stop() }

    /// The file at `path` read and checked, its changes counted from
    /// `previous`.
    package static func read(_ path: String, since previous: Scenario) -> Reload {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .unreadable(
                FileManager.default.fileExists(atPath: path) ? "cannot read '\(path)'" : "no such file '\(path)'")
        }
        let file = SourceFile(path: path, bytes: Array(data))
        let result = ScenarioReader.read(file)
        guard let scenario = result.scenario, !result.hasErrors else { return .problems(result, file) }
        return .scenario(scenario, file, ScenarioChanges(from: previous, to: scenario))
    }
}
