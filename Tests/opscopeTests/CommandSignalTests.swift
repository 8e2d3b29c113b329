import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every command ends on SIGINT, SIGTERM, SIGHUP and SIGQUIT with 128 +
/// the signal, at once and without the runtime's crash report, whatever
/// it is doing: waiting for an answer on a pipe that stays open, running
/// a scenario, reading a large file. (The interface's own signals, and
/// the board of `practice`, are `SignalTests`' and `PracticeSignalTests`'.)
@Suite("every command and every signal")
struct CommandSignalTests {
    /// A command, in the state the signal finds it in.
    struct Command: CustomTestStringConvertible, Sendable {
        enum Ready: Sendable {
            /// Waits for an answer: its question's instructions were written.
            case waitsForAnswer
            /// Runs a scenario (or reads a file): the handlers are in place.
            case working
            /// `trace --watch` between saves: its first trace was written.
            case waitsForSave
        }

        let label: String
        let arguments: [String]
        let ready: Ready
        var testDescription: String { label }
    }

    struct Signal: CustomTestStringConvertible, Sendable {
        let number: Int32
        let name: String
        var testDescription: String { name }
    }

    static let signals = [
        Signal(number: SIGINT, name: "SIGINT"), Signal(number: SIGTERM, name: "SIGTERM"),
        Signal(number: SIGHUP, name: "SIGHUP"), Signal(number: SIGQUIT, name: "SIGQUIT"),
    ]

    /// `FILES/…` is the scratch folder of the case.
    static let commands = [
        Command(label: "practice --text", arguments: ["practice", "--text"], ready: .waitsForAnswer),
        Command(label: "quiz FILE", arguments: ["quiz", "FILES/quiz.ops"], ready: .waitsForAnswer),
        Command(
            label: "quiz --generate", arguments: ["quiz", "--generate", "--level", "2", "--seed", "7"],
            ready: .waitsForAnswer),
        Command(label: "diff", arguments: ["diff", "FILES/slow.ops", "FILES/slow.ops"], ready: .working),
        Command(label: "why", arguments: ["why", "FILES/slow.ops", "slow"], ready: .working),
        Command(label: "trace", arguments: ["trace", "FILES/slow.ops"], ready: .working),
        Command(label: "trace --repeat", arguments: ["trace", "--repeat", "3", "FILES/slow.ops"], ready: .working),
        Command(label: "trace --watch, tracing", arguments: ["trace", "--watch", "FILES/slow.ops"], ready: .working),
        Command(
            label: "trace --watch, waiting for a save", arguments: ["trace", "--watch", "FILES/quick.ops"],
            ready: .waitsForSave),
        Command(label: "check of a large file", arguments: ["check", "FILES/large.ops"], ready: .working),
        Command(label: "swift of a large file", arguments: ["swift", "FILES/large.ops"], ready: .working),
    ]

    static let slow = """
        queue q
        op a work 1ms
        op slow work 60s after a
        """

    static let quiz = """
        queue q serial
        op fetch work 10ms
        op save work 10ms after fetch
        quiz "In which order do they start?" answer start-order
        """

    /// 200,000 operations: seconds of reading in a debug build.
    static let large = "queue q\n" + (0..<200_000).map { "op o\($0) work 1ms\n" }.joined()

    @Test(
        "a signal ends the command at once with 128 + it, and no crash report",
        arguments: commands, signals)
    func aSignalEndsTheCommand(_ command: Command, _ signal: Signal) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        _ = try scratch.write("slow.ops", Self.slow)
        _ = try scratch.write("quiz.ops", Self.quiz)
        _ = try scratch.write("quick.ops", "op a work 1ms\n")
        if command.arguments.contains("FILES/large.ops") { _ = try scratch.write("large.ops", Self.large) }
        let arguments = command.arguments.map {
            $0.replacingOccurrences(of: "FILES/", with: scratch.directory.path + "/")
        }
        // practice keeps its record in the scratch folder, never the user's.
        let running = try RunningOpscope(
            arguments, environment: ["XDG_DATA_HOME": scratch.directory.appendingPathComponent("data").path])
        // The program's own watch: SIGWINCH is the last signal it takes
        // (the Swift runtime's crash handler takes SIGQUIT before it, at
        // start; a SIGQUIT then would be a crash report, not the program's).
        try running.waitForHandler(of: SIGWINCH)
        try running.waitForHandler(of: signal.number)
        switch command.ready {
        case .waitsForAnswer:
            try running.waitForOutput("Type ")
            running.waitForPoll()
        case .working:
            break
        case .waitsForSave:
            try running.waitForOutput("run completed")
        }
        let stopped = try #require(
            running.stop(with: signal.number), "\(command.label) still runs 30 s after \(signal.name)")
        #expect(stopped.result.status == 128 + signal.number, "stderr: \(stopped.result.stderr)")
        // At once: the generous bound holds on a loaded machine; measured
        // a few milliseconds, 0.5 s where the main thread is working.
        #expect(stopped.seconds < 10)
        for crash in ["crashed", "Backtrace", "💣", "Fatal error", "Press space"] {
            #expect(!stopped.result.stderr.contains(crash), "stderr: \(stopped.result.stderr)")
        }
    }
}
