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
@MainActor
package final class InteractiveApp {
    private let session: TerminalSession
    private let options: InteractiveOptions
    private let glyphs: GlyphSet
    /// The status the app ends with, once it quit.
    private let end = CommandEnd()
    /// The app signals are delivered to (one per process).
    private static weak var current: InteractiveApp?
    private var input: (any DispatchSourceRead)?
    /// Keeps the blocked-main-thread line (`BlockedMainThreadLine`) up to
    /// date while a wait of the scenario blocks the main thread.
    private let standIn = MainThreadStandIn(interval: 0.25)

    /// What the screen shows.
    private enum Mode {
        /// The picker (the app started without a file).
        case picker(PickerModel)
        /// A scenario; `picker` is where `q` goes back to, if it came from there.
        case scenario(ScenarioSession, picker: PickerModel?)
        /// Before anything opened.
        case none
    }

    private var mode = Mode.none

    /// The scenario shown, if one is.
    private var scenario: ScenarioSession? {
        if case .scenario(let session, _) = mode { return session }
        return nil
    }

    /// The scenario file's watch (`--watch`).
    private var watch: ScenarioWatch?

    private var redrawScheduled = false
    /// A drain of the events waiting is on the main queue.
    private var drainScheduled = false
    /// When the last frame was drawn (uptime seconds).
    private var lastFrame = 0.0
    private var firstFrameReported = false
    private var frameTimer: (any DispatchSourceTimer)?

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
        options: InteractiveOptions
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
            var model = PickerModel(list: list, paths: paths, questions: questions)
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

    private func installSources() {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readKeys() }
        }
        source.resume()
        input = source
    }

    private func readKeys() {
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
    private func signalArrived(_ event: SignalWatch.Event) {
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

    private func resized() {
        _ = session.handleResize()
        session.redrawAll()
        redrawNow()
    }

    // MARK: - Keys

    private func handle(_ key: Key) {
        if key == .resize {
            resized()
            return
        }
        switch mode {
        case .none:
            return
        case .picker(var model):
            let outcome = ScenarioPicker.handle(
                key, state: &model.state, list: model.list, size: session.size, glyphs: glyphs)
            mode = .picker(model)
            switch outcome {
            case .none: return
            case .redraw, .showDiagnostics: scheduleRedraw()
            case .quit: quit()
            case .open(let index): openFromPicker(index, model)
            }
        case .scenario(let shown, let picker):
            switch shown.handle(key, frame: frameInput(for: shown)) {
            case .continue:
                scheduleRedraw()
            case .quit:
                shown.stop()
                if var picker {
                    // A question answered there shows its mark now.
                    if shown.model.prediction != nil { picker.refreshPractice() }
                    mode = .picker(picker)
                    stopFrameTimer()
                    redrawNow()
                } else {
                    quit()
                }
            }
            updateFrameTimer()
        }
    }

    /// Reads the file again (it may have changed since the picker listed
    /// it): one that runs opens; one that cannot shows why in the pane.
    fileprivate func openFromPicker(_ index: Int, _ picker: PickerModel) {
        var model = picker
        guard model.paths.indices.contains(index) else { return }
        let (entry, opening) = PickerLauncher.read(model.paths[index])
        guard let opening else {
            model.list[entry: index] = entry
            model.state.pane = PickerPane(entry: index)
            mode = .picker(model)
            scheduleRedraw()
            return
        }
        let asQuestion = model.questions.contains(index)
        open(
            opening, from: model, asQuestion: asQuestion,
            practiceQuestion: asQuestion ? (model.paths[index] as NSString).lastPathComponent : nil)
    }

    /// Opens a scenario (or a recording of it). From the picker it opens
    /// the way a lesson is read: paused at t=0 with the notes showing, in
    /// lesson mode; a replay opens paused at t=0 too.
    private func open(
        _ opening: ScenarioOpening, from picker: PickerModel?, asQuestion: Bool = false,
        practiceQuestion: String? = nil
    ) {
        let scenario = opening.scenario
        let fromPicker = picker != nil
        let settings = SessionModel.Settings(
            speed: options.speed ?? scenario.speed ?? 1,
            paused: fromPicker || opening.source.isRecording || options.startsPaused,
            lesson: fromPicker || options.lesson, asQuestion: asQuestion || options.asQuestion,
            practiceQuestion: practiceQuestion ?? options.practiceQuestion)
        let view = ScenarioSession(
            SessionModel(
                scenario: scenario, settings: settings, file: opening.file, source: opening.source,
                notice: opening.notice, at: ProcessInfo.processInfo.systemUptime))
        mode = .scenario(view, picker: picker)
        view.onBuilding = { [weak self] in self?.redrawNow() }
        let standIn = self.standIn
        let carryOn = options.carryOnAfterLostMainThread
        view.aroundMainThreadWait = { [weak self] action, wait in
            // On the main thread.
            let (line, question, look): (BlockedMainThreadLine?, BlockedQuestion?, FrameLook?) =
                MainActor.assumeIsolated {
                    let line = self?.frameBeforeWait(action)
                    return (line, self?.scenario?.blockedQuestion(), self?.frameLook)
                }
            if let line {
                standIn.setDuty {
                    if let question, let look {
                        Self.blockedTurn(line, question, look, carryOn: carryOn)
                    } else {
                        line.tick()
                    }
                }
            }
            standIn.park(wait)
            standIn.setDuty(nil)
            MainActor.assumeIsolated { self?.mainThreadIsBack() }
        }
        view.keepAnswer = { @Sendable file, right in
            PracticeKeeper()?.keep(file, scenario: scenario, right: right)
                ?? "your answer was not kept: no data folder (set HOME or XDG_DATA_HOME)"
        }
        view.start(
            wake: { [weak self] in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { self?.eventsArrived() }
                }
            },
            mainThreadWork: { [weak self] work in
                // On the main thread, inside the operation's work.
                MainActor.assumeIsolated { self?.mainThreadWork(work) }
            })
        redrawNow()
        updateFrameTimer()
    }

    /// A main-queue operation begins (or ends) its work on this thread:
    /// draw now what the run looks like, since nothing will be drawn until
    /// the work returns.
    private func mainThreadWork(_ work: MainThreadWork) {
        guard let view = scenario else { return }
        view.mainThread(work)
        if case .began = work {
            view.drain(all: true)
            redrawNow()
        }
    }

    /// The run's events: a slice of them now, the rest at the next turns
    /// of the main queue (`ScenarioSession.drain`), so that a key or a
    /// save waiting there comes first. While a backlog lasts, a frame is
    /// drawn at most every `backlogFrameInterval`. `all` takes every event
    /// there is (the last frame before the main thread blocks).
    private func eventsArrived(all: Bool = false) {
        guard let view = scenario else { return }
        if view.drain(all: all) {
            if !view.hasBacklog || ProcessInfo.processInfo.systemUptime - lastFrame >= Self.backlogFrameInterval {
                scheduleRedraw()
            }
        }
        if view.hasBacklog, !drainScheduled {
            drainScheduled = true
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    self?.drainScheduled = false
                    self?.eventsArrived()
                }
            }
        }
        updateFrameTimer()
    }

    /// Seconds between two frames while the events taken are behind.
    private static let backlogFrameInterval = 0.25

    // MARK: - Watching the file

    /// Watches the scenario's file: each save is read and checked on the
    /// watch's thread, and what came of it arrives here on the main queue.
    private func startWatching(_ opening: ScenarioOpening) {
        // The new run's board and history are made on the read's thread.
        watch = ScenarioWatch.start(
            opening.file.path, scenario: opening.scenario, prepare: { SessionModel.RunBasis(scenario: $0) },
            deliver: { arrival in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { InteractiveApp.current?.reloadArrived(arrival) }
                }
            })
        if watch == nil {
            scenario?.cannotWatch()
            redrawNow()
        }
    }

    /// A save of the watched file: a new run of it (settings as on the
    /// command line, over the file's own `speed`), drawn at once; or its
    /// diagnostics over the run shown; or, when there is nothing to read
    /// (removed, a folder or a link loop in its place), a line that says
    /// so over the run shown, which stays. One a newer save made stale
    /// while it waited on the main queue is skipped.
    private func reloadArrived(_ arrival: ScenarioWatch.Arrival) {
        guard !end.hasEnded, let view = scenario, !arrival.isSuperseded else { return }
        switch arrival.reload {
        case .scenario(let new, let file, let changes):
            let settings = SessionModel.Settings(
                speed: options.speed ?? new.speed ?? 1, paused: options.startsPaused, lesson: options.lesson)
            view.reload(
                new, file: RecordingFile(path: file.path, source: String(decoding: file.bytes, as: UTF8.self)),
                settings: settings, changes: changes.summary, basis: arrival.prepared as? SessionModel.RunBasis)
            redrawNow()
            updateFrameTimer()
        case .problems(let result, let file):
            view.showProblems(result, file: file)
            scheduleRedraw()
        case .unreadable(let reason):
            view.cannotReload(reason.text((view.model.file.path as NSString).lastPathComponent))
            scheduleRedraw()
        }
    }

    // MARK: - Frames

    private func frameInput(for view: ScenarioSession) -> FrameInput {
        view.frameInput(size: session.size, glyphs: glyphs, colors: session.colorsEnabled)
    }

    private func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.redrawScheduled = false
                self?.redrawNow()
            }
        }
    }

    private func redrawNow() {
        lastFrame = ProcessInfo.processInfo.systemUptime
        switch mode {
        case .scenario(let view, _):
            _ = session.flush(view.render(frame: frameInput(for: view)))
        case .picker(let model):
            _ = session.flush(model.render(size: session.size, glyphs: glyphs, colors: session.colorsEnabled))
        case .none:
            break
        }
        if !firstFrameReported {
            firstFrameReported = true
            reportFirstFrame()
        }
    }

    /// For `opscope-bench` (time to the first frame, measured from outside):
    /// when OPSCOPE_FIRST_FRAME_FILE names a file,
    /// writes the seconds from process start to the first frame, and the
    /// pid, into it.
    private func reportFirstFrame() {
        guard let path = ProcessInfo.processInfo.environment["OPSCOPE_FIRST_FRAME_FILE"],
            let elapsed = ProcessCPU.sinceProcessStart()
        else { return }
        try? Data("\(elapsed) \(getpid())\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Runs a frame timer only while something on screen moves: the clock
    /// of a live, unpaused run and its progress bars.
    private func updateFrameTimer() {
        if let view = scenario, view.isMoving {
            guard frameTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(
                deadline: .now() + .milliseconds(50), repeating: .milliseconds(50), leeway: .milliseconds(10))
            timer.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.tick() }
            }
            timer.resume()
            frameTimer = timer
        } else {
            stopFrameTimer()
        }
    }

    private func stopFrameTimer() {
        frameTimer?.cancel()
        frameTimer = nil
    }

    private func tick() {
        guard let view = scenario else {
            stopFrameTimer()
            return
        }
        eventsArrived()
        if !view.hasBacklog { redrawNow() }
    }

    // MARK: - While a wait blocks the main thread

    private var frameLook: FrameLook {
        FrameLook(size: session.size, glyphs: glyphs, colors: session.colorsEnabled)
    }

    /// A turn of the stand-in while a question's wait blocks the main
    /// thread: once the run stalled in it for good (the main thread never
    /// comes back), the grade is drawn from here, and the keys that only
    /// look at the run work on it; `q` leaves (for `carryOn`'s opscope
    /// when there is one), `r` asks again in a new opscope (this one's main
    /// thread is lost).
    nonisolated private static func blockedTurn(
        _ line: BlockedMainThreadLine, _ question: BlockedQuestion, _ look: FrameLook, carryOn: [String]?
    ) {
        let leave = { () -> Never in
            guard let carryOn else { line.leave() }
            line.replace(with: carryOn)
        }
        guard line.neverReturns() else { return line.tick() }
        if let grid = question.gradedFrame(look) {
            GridEscapes.draw(grid, columns: look.size.columns, colors: look.colors)
        } else if question.isGraded {
            var grid: CellGrid?
            for key in RawKeyDecoder.keys(line.readBytes()) {
                switch key {
                case .character("q"), .character("Q"): leave()
                case .character("r"), .character("R"): line.startAgain()
                default: break
                }
                switch question.handle(key, look) {
                case .quit: leave()
                case .redraw(let frame): grid = frame
                }
            }
            if let grid { GridEscapes.draw(grid, columns: look.size.columns, colors: look.colors) }
        } else {
            return line.tick()
        }
        if !question.showsMessage { line.drawLine() }
    }

    /// The last frame the main thread draws before a wait blocks it (the
    /// wait shown in the key bar), and the line that keeps the time it has
    /// been blocked while it is.
    private func frameBeforeWait(_ action: Action) -> BlockedMainThreadLine? {
        guard let view = scenario else { return nil }
        eventsArrived(all: true)
        redrawNow()
        let size = session.size
        return BlockedMainThreadLine(
            row: max(0, size.rows - 2), columns: size.columns,
            call: EventFormatter.waitCall(action, in: view.model.scenario), neverReturns: view.stallProbe(),
            restart: restartArguments)
    }

    /// The command line `r` starts once the main thread is lost: this
    /// one's, or, for a scenario opened from the picker, the picker with
    /// the same entry open again (`--picked`).
    private var restartArguments: [String] {
        guard case .scenario(let view, _?) = mode else { return CommandLine.arguments }
        var arguments = [CommandLine.arguments.first ?? "opscope"]
        if options.ascii { arguments.append("--ascii") }
        if options.noColor { arguments.append("--no-color") }
        if let speed = options.speed { arguments += ["--speed", String(speed)] }
        let path = view.model.file.path
        let asQuestion = view.model.settings.asQuestion
        arguments += [asQuestion ? "--picked-question" : "--picked", path]
        return arguments
    }

    /// The main thread's wait returned: the stand-in wrote over the
    /// screen, so all of it is drawn again.
    private func mainThreadIsBack() {
        session.redrawAll()
        eventsArrived(all: true)
        redrawNow()
    }

    // MARK: - Leaving

    /// Restores the terminal and ends the app: on `q` (status 0), and on
    /// Ctrl-C, Ctrl-\, SIGTERM and SIGHUP (128 + the signal's number).
    /// Nothing is drawn after it: what the main queue still holds finds
    /// the app ended (`end.hasEnded`) or nothing shown (`mode`).
    private func quit(status: ExitStatus = .success) {
        guard !end.hasEnded else { return }
        // The terminal first: stopping a run may wait for Foundation.
        stopFrameTimer()
        input?.cancel()
        watch?.stop()
        session.close()
        scenario?.stop()
        mode = .none
        end.end(status)
    }
}
