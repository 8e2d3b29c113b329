import CommandSupport
import Dispatch
import Foundation
import Interactive
import LifecycleEngine
import RunFormats
import ScenarioKit

/// The child's side of a live board of the user's classes (`ChildRun` is
/// the board's): `opscope trace FILE --format jsonl` with the library
/// loaded, which waits for the board's `start`, runs as a board's run does
/// (a stall waits for the user), carries out the board's commands from its
/// standard input as they come, and says its clock and the end of each
/// action on the stream of its recording (`LiveReport`).
///
/// It ends with its run, or as soon as its standard input does: the board
/// closed it (quit, restart) or is gone.
enum OwnClassLive {
    /// Set to `1` for a child that serves a board.
    static let variable = ChildRun.liveVariable

    static var isLive: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// How often the child says its clock.
    static let clockInterval = DispatchTimeInterval.milliseconds(50)

    static func serve(_ settings: TraceSession.Settings, speed: Double) -> ExitStatus {
        let input = CommandLines()
        var speed = speed
        var lesson = false
        waiting: while true {
            // The board went before the run started.
            guard let line = input.next() else { return .success }
            switch LiveCommand(line: line[...], scenario: settings.scenario) {
            case .start: break waiting
            case .speed(let new): speed = new
            case .lesson(let on): lesson = on
            default: continue
            }
        }
        var settings = settings
        let lessons = lesson
        settings.configure = { options in
            options.stallPolicy = .waitsForUser
            options.pausesAtCaptions = lessons
        }
        let session = MainActor.assumeIsolated { [settings] in TraceSession.start(settings, speed: speed) }
        let (run, output) = MainActor.assumeIsolated { (session.mainQueueRun, session.output) }
        guard let run else { return .failed }
        let scenario = settings.scenario
        let commands = Thread {
            while let line = input.next() {
                guard let command = LiveCommand(line: line[...], scenario: scenario) else { continue }
                carryOut(command, on: run, session: session)
            }
            // The board closed the pipe: nobody reads what follows, and the
            // child stops as at a signal (`TraceInterruption`).
            kill(getpid(), SIGTERM)
        }
        commands.name = "opscope board commands"
        commands.start()
        let clock = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "opscope.live-clock"))
        clock.schedule(deadline: .now(), repeating: clockInterval)
        clock.setEventHandler {
            guard let scenarioRun = run.scenarioRun else { return }
            let report = LiveReport.clock(
                now: scenarioRun.now, paused: scenarioRun.isPaused, stalled: scenarioRun.isStalled)
            output.append { $0.append(report.line + "\n") }
        }
        clock.resume()
        let status = MainActor.assumeIsolated { session.serve() }
        clock.cancel()
        return status
    }

    /// Carries out `command` (on the commands' thread); an action's end is
    /// said once what it caused is written.
    private static func carryOut(_ command: LiveCommand, on run: MainQueueRun, session: TraceSession) {
        var scenarioRun = run.scenarioRun
        // Made on a thread of its own as the run starts: there in moments.
        while scenarioRun == nil {
            usleep(1_000)
            scenarioRun = run.scenarioRun
        }
        guard let scenarioRun else { return }
        switch command {
        case .start: break
        case .pause: scenarioRun.pause()
        case .resume: scenarioRun.resume()
        case .speed(let speed): scenarioRun.setSpeed(speed)
        case .lesson(let on): scenarioRun.pausesAtCaptions = on
        case .act(let number, let action):
            let performed = scenarioRun.perform(action, origin: .user)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    session.drainNow()
                    session.output.append { $0.append(LiveReport.done(number, performed: performed).line + "\n") }
                }
            }
        }
    }
}

/// The lines of standard input, read as they come.
private final class CommandLines: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private var atEnd = false

    /// The next line, without its newline; nil at the end of the input.
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard !atEnd else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(STDIN_FILENO, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                atEnd = true
                continue
            }
            buffer += chunk[0..<count]
        }
    }
}
