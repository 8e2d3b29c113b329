import CommandSupport
import Foundation
import Grading
import LifecycleEngine

/// A subcommand: its table (name, abstract, usage, options: what its
/// parser reads and its help says) and a `run`.
protocol Subcommand: Sendable {
    static var spec: CommandSpec { get }
    /// Runs with the arguments after the subcommand's name and returns
    /// the status it ends with (a command that hands the main thread to
    /// the main queue returns once something there ended it).
    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus
}

extension Subcommand {
    static var name: String { spec.name }
    static var abstract: String { spec.abstract }
    /// Full help: usage lines, description, options, made from `spec`.
    static var help: String { spec.help }
}

/// The command-line entry point.
enum Opscope {
    static let subcommands: [any Subcommand.Type] = [
        RunCommand.self, CheckCommand.self, TraceCommand.self, ReplayCommand.self, DiffCommand.self, WhyCommand.self,
        ListCommand.self,
        SwiftCommand.self,
        QuizCommand.self, PracticeCommand.self, KataCommand.self,
        HelpCommand.self,
    ]

    static let overview = """
        opscope — watch Foundation's Operation and OperationQueue really run

        USAGE: opscope [options] [FILE]      open a scenario (or pick one) in the interactive view
               opscope <command> [options]

        COMMANDS:
        \(subcommands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.abstract }.joined(separator: "\n"))

        A scenario file (*.ops) describes queues, operations, dependencies,
        priorities, timed actions and expectations; see docs/SCENARIO-LANGUAGE.md.
        Run 'opscope help <command>' for a command's options.

        ENVIRONMENT:
          \(EngineState.environmentVariable)=off   run without reading Foundation's state for the moment
                                 of each dispatch: every command's run shows an operation
                                 as dispatched when it starts, says so (the trace's header,
                                 the notes), and withholds the captions about a dispatch
          NO_COLOR=1             no colours in the interactive view
        """

    /// Runs the command and exits with its status.
    static func main(_ arguments: [String]) -> Never {
        exit(run(arguments))
    }

    /// The end of a command whose main thread a scenario's wait holds for
    /// good (a deadlock through `OperationQueue.main`): the main thread
    /// never comes back to return the status to `main`, so the thread that
    /// stands in for it (`MainThreadStandIn`) ends the process here, once
    /// the command's `CommandEnd` has the status (`trace`, `trace
    /// --repeat`, `quiz`, `practice`). The only way out but `main`'s.
    static func endWithoutMainThread(_ status: ExitStatus) -> Never {
        exit(status)
    }

    /// The one place the process exits: with `status`, or with 128 + the
    /// signal when one asked the command to stop (`StopRequest`), whatever
    /// the command did meanwhile. No other code of this program calls
    /// `exit` (`OneExitTests`); `CursesBackend`'s `_exit`s are the signal
    /// watch's last resort and the blocked line's `q`, which must not run
    /// atexit handlers (DECISIONS.md, "Exit only in main").
    private static func exit(_ status: ExitStatus) -> Never {
        Foundation.exit((StopRequest.process.status ?? status).code)
    }

    static func run(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else {
            return invoke(RunCommand.self, [])
        }
        if first == "--help" || first == "-h" {
            print(overview)
            return .success
        }
        if first == "--version" {
            print("opscope \(Version.opscope) (scenario language version \(Version.language))")
            return .success
        }
        if let command = subcommands.first(where: { $0.name == first }) {
            return invoke(command, Array(arguments.dropFirst()))
        }
        // `opscope [options] [FILE] [options]`: the interactive view, its
        // options before or after the file, or with no file (the picker).
        if first.hasPrefix("-") || first.hasSuffix(".ops") || FileManager.default.fileExists(atPath: first) {
            return invoke(RunCommand.self, arguments, commandNamed: false)
        }
        return UsageError.unknownCommand(first).report()
    }

    /// Runs `command` with `arguments`, or prints its help for `--help`.
    /// `commandNamed` is false for `opscope [options] FILE`, where an
    /// unknown option may as well be a command's option given without the
    /// command: the error then points to the list of commands.
    private static func invoke(
        _ command: any Subcommand.Type, _ arguments: [String], commandNamed: Bool = true
    ) -> ExitStatus {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help)
            return .success
        }
        do {
            return try command.run(arguments)
        } catch {
            if !commandNamed, error.unknownOption != nil {
                return UsageError(error.message + UsageError.toTheCommands).report()
            }
            return error.report()
        }
    }
}
