import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// The interactive view: one terminal session, showing either the scenario
/// picker or one scenario running on the real engine.
///
/// Everything here runs on the main dispatch queue, served by the main
/// thread's run loop (DECISIONS.md, "Threads"): keys arrive through a read
/// source on standard input, signals through dispatch sources, engine events
/// through a wake-up that the run posts when its mailbox fills. A frame timer
/// runs only while something moves, so a paused or finished run costs no
/// CPU. A `main` queue's operations run on this same thread between frames,
/// so a long one freezes the screen: the engine calls back as such work
/// begins, and the app draws that moment before the thread blocks, then
/// says afterwards how long it was blocked.
///
/// Its parts are extensions in files of their own (`InteractiveApp+Keys`,
/// `+Run`, `+Watch`, `+Frames`, `+MainThreadWait`); its state is internal,
/// not private, so that they can share it.
@MainActor
package final class InteractiveApp {
    let session: TerminalSession
    let options: InteractiveOptions
    let glyphs: GlyphSet
    /// The status the app ends with, once it quit.
    let end = CommandEnd()
    /// The app signals are delivered to (one per process).
    static weak var current: InteractiveApp?
    var input: (any DispatchSourceRead)?
    /// Keeps the blocked-main-thread line (`BlockedMainThreadLine`) up to
    /// date while a wait of the scenario blocks the main thread.
    let standIn = MainThreadStandIn(interval: 0.25)

    /// What the screen shows.
    enum Mode {
        /// The picker (the app started without a file).
        case picker(PickerModel)
        /// A scenario; `picker` is where `q` goes back to, if it came from there.
        case scenario(ScenarioSession, picker: PickerModel?)
        /// Before anything opened.
        case none
    }

    var mode = Mode.none

    /// The scenario shown, if one is.
    var scenario: ScenarioSession? {
        if case .scenario(let session, _) = mode { return session }
        return nil
    }

    /// The scenario file's watch (`--watch`).
    var watch: ScenarioWatch?
    /// The kata checks under way from the picker, by entry: each one's
    /// stop, asked for when the app quits (`InteractiveApp+Kata`).
    var kataChecks: [Int: StopRequest] = [:]
    /// Entered by each kata check's thread while its child runs: quitting
    /// waits for them to have killed and reaped their children.
    let kataThreads = DispatchGroup()

    var redrawScheduled = false
    /// A drain of the events waiting is on the main queue.
    var drainScheduled = false
    /// When the last frame was drawn (uptime seconds).
    var lastFrame = 0.0
    var frameTimer: (any DispatchSourceTimer)?

    private init(session: TerminalSession, options: InteractiveOptions) {
        self.session = session
        self.options = options
        glyphs = session.isUTF8 && !options.ascii ? .unicode : .ascii
    }

    /// Opens the terminal and shows `opening`, or the picker over `list`
    /// when nothing is given. Returns once the app quit (the terminal
    /// restored), with the status to exit with.
    package static func launch(
        _ opening: ScenarioOpening?, picker list: PickerList, paths: [String], questions: Set<Int> = [],
        katas: [Int: String] = [:], options: InteractiveOptions
    ) -> ExitStatus {
        let colors = TerminalOptions.colorsAllowed(
            noColorFlag: options.noColor, environment: ProcessInfo.processInfo.environment)
        // The app takes the signals while it is open (the program's watch
        // has them from the start, before the session opens, so ncurses
        // leaves them alone), then gives them back.
        let previous = SignalWatch.start { event in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { InteractiveApp.current?.signalArrived(event) }
            }
        }
        defer { SignalWatch.restore(previous) }
        // A signal came before the app took them (the practice between two
        // questions): nothing opens.
        if let stopped = StopRequest.process.status { return stopped }
        let session: TerminalSession
        do {
            session = try TerminalSession.open(options: TerminalOptions(colors: colors))
        } catch {
            return UsageError("cannot start the interface: \(error)").report()
        }
        let app = InteractiveApp(session: session, options: options)
        current = app
        app.installSources()
        if let opening {
            app.open(opening, from: nil)
            if options.watch { app.startWatching(opening) }
        } else {
            var model = PickerModel(list: list, paths: paths, questions: questions, katas: katas)
            if let (path, asQuestion) = options.picked, let index = model.index(of: path, asQuestion: asQuestion) {
                model.state.selected = index
            }
            app.mode = .picker(model)
            if let (path, asQuestion) = options.picked, let index = model.index(of: path, asQuestion: asQuestion) {
                app.openFromPicker(index, model)
            }
            app.redrawNow()
        }
        return MainThread.serve(until: app.end)
    }

    // MARK: - Sources

    func installSources() {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readKeys() }
        }
        source.resume()
        input = source
    }

    func readKeys() {
        guard !end.hasEnded else { return }
        let keys = session.readKeys()
        for (index, key) in keys.enumerated() {
            guard !end.hasEnded else { return }
            // A burst of restarts (r r r) is the last of them: each would
            // build a new run of the whole file (seconds at 100,000
            // operations), only for the next to replace it, and a `q` after
            // them waited behind them all.
            if index + 1 < keys.count, keys[index + 1] == key, case .scenario(let view, _) = mode,
                view.model.prediction == nil, InterfaceController.isPlainRestart(key, state: view.model.state)
            {
                continue
            }
            handle(key)
        }
    }

    /// A signal, on the main queue (see `SignalWatch`: if this thread is
    /// blocked, the watch restores the terminal and exits by itself).
    func signalArrived(_ event: SignalWatch.Event) {
        guard !end.hasEnded else { return }
        switch event {
        case .resize:
            resized()
        case .resumed:
            session.resumeAfterStop()
            session.redrawAll()
            redrawNow()
        case .stop:
            break
        case .interrupt, .terminate, .hangUp, .quit:
            quit(status: SignalWatch.signalNumber(for: event).map { .stopped(signal: $0) } ?? .failed)
        }
    }

    func resized() {
        _ = session.handleResize()
        session.redrawAll()
        redrawNow()
    }

    // MARK: - Leaving

    /// Restores the terminal and ends the app: on `q` (status 0), and on
    /// Ctrl-C, Ctrl-\, SIGTERM and SIGHUP (128 + the signal's number).
    /// Nothing is drawn after it: what the main queue still holds finds
    /// the app ended (`end.hasEnded`) or nothing shown (`mode`).
    func quit(status: ExitStatus = .success) {
        guard !end.hasEnded else { return }
        // The terminal first: stopping a run may wait for Foundation.
        stopFrameTimer()
        input?.cancel()
        watch?.stop()
        for stop in kataChecks.values { stop.request(signal: SIGTERM) }
        _ = kataThreads.wait(timeout: .now() + 3)
        session.close()
        scenario?.stop()
        mode = .none
        end.end(status)
    }
}
