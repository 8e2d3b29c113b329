import CommandSupport
import Dispatch
import Foundation
import Synchronization

/// `run 7 of 20 … 1 failed so far` on standard error while `trace
/// --repeat` goes, erased before the summary is written.
///
/// On a terminal only (standard error is one), never into a pipe or a
/// file. It shows once the runs have taken `delay` (a few quick runs never
/// show it); drawn as `ErasableLine` draws, off the main thread, which a
/// scenario's main-queue operation may hold.
final class RepeatProgressLine: Sendable {
    /// Real seconds before the line first shows, and between redraws.
    static let delay = 0.5
    static let interval = 0.25

    /// The run starting (1-based) and how many before it failed.
    private final class Counts: Sendable {
        let value = Mutex((run: 1, failed: 0))
    }

    private let counts: Counts
    private let line: ErasableLine

    private init(planned: Int) {
        let counts = Counts()
        self.counts = counts
        line = ErasableLine(label: "opscope repeat progress", delay: Self.delay, interval: Self.interval) {
            let (run, failed) = counts.value.withLock { $0 }
            return .text("run \(run) of \(planned) …" + (failed > 0 ? " \(failed) failed so far" : ""))
        }
    }

    /// nil when standard error is not a terminal.
    static func start(planned: Int) -> RepeatProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return RepeatProgressLine(planned: planned)
    }

    /// Run `run` (1-based) is starting; `failed` runs before it failed.
    func update(run: Int, failed: Int) {
        counts.value.withLock { $0 = (run, failed) }
    }

    /// Stops, and erases the line if it is showing.
    func finish() { line.finish() }
}
