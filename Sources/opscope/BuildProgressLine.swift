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
/// Drawn from a queue of its own, not the main one: while the handover
/// goes, the main thread is busy writing what the run already did, and a
/// line that waited for it would show only once the handover was over.
/// Every write is made under the line's lock, so once `finish()` returns
/// nothing more is drawn: the report written next is never broken by it.
final class BuildProgressLine: Sendable {
    /// Real seconds before the line first shows, and between redraws.
    static let delay = 0.5
    static let interval = 0.2

    private struct State {
        var shown: String?
        var finished = false
    }

    private let progress: @Sendable () -> BuildProgress?
    private let state = Mutex(State())
    /// Set up before it is started; afterwards only cancelled, under the lock.
    nonisolated(unsafe) private let timer = DispatchSource.makeTimerSource(
        queue: DispatchQueue(label: "opscope build progress"))

    private init(progress: @escaping @Sendable () -> BuildProgress?) {
        self.progress = progress
    }

    /// Starts watching `progress` (nil while the run is not made yet);
    /// nil when standard error is not a terminal or standard output is one.
    static func start(progress: @escaping @Sendable () -> BuildProgress?) -> BuildProgressLine? {
        guard isatty(STDERR_FILENO) == 1, isatty(STDOUT_FILENO) == 0 else { return nil }
        let line = BuildProgressLine(progress: progress)
        line.timer.schedule(deadline: .now() + delay, repeating: .milliseconds(Int(interval * 1000)))
        line.timer.setEventHandler { [weak line] in line?.update() }
        line.timer.resume()
        return line
    }

    private func update() {
        guard let progress = progress() else { return }
        if progress.isComplete {
            finish()
            return
        }
        state.withLock { state in
            guard !state.finished, progress.text != state.shown else { return }
            // Back to the start of the line, the text, the rest cleared.
            StandardError.write("\r" + progress.text + "\u{1B}[K")
            state.shown = progress.text
        }
    }

    /// Stops, and erases the line if it is showing.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            timer.cancel()
            if state.shown != nil { StandardError.write("\r\u{1B}[K") }
            state.shown = nil
        }
    }
}
