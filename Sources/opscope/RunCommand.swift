import CommandSupport
import Foundation
import Interactive
import ScenarioKit
import Screen

/// `opscope run FILE` (or `opscope FILE`): the interactive view.
enum RunCommand: Subcommand {
    static let spec = CommandSpec(
        name: "run", abstract: "Open a scenario in the interactive view (also: opscope FILE)",
        usage: [
            ["run", "[options]", "FILE"], ["[options]", "FILE"],
            ["[options]", "    (choose a scenario from scenarios/)"],
        ],
        about: """
            Runs the scenario on Foundation's real OperationQueues and shows each
            operation moving through Pending, Ready, Executing, Finished and
            Cancelled. Keys cancel operations, suspend and resume queues, change a
            queue's cap and an operation's priority; press ? for the list.
            """,
        optionsHeading: "OPTIONS (before or after the file)",
        options: [
            .speed("(default: the file's speed line, else 1)"),
            .flag("paused", "open it not started: nothing runs until Space"),
            .flag("lesson", "lesson mode: pause at each of the scenario's captions"),
            .flag(
                "watch",
                "run the file again each time it is saved (its errors, if it has any, show over the run); d "
                    + "compares the new run with the one before"),
            .value(
                "picked", "FILE",
                "open the picker with FILE open from it, as Enter on its entry would (what r does after a deadlock)"),
            .value("picked-question", "FILE", "the same, with FILE's entry under the questions"),
            .ascii, .noColor,
        ],
        epilogue: "Needs a terminal; from a script, use 'opscope trace FILE'.", summaryColumn: 16)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let (args, options) = try parse(arguments)
        guard args.positionals.count <= 1 else {
            throw UsageError("'run' takes one scenario file, not \(args.positionals.count)")
        }
        if options.picked != nil, !args.positionals.isEmpty {
            throw UsageError("'--picked' opens the picker with a file open from it: give no other file")
        }
        guard let path = args.positionals.first else {
            if options.watch { throw UsageError("'--watch' needs a scenario file to watch") }
            return try PickerLauncher.launch(options: options)
        }
        // A recording, not a scenario: `opscope RUN.jsonl` replays it.
        if path.hasSuffix(".jsonl") {
            if options.watch {
                throw UsageError.oneRunAlready("watch")
            }
            return try ReplayCommand.run(arguments.filter { $0 != "--paused" })
        }
        let file = try ScenarioLoading.source(at: path)
        let result = ScenarioLoading.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else {
            return .usage
        }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw UsageError(PickerLauncher.notATerminal)
        }
        if !scenario.customOperations.isEmpty {
            return try OwnClassRun.board(file, scenario, options: options)
        }
        return MainActor.assumeIsolated {
            InteractiveApp.launch(
                ScenarioOpening(scenario: scenario, file: file), picker: PickerList([]), paths: [], options: options)
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> (Arguments, InteractiveOptions) {
        let args = try spec.parse(arguments)
        var options = InteractiveOptions()
        options.speed = try args.speed("speed", in: SpeedRange.interactive)
        options.startsPaused = args.has("paused")
        options.lesson = args.has("lesson")
        options.ascii = args.has("ascii")
        options.noColor = args.has("no-color")
        options.watch = args.has("watch")
        switch (args.value("picked"), args.value("picked-question")) {
        case (let path?, nil): options.picked = (path, false)
        case (nil, let path?): options.picked = (path, true)
        case (nil, nil): break
        case (_?, _?): throw UsageError("'--picked' and '--picked-question' open one entry: give one of them")
        }
        return (args, options)
    }
}
