import CommandSupport
import Foundation
import Katas
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import TextKit

/// A live run of the user's classes for the board: a child opscope runs
/// the scenario on the real engine with the classes loaded, writes its
/// recording as it goes, and takes the board's actions on its standard
/// input (`LiveCommand`); its clock and the end of each action come on
/// the same stream (`LiveReport`).
///
/// Every event is read as a recording is (`RecordingStream`): a child
/// whose line cannot be read is stopped, and the board says why. Its
/// crash (a Foundation fatal error in the user's code) ends only the
/// child: the events read so far stay on the board, and `endedEarly` says
/// the signal and Foundation's words. A reader thread reads the child;
/// nothing here blocks the main thread but `perform`, for at most
/// `answerWait`, so that a burst of keys acts on the state each key left.
package final class ChildRun: BoardRun, @unchecked Sendable {
    /// How the child is started: opscope itself, its arguments and
    /// environment.
    package struct Launch: Sendable {
        package var program: String
        package var arguments: [String]
        package var environment: [String: String]
        /// The scenario's text the board shows: a child that read another
        /// (the file was saved meanwhile) is stopped.
        package var source: String
        /// Makes the library of the classes (on the reader's thread, before
        /// the child starts): its path, or why there is none.
        package var library: @Sendable () -> Result<String, Unready>

        package init(
            program: String, arguments: [String], environment: [String: String], source: String,
            library: @escaping @Sendable () -> Result<String, Unready>
        ) {
            self.program = program
            self.arguments = arguments
            self.environment = environment
            self.source = source
            self.library = library
        }
    }

    /// Why there is no library to run: in words for the status line.
    package struct Unready: Error, Sendable {
        package var why: String
    }

    /// The environment variable that tells the child where the library is.
    package static let libraryVariable = "OPSCOPE_OWN_LIBRARY"
    /// Set to `1` for a child that serves a board.
    package static let liveVariable = "OPSCOPE_OWN_LIVE"

    /// The longest `perform` waits for the child to say the action is done.
    static let answerWait = 0.5

    private struct State {
        var events: [LifecycleEvent] = []
        var started = false
        /// The clock as the child last said it, and when (real seconds).
        var now = 0.0
        var paused = true
        var stalled = false
        var saidAt = 0.0
        var speed: Double
        var lessons: Bool
        /// The latest time of an event read: the clock never shows less.
        var latest = 0.0
        var answers: [Int: Bool] = [:]
        var nextAction = 1
        var sawEnd = false
        var ended = false
        var endedEarly: String?
        var observesDispatches: Bool?
    }

    private let state: PosixMutex<State>
    private let stop = StopRequest()
    /// This side of the child's standard input; -1 once closed.
    private let input: PosixMutex<Int32>
    private let onEvents: (@Sendable () -> Void)?

    /// Starts the child now: it loads the classes and waits for `start`.
    package init(launch: Launch, options: RunOptions, onEvents: (@Sendable () -> Void)?) {
        state = PosixMutex(State(speed: options.speed, lessons: options.pausesAtCaptions))
        self.onEvents = onEvents
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            input = PosixMutex(-1)
            state.withLock { state in
                state.ended = true
                state.endedEarly = "cannot start the run of your classes: no socket"
            }
            return
        }
        for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        input = PosixMutex(pair[0])
        send(.speed(options.speed))
        send(.lesson(options.pausesAtCaptions))
        let childEnd = pair[1]
        let reader = Thread { [self] in read(launch, childEnd: childEnd) }
        reader.qualityOfService = .userInitiated
        reader.name = "opscope child run"
        reader.start()
    }

    /// Makes the library, then runs the child to its end (or a stop),
    /// reading its stream.
    private func read(_ launch: Launch, childEnd: Int32) {
        var launch = launch
        switch launch.library() {
        case .success(let path):
            launch.environment[Self.libraryVariable] = path
        case .failure(let unready):
            close(childEnd)
            state.withLock { $0.endedEarly = unready.why }
            finish()
            return
        }
        var stream = RecordingStream()
        var wake = false
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                launch.program, launch.arguments, environment: launch.environment, timeout: .infinity,
                keep: 1 << 16, stop: stop, stopGrace: 1, input: childEnd
            ) { [self] line in
                if let report = LiveReport(line: line[...]) {
                    take(report)
                    return
                }
                do {
                    guard let event = try stream.read(Array(line.utf8)) else {
                        guard let header = stream.header, header.source == launch.source else {
                            failed(
                                "the child read \(launch.arguments.dropFirst().first ?? "the file") as it is now, "
                                    + "not as the board shows it: it was stopped (press r to run it again)")
                            return
                        }
                        state.withLock { $0.observesDispatches = header.dispatchesObserved }
                        return
                    }
                    state.withLock { state in
                        wake = state.events.isEmpty
                        state.events.append(event)
                        state.latest = max(state.latest, event.time)
                        if case .end = event.kind { state.sawEnd = true }
                    }
                    if wake { onEvents?() }
                } catch {
                    failed("opscope could not read the run of your classes (\(error)): it was stopped")
                }
            }
        } catch {
            close(childEnd)
            state.withLock { $0.endedEarly = "\(error)" }
            finish()
            return
        }
        close(childEnd)
        state.withLock { state in
            if state.endedEarly == nil, !state.sawEnd, outcome.status != .stopped {
                state.endedEarly = Self.ending(outcome) ?? Self.lastWords(outcome).map(TerminalText.escaped)
            }
        }
        finish()
    }

    /// Stops the child, saying why (once: the first reason stays).
    private func failed(_ why: String) {
        state.withLock { state in
            if state.endedEarly == nil { state.endedEarly = why }
        }
        stop.request(signal: SIGTERM)
    }

    private func finish() {
        state.withLock { $0.ended = true }
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
        onEvents?()
    }

    private func take(_ report: LiveReport) {
        let wall = ProcessInfo.processInfo.systemUptime
        state.withLock { state in
            switch report {
            case .clock(let now, let paused, let stalled):
                state.now = now
                state.paused = paused
                state.stalled = stalled
                state.saidAt = wall
            case .done(let number, let performed):
                state.answers[number] = performed
            }
        }
    }

    /// Writes `command`'s line to the child; false when it cannot be
    /// written now (the child is gone, or reads nothing).
    @discardableResult
    private func send(_ command: LiveCommand) -> Bool {
        let bytes = Array((command.line + "\n").utf8)
        return input.withLock { fd in
            guard fd >= 0 else { return false }
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            return sent == bytes.count
        }
    }

    package func start(reportingEvery interval: Double, _ report: (BuildProgress) -> Void) {
        state.withLock { state in
            state.started = true
            state.paused = false
            state.saidAt = ProcessInfo.processInfo.systemUptime
        }
        send(.start)
        // The child hands its operations over; it says nothing of how far
        // (the classes' scenarios are small), and the first events come
        // as soon as it did.
        report(BuildProgress(handedOver: 0, total: 0))
    }

    package func takeEvents() -> [LifecycleEvent] {
        state.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    package func perform(_ action: Action, origin: ActionOrigin) -> Bool {
        let number: Int? = state.withLock { state in
            guard state.started, !state.ended, !state.sawEnd else { return nil }
            defer { state.nextAction += 1 }
            return state.nextAction
        }
        guard let number, send(.act(number, action)) else { return false }
        let until = ProcessInfo.processInfo.systemUptime + Self.answerWait
        while ProcessInfo.processInfo.systemUptime < until {
            let answer: Bool?? = state.withLock { state in
                state.ended ? .some(nil) : state.answers.removeValue(forKey: number).map { .some($0) }
            }
            if let answer { return answer ?? false }
            usleep(1_000)
        }
        // No answer yet: the action was sent, and what it did comes with
        // the stream.
        return true
    }

    package func pause() {
        rebase { $0.paused = true }
        send(.pause)
    }

    package func resume() {
        rebase { $0.paused = false }
        send(.resume)
    }

    package func setSpeed(_ speed: Double) {
        rebase { $0.speed = speed }
        send(.speed(speed))
    }

    package func setPausesAtCaptions(_ on: Bool) {
        state.withLock { $0.lessons = on }
        send(.lesson(on))
    }

    /// Changes the local clock from now on, as the child will.
    private func rebase(_ change: (inout State) -> Void) {
        let wall = ProcessInfo.processInfo.systemUptime
        state.withLock { state in
            state.now = Self.now(state, wall: wall)
            state.saidAt = wall
            change(&state)
        }
    }

    package func stopInBackground() {
        stop.request(signal: SIGTERM)
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    package var isPaused: Bool { state.withLock { !$0.started || $0.paused || $0.ended } }

    package var now: Double {
        let wall = ProcessInfo.processInfo.systemUptime
        return state.withLock { Self.now($0, wall: wall) }
    }

    /// The child's last clock, moved on by the real time since at the
    /// run's speed while it runs; never before the latest event read.
    private static func now(_ state: State, wall: Double) -> Double {
        let moved = state.started && !state.paused && !state.ended ? max(0, wall - state.saidAt) * state.speed : 0
        return max(state.latest, state.now + moved)
    }

    package var isStalled: Bool { state.withLock { $0.stalled } }

    package var observesDispatches: Bool {
        state.withLock { $0.observesDispatches } ?? (EngineState.processDefault != nil)
    }

    package var endedEarly: String? { state.withLock { $0.endedEarly } }

    /// How the child ended, for the user, when it did not end by itself
    /// with a trace's status (0, 1 or 2): a signal with Foundation's (or
    /// the runtime's) last words, or a stop.
    package static func ending(_ outcome: ChildProcess.Outcome) -> String? {
        let words = lastWords(outcome).map { ": \(TerminalText.escaped($0))" } ?? ""
        switch outcome.status {
        case .exited(let status) where (0...2).contains(status):
            return nil
        case .exited(let status):
            return "the run of your classes ended with exit status \(status)" + words
        case .signalled(let signal):
            return "the run of your classes was killed by \(KataGrader.signalName(signal))" + words
        case .timedOut, .stopped:
            return "the run of your classes was stopped"
        }
    }

    /// Foundation's fatal error (from its words on, without the source
    /// file before them), else the last line the child wrote on standard
    /// error.
    static func lastWords(_ outcome: ChildProcess.Outcome) -> String? {
        let said = String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n")
        if let fatal = said.last(where: { $0.contains("Fatal error") }), let words = fatal.range(of: "Fatal error") {
            return String(fatal[words.lowerBound...])
        }
        return said.last { !$0.isEmpty }.map(String.init)
    }
}

extension ChildRun {
    /// What makes the board's runs of a scenario with the user's classes:
    /// each a child of this program, whose library is made (or found
    /// kept) first, on the child run's own thread.
    package static func maker(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ScenarioSession.RunMaker
    {
        { scenario, file, options, wake in
            var environment = environment
            environment[liveVariable] = "1"
            let path = file.path
            let launch = Launch(
                program: InteractiveApp.ownExecutable, arguments: ["trace", path, "--format", "jsonl"],
                environment: environment, source: file.source
            ) {
                OwnClassBuild.library(for: scenario, scenarioPath: path, stop: nil).mapError { why in
                    Unready(
                        why: "your classes cannot run: \(why.summary)"
                            + (why.diagnostics.isEmpty && why.compilerText.isEmpty
                                ? "" : " (opscope check \(TerminalText.escaped(path)) shows where)"))
                }
            }
            return ChildRun(launch: launch, options: options, onEvents: wake)
        }
    }
}
