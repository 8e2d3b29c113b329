import CommandSupport
import Dispatch
import Synchronization
import TextKit

/// A line on standard error that a timer of its own redraws in place, and
/// that is erased when it is done: the progress lines of `trace`.
///
/// Drawn from a queue of its own, not the main one (the main thread may be
/// busy writing the stream, or held by a main-queue operation of the
/// scenario). It first shows after `delay`, then looks again every
/// `interval`, and writes only when its text changed. Every write is made
/// under its lock, so once `finish()` returns nothing more is drawn: the
/// report written next is never broken by it.
final class ErasableLine: Sendable {
    /// What the line shows at a look.
    enum Content {
        case text(String)
        /// Nothing new to show yet.
        case unchanged
        /// Over: the line is erased and the timer stopped.
        case done
    }

    private struct State {
        var shown: String?
        var finished = false
    }

    private let content: @Sendable () -> Content
    private let state = Mutex(State())
    /// Set up before it is started; afterwards only cancelled, under the lock.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Starts looking at `content`, first after `delay` real seconds, then
    /// every `interval`.
    init(label: String, delay: Double, interval: Double, content: @escaping @Sendable () -> Content) {
        self.content = content
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        timer.schedule(deadline: .now() + delay, repeating: .milliseconds(Int(interval * 1000)))
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
    }

    private func look() {
        let text: String
        switch content() {
        case .unchanged: return
        case .done: return finish()
        case .text(let new): text = new
        }
        state.withLock { state in
            guard !state.finished, text != state.shown else { return }
            // Back to the start of the line, the text, the rest cleared.
            StandardError.write("\r" + TerminalText.escaped(text) + "\u{1B}[K")
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
