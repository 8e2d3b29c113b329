import CommandSupport
import Foundation
import Grading
import LifecycleEngine

/// A subcommand: a name, a one-line abstract, its usage text and a `run`.
protocol Subcommand: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    /// Full help: usage line, description, options.
    static var help: String { get }
    /// Runs with the arguments after the subcommand's name and returns
    /// the status it ends with (a command that hands the main thread to
    /// the main queue returns once something there ended it).
    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus
}

/// The command-line entry point.
enum Opscope {
    static let subcommands: [any Subcommand.Type] = [
        RunCommand.self, CheckCommand.self, TraceCommand.self, ReplayCommand.self, DiffCommand.self, WhyCommand.self,
        ListCommand.self,
        SwiftCommand.self,
        QuizCommand.self, PracticeCommand.self,
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

    /// The one place the process exits: with `status`, or with 128 + the
    /// signal when one asked the command to stop (`StopRequest`), whatever
    /// the command did meanwhile. (A signal's last resort, when the main
    /// thread does not answer, is `SignalWatch`'s.)
    static func exit(_ status: ExitStatus) -> Never {
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
        return UsageError("unknown command '\(first)'; run 'opscope --help' for the commands").report()
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
                return UsageError(error.message + "; run 'opscope --help' for the commands").report()
            }
            return error.report()
        }
    }
}
