import Foundation
import ScenarioKit
import Screen

/// `opscope run FILE` (or `opscope FILE`): the interactive view.
enum RunCommand: Subcommand {
    static let name = "run"
    static let abstract = "Open a scenario in the interactive view (also: opscope FILE)"
    static let help = """
        USAGE: opscope run [options] FILE
               opscope [options] FILE
               opscope [options]     (choose a scenario from scenarios/)

        Runs the scenario on Foundation's real OperationQueues and shows each
        operation moving through Pending, Ready, Executing, Finished and
        Cancelled. Keys cancel operations, suspend and resume queues, change a
        queue's cap and an operation's priority; press ? for the list.

        OPTIONS (before or after the file):
          --speed X     scenario seconds per real second (default: 1)
          --paused      start with scenario time paused (space resumes)
          --lesson      open the scenario as a guided lesson
          --ascii       draw with ASCII characters only
          --no-color    no colours (also when NO_COLOR is set)

        Needs a terminal; from a script, use 'opscope trace FILE'.
        """

    static let notATerminal =
        "standard output is not a terminal; the interactive view needs one (from a script, use 'opscope trace FILE')"

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let (args, options) = try parse(arguments)
        guard args.positionals.count <= 1 else {
            throw UsageError("'run' takes one scenario file, not \(args.positionals.count)")
        }
        guard let path = args.positionals.first else {
            return try PickerLauncher.launch(options: options)
        }
        let file = try ScenarioLoading.source(at: path)
        let result = ScenarioLoading.read(file)
        guard let scenario = result.scenario, !result.hasErrors else {
            return ExitStatus.usage
        }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw UsageError(notATerminal)
        }
        MainActor.assumeIsolated {
            InteractiveApp.launch(scenario: scenario, title: path, picker: PickerList([]), paths: [], options: options)
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> (Arguments, InteractiveOptions) {
        let args = try Arguments(arguments, options: ["speed"], flags: ["paused", "lesson", "ascii", "no-color"])
        var options = InteractiveOptions()
        options.speed = try args.positiveNumber("speed")
        options.startsPaused = args.has("paused")
        options.lesson = args.has("lesson")
        options.ascii = args.has("ascii")
        options.noColor = args.has("no-color")
        return (args, options)
    }
}

/// `opscope` without a file: a picker over the scenario library, then the
/// mistakes under a heading of their own.
enum PickerLauncher {
    /// The library folder: `scenarios/` under the current directory.
    static let libraryFolder = "scenarios"
    /// The files that must fail `opscope check`, each teaching one rule.
    static let mistakesFolder = "scenarios/mistakes"
    static let mistakesHeading = "Mistakes: files that fail `opscope check`, each teaching one rule"

    static func launch(options: InteractiveOptions) throws(UsageError) -> Int32 {
        let (list, paths) = catalog()
        guard !paths.isEmpty else {
            throw UsageError(
                "no scenario files in '\(libraryFolder)/' here; run opscope from the project folder, or give a file: 'opscope FILE'")
        }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw UsageError(RunCommand.notATerminal)
        }
        MainActor.assumeIsolated {
            InteractiveApp.launch(scenario: nil, title: "", picker: list, paths: paths, options: options)
        }
    }

    /// The picker's list, and the path of each entry in the order the list
    /// numbers them: the library, then the mistakes (a section only when
    /// the folder has files).
    static func catalog() -> (list: PickerList, paths: [String]) {
        let library = paths(in: libraryFolder)
        let mistakes = paths(in: mistakesFolder)
        var sections = [PickerSection(entries: library.map { read($0).entry })]
        if !mistakes.isEmpty {
            sections.append(PickerSection(heading: mistakesHeading, entries: mistakes.map { read($0).entry }))
        }
        return (PickerList(sections), library + mistakes)
    }

    /// `folder/*.ops` in name order (the library is numbered in teaching order).
    static func paths(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".ops") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Reads `path` without running it: the picker's entry for it, and the
    /// scenario when it can run. A file with errors, or one that cannot be
    /// read, has no scenario; its entry carries exactly what
    /// `opscope check FILE` prints on standard error (without colour), its
    /// title the first error and its note that error's first note.
    static func read(_ path: String) -> (entry: PickerEntry, scenario: Scenario?) {
        let name = (path as NSString).lastPathComponent
        let file: SourceFile
        do {
            file = try ScenarioLoading.source(at: path)
        } catch {
            let entry = PickerEntry(
                fileName: name, title: "error: \(error.message)", diagnostics: ["opscope: error: \(error.message)"])
            return (entry, nil)
        }
        let result = ScenarioReader.read(file)
        guard let scenario = result.scenario, !result.hasErrors else {
            let text = DiagnosticPrinter().renderAll(result, file: file, color: false)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let first = result.diagnostics.first(where: \.isError)
            let entry = PickerEntry(
                fileName: name, title: first.map { "error: \($0.message)" }, firstNote: first?.notes.first,
                diagnostics: lines)
            return (entry, nil)
        }
        return (PickerEntry(fileName: name, title: scenario.title, firstNote: scenario.notes.first), scenario)
    }
}
