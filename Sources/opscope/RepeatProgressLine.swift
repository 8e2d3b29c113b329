import CommandSupport
import Dispatch
import Foundation
import Synchronization

/// `run 7 of 20 … 1 failed so far` on standard error while `trace
/// --repeat` goes, erased before the summary is written.
///
/// On a terminal only (standard error is one), never into a pipe or a
/// file. It shows once the runs have taken `delay` (a few quick runs never
/// show it). Drawn from a queue of its own, not the main one: a scenario's
/// main-queue operation may hold the main thread. Every write is made under
/// the line's lock, so once `finish()` returns nothing more is drawn.
final class RepeatProgressLine: Sendable {
    /// Real seconds before the line first shows, and between redraws.
    static let delay = 0.5
    static let interval = 0.25

    private struct State {
        var run = 1
        var failed = 0
        var shown: String?
        var finished = false
    }

    private let planned: Int
    private let state = Mutex(State())
    /// Set up before it is started; afterwards only cancelled, under the lock.
    nonisolated(unsafe) private let timer = DispatchSource.makeTimerSource(
        queue: DispatchQueue(label: "opscope repeat progress"))

    private init(planned: Int) { self.planned = planned }

    /// nil when standard error is not a terminal.
    static func start(planned: Int) -> RepeatProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = RepeatProgressLine(planned: planned)
        line.timer.schedule(deadline: .now() + delay, repeating: .milliseconds(Int(interval * 1000)))
        line.timer.setEventHandler { [weak line] in line?.draw() }
        line.timer.resume()
        return line
    }

    /// Run `run` (1-based) is starting; `failed` runs before it failed.
    func update(run: Int, failed: Int) {
        state.withLock { state in
            state.run = run
            state.failed = failed
        }
    }

    private func draw() {
        state.withLock { state in
            guard !state.finished else { return }
            let failed = state.failed > 0 ? " \(state.failed) failed so far" : ""
            let text = "run \(state.run) of \(planned) …\(failed)"
            guard text != state.shown else { return }
            // Back to the start of the line, the text, the rest cleared.
            StandardError.write("\r" + text + "\u{1B}[K")
            state.shown = text
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
