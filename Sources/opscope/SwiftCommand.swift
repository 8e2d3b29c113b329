import CommandSupport
import Foundation
import ScenarioKit

/// `opscope swift FILE`: print the scenario as a complete Swift program
/// that builds the same queues and operations with Foundation's real API.
enum SwiftCommand: Subcommand {
    static let spec = CommandSpec(
        name: "swift", abstract: "Print a scenario as a Swift program using Foundation's OperationQueue",
        usage: [["swift", "FILE", .optional("gcd")]],
        about: """
            Prints, on standard output, a complete and commented Swift program that
            builds the scenario's queues and operations with Foundation's real
            OperationQueue API, performs its timed actions, prints "start NAME" and
            "finish NAME" as operations start and finish, and ends with how each
            operation ended: finished, cancelled (while it ran), skipped (cancelled
            before it started) or stuck (it never finished); run with --facts, it
            adds one line per fact for tools. Its expectations become comments at
            the end.

                opscope swift scenarios/05-priority.ops > priority.swift
                swiftc -O priority.swift -o priority && ./priority

            With --gcd, the same graph without Operation: DispatchQueues,
            DispatchWorkItems, a DispatchGroup for each one's end, which its
            dependents wait for, a semaphore for a cap. It prints the same lines, so
            the two runs read side by side, and its first comment says what GCD does
            differently for this scenario, and what it leaves out (a live cap
            change, a priority).

            Diagnostics go to standard error, as with 'check'; warnings do not
            prevent the program.
            """,
        options: [.flag("gcd", "write the graph with plain GCD instead of OperationQueue")],
        epilogue: """
            EXIT STATUS: 0 when the program was printed; 2 when the file has
            errors or the command line is wrong.
            """)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.count == 1 else {
            throw UsageError(
                args.positionals.isEmpty
                    ? "'swift' needs a scenario file"
                    : "'swift' takes one scenario file, not \(args.positionals.count)")
        }
        let path = args.positionals[0]
        let result = ScenarioLoading.readAcceptingOwnCode(try ScenarioLoading.source(at: path))
        guard let scenario = result.scenario else { return .usage }
        if args.has("gcd"), let why = GCDProgramPrinter.unwritable(scenario) {
            throw UsageError(why)
        }
        let program =
            args.has("gcd")
            ? GCDProgramPrinter(sourceName: path).program(for: scenario)
            : SwiftProgramPrinter(sourceName: path).program(for: scenario)
        StandardOutput.write(program)
        return .success
    }
}
