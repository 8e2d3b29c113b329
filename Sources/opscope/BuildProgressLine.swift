import CommandSupport
import Dispatch
import Foundation
import LifecycleEngine
import Synchronization

/// `building 2,550,000 operations… 40%` on standard error while `trace`
/// hands a large run to Foundation, erased when that is done.
///
/// On a terminal only, and only while standard output is not that
/// terminal too: there the stream itself shows the run going, and a line
/// drawn between its lines would break them. Never written into the
/// stream. It shows once the handover has taken half a second (a small
/// file never shows it), changes as the percentage does, and is erased
/// when the handover is complete or the trace ends, whichever comes first.
///
/// Drawn as `ErasableLine` draws, off the main thread: while the handover
/// goes, the main thread is busy writing what the run already did, and a
/// line that waited for it would show only once the handover was over.
final class BuildProgressLine: Sendable {
    /// Real seconds before the line first shows, and between redraws.
    static let delay = 0.5
    static let interval = 0.2

    private let line: ErasableLine

    private init(progress: @escaping @Sendable () -> BuildProgress?) {
        line = ErasableLine(label: "opscope build progress", delay: Self.delay, interval: Self.interval) {
            guard let progress = progress() else { return .unchanged }
            return progress.isComplete ? .done : .text(progress.text)
        }
    }

    /// Starts watching `progress` (nil while the run is not made yet);
    /// nil when standard error is not a terminal or standard output is one.
    static func start(progress: @escaping @Sendable () -> BuildProgress?) -> BuildProgressLine? {
        guard isatty(STDERR_FILENO) == 1, isatty(STDOUT_FILENO) == 0 else { return nil }
        return BuildProgressLine(progress: progress)
    }

    /// Stops, and erases the line if it is showing.
    func finish() { line.finish() }
}
