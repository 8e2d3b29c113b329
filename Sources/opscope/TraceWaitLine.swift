import Board
import CommandSupport
import Dispatch
import LifecycleEngine
import RunEvents
import ScenarioKit
import TextKit

#if canImport(Glibc)
    import Glibc
#endif

/// The line a trace on a terminal shows on standard error while its run
/// is quiet: after `quietAfter` real seconds without a notification, what
/// the run waits for and how long that is (`NextMoment`), brought up to
/// date every second and erased before the next output. Never in the
/// stream, and never when standard error is not a terminal.
@MainActor
final class TraceWaitLine {
    static let quietAfter = 2.0

    private var moments: NextMoment
    private let speed: Double
    private var lastEventReal = DispatchTime.now()
    private var lastEventTime = 0.0
    private var shown = false
    private var timer: (any DispatchSourceTimer)?

    /// nil when standard error is not a terminal.
    init?(scenario: Scenario, speed: Double) {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        moments = NextMoment(scenario: scenario)
        self.speed = speed
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.tick() } }
        timer.resume()
        self.timer = timer
    }

    /// A batch is about to be written: the line goes, the clock of quiet
    /// starts again.
    func read(_ batch: [LifecycleEvent]) {
        erase()
        for event in batch { moments.record(event) }
        if let last = batch.last { lastEventTime = last.time }
        lastEventReal = .now()
    }

    /// The trace is ending: the line goes for good.
    func stop() {
        timer?.cancel()
        timer = nil
        erase()
    }

    private func tick() {
        let quiet = Double(DispatchTime.now().uptimeNanoseconds &- lastEventReal.uptimeNanoseconds) / 1e9
        guard quiet >= Self.quietAfter,
            let line = moments.waitingLine(now: lastEventTime + quiet * speed, speed: speed)
        else { return }
        // One row: a wrapped line could not be erased with one \r.
        var size = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 1 ? Int(size.ws_col) : 80
        StandardError.write(
            "\r\u{1B}[K" + truncate("… \(TerminalText.escaped(line)) (Ctrl-C stops the trace)", toWidth: columns - 1))
        shown = true
    }

    private func erase() {
        guard shown else { return }
        StandardError.write("\r\u{1B}[K")
        shown = false
    }
}

/// Read before the writer, so the line goes before the batch is written.
extension TraceWaitLine: @MainActor EventReader {}
