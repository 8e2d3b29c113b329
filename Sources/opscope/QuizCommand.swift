import Board
import CommandSupport
import Dispatch
import Foundation
import Grading
import Interactive
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen
import TextKit

/// `opscope quiz FILE`: interview practice. Shows the scenario, asks its
/// quiz, reads the answer, runs the scenario on the real engine, then
/// grades the answer and explains every difference with the rule that
/// decided it.
enum QuizCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quiz", abstract: "Answer a scenario's quiz, then let the real engine grade and explain it",
        usage: [
            ["quiz", "FILE", .optional("answer"), .optional("text"), .optional("speed")],
            [
                "quiz", .required("generate"), .optional("level", "1|2|3"), .optional("seed"), .optional("save"),
                .optional("answer"), .optional("speed"),
            ],
        ],
        about: """
            On a terminal, the question opens on the board (predict mode): the
            cards and the question, nothing that gives the answer away; type the
            answer (Tab adds the selected card's name), Enter runs the scenario
            on the real engine and grades it there, Enter then goes to the
            moment that decided each wrong row, r asks again on a fresh run.
            With --text, or from a pipe, or with --answer, it is asked here:

            Prints the scenario (queues, operations in the order they are added,
            timed actions) and its question, reads your answer from standard
            input, runs the scenario on Foundation's real OperationQueues, then
            scores the answer and explains each difference with the rule that
            decided it (dependencies, priority, insertion order, the cap,
            suspension, cancellation, the worker-thread ramp). The scenario's
            title and notes are shown after the result: they often give the
            answer away.

            A start-order answer scores the longest run of operations it has in
            the right relative order, less one for each name that never started,
            out of the operations that started: one name too many, one left out
            or one pair swapped costs one point. The table lines your answer up
            with the run as a diff does: the ones in order share a row (✓), the
            others get rows of their own (✗ never started, left out, out of place).

            The file needs a quiz statement:
                quiz "In which order do they start?" answer start-order
                quiz "How does each one end?" answer final-state
                quiz "How many run at once, at most?" answer peak
                quiz "How many end each way?" answer counts
                quiz "How many are in each column at 450ms?" answer columns at 450ms
                quiz "Which run on the main thread?" answer main-thread
                quiz "Whose completion blocks run?" answer completions
                quiz "Whose run before save starts?" answer completions before save
                quiz "Do fetch and save run at once?" answer together fetch, save

            Answers:
              start-order   the operations in the order they START, separated by
                            commas or spaces, on one line; leave out those you
                            think never start:   fetch, parse, save
              final-state   one 'NAME STATE' per line or separated by commas,
                            ended by an empty line or end of input; STATE is
                            finished, cancelled (ran, then cancelled), skipped
                            (cancelled before it started) or stuck (never
                            finished):   fetch finished, thumbs skipped
              peak          one 'QUEUE N' per queue, per line or separated by
                            commas, ended by an empty line; a bare N when one
                            queue has operations:   net 2, disk 1
              counts        a count per state on one line; a state left out
                            is 0:   finished 98, cancelled 2
              main-thread   the operations that run on the main thread, on one
                            line, or none:   show, render
              completions   the operations whose completion blocks run (before
                            the named one starts), on one line, or none:
                            fetch, thumbs
              together      yes or no
              columns       a count per column of the board at the question's
                            moment, on one line; a column left out is 0:
                            ready 2, executing 2, finished 2

            On a terminal, an answer with unknown names is asked again; from a
            pipe or with --answer, it is an error.

            With --generate, opscope makes a fresh question whose answer is fixed
            on this engine by construction, confirms it with three runs on the
            real engine, then asks it like a file's (docs/GENERATED-QUESTIONS.md).
            Level 1: dependencies and priority on a serial queue, the main thread,
            the cap, and a cancel while an operation runs; 2 adds quality of
            service, cancelling before the start, cancelled dependencies, cap
            changes and suspension (mid-run too), and completion blocks that let
            an operation go; 3 adds queues that depend on each other, barriers,
            asynchronous operations that forget to finish, which completion
            blocks run, and peaks. The same level and seed always make the same
            question.
            """,
        options: [
            .flag("generate", "make a question instead of reading a file"),
            .value("level", "N", "with --generate: 1, 2 or 3 (default: 1)"),
            .value(
                "seed", "N",
                "with --generate: the question's number, 0 to 18446744073709551615 (default: one drawn at random, "
                    + "and printed so that you can ask it again)"),
            .value(
                "save", "FILE",
                "with --generate: write the question to FILE (a new file; an existing one is never replaced) "
                    + "instead of asking it"),
            .answer,
            .text,
            .speed(
                "(default: 4; a 'columns' question, at its file's own speed). The scenario's timing decides the "
                    + "answer, not the speed; only the worker-thread ramp of synchronous work (about one thread a "
                    + "second, real time) does not scale."),
        ],
        epilogue: """
            EXIT STATUS: 0 when the answer was entirely right (with --save: when
            the file was written); 1 when it was not, or when no question could
            be generated or saved; 2 when the file has errors or no quiz, the
            answer cannot be read, or the command line is wrong.
            """, summaryColumn: 18)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        if args.has("generate") { return try QuizGenerate.run(args) }
        if let option = ["level", "seed", "save"].first(where: { args.value($0) != nil }) {
            throw UsageError("'--\(option)' goes with --generate (opscope quiz --generate --\(option) …)")
        }
        guard args.positionals.count == 1 else {
            throw UsageError(
                args.positionals.isEmpty
                    ? "'quiz' needs a scenario file"
                    : "'quiz' takes one scenario file, not \(args.positionals.count)")
        }
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 4)
        let path = args.positionals[0]
        let file = try ScenarioLoading.source(at: path)
        // Errors stop the quiz at once; warnings wait for the verdict, in
        // one line: they are about the file, and often about the very
        // thing asked (lesson 33's start of an operation not ready yet).
        let result = ScenarioReader.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else {
            ScenarioLoading.report(result, file: file)
            return .usage
        }
        let warnings = result.diagnostics.count
        let trailer =
            warnings == 0
            ? ""
            : "\n'opscope check' finds \(Spelling.count(warnings, "warning")) in this file: "
                + "'opscope check \(TerminalText.escaped(path))' shows \(warnings == 1 ? "it" : "them").\n"
        guard scenario.quiz != nil else {
            throw UsageError(
                "'\(path)' has no quiz; add one, like: quiz \"In which order do they start?\" answer start-order")
        }
        // The user's classes run in a child: built (or found kept) first,
        // so that what is wrong with them is said before the question.
        var library: String?
        if !scenario.customOperations.isEmpty {
            guard let made = try OwnClassRun.prepare(file, scenario) else { return .usage }
            library = made
        }
        if args.value("answer") == nil, !args.has("text"), isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            // On a terminal the question opens on the board (predict mode).
            var options = InteractiveOptions()
            options.asQuestion = true
            // A library file's first answer is kept for `opscope practice`.
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            if folder == URL(fileURLWithPath: PickerLauncher.libraryFolder).standardizedFileURL.path {
                options.practiceQuestion = (path as NSString).lastPathComponent
            }
            if args.value("speed") != nil { options.speed = min(max(speed, 0.125), 64) }
            return MainActor.assumeIsolated {
                InteractiveApp.launch(
                    ScenarioOpening(scenario: scenario, file: file), picker: PickerList([]), paths: [], options: options
                )
            }
        }
        let pace = pace(for: scenario, asked: args.value("speed") != nil ? speed : nil)
        return ask(
            scenario, answer: args.value("answer"), speed: pace, trailer: trailer,
            recordRun: library.map { OwnClassRun.recorder(file.path, library: $0, speed: pace) })
    }

    /// The speed `scenario`'s question runs at: `asked` (`--speed`) when
    /// given, else ×1 for one with the user's classes, else ×4, but a `columns` question at its file's own speed
    /// when that is slower. Its answer is the run's board at a moment, and a
    /// run on a busy machine falls behind a little more at every hand-over:
    /// at ×4 that lateness is four times larger in scenario time and can
    /// carry an operation across the moment the file chose for its pace.
    static func pace(for scenario: Scenario, asked: Double?) -> Double {
        if let asked { return asked }
        // The user's classes run in real time: at ×1 the run's times are
        // their code's.
        if !scenario.customOperations.isEmpty { return 1 }
        if scenario.quiz?.kind == .columns, let own = scenario.speed { return min(own, 4) }
        return 4
    }

    /// Asks `scenario`'s quiz (it has one): prints the sheet, reads the
    /// answer (`answer`, else standard input), runs the scenario, grades
    /// the answer and explains it; the status says whether it was right.
    ///
    /// A run that ends while a wait of the scenario holds the main thread
    /// (a deadlock: nothing can end that wait) is graded all the same, but
    /// the main thread never comes back to return the status: `mainThreadLost`
    /// gets it instead, on another thread, and must not return (the
    /// default exits with it).
    /// `trailer` is written after the verdict.
    /// `recordRun`, when given, makes the run in a child instead
    /// (`OwnClassRun.recorder`, for the user's classes).
    static func ask(
        _ scenario: Scenario, answer text: String?, speed: Double, trailer: String = "",
        recordRun: (@Sendable () -> [LifecycleEvent])? = nil,
        mainThreadLost: @escaping @Sendable (ExitStatus) -> Never = { Opscope.endWithoutMainThread($0) }
    ) -> ExitStatus {
        guard let quiz = scenario.quiz else { return .usage }
        QuizOutput.write(QuizSheet.text(for: scenario) + "\n")
        let answer: QuizAnswer
        if let text {
            switch QuizAnswerParser.parse(text, kind: quiz.kind, scenario: scenario) {
            case .success(let parsed): answer = parsed
            case .failure(let error): return report(error)
            }
        } else {
            switch readAnswer(kind: quiz.kind, scenario: scenario) {
            case .answer(let parsed): answer = parsed
            case .status(let status): return status
            }
        }

        QuizOutput.write("\nRunning the scenario on the real engine (speed ×\(speedText(speed)))…\n")
        // As `trace` does: the main thread serves the main dispatch queue, so
        // a queue declared `main` is OperationQueue.main on the main thread,
        // until the run ends and the answer is graded.
        return MainActor.assumeIsolated {
            QuizSession.run(
                scenario: scenario, answer: answer, speed: speed, trailer: trailer, recordRun: recordRun,
                mainThreadLost: mainThreadLost)
        }
    }

    private enum Reading {
        case answer(QuizAnswer)
        case status(ExitStatus)
    }

    /// Prompts for the answer on standard input; on a terminal, asks again
    /// until it can be read. A signal while it waits ends the command with
    /// its status.
    private static func readAnswer(kind: QuizKind, scenario: Scenario) -> Reading {
        let terminal = isatty(0) == 1
        QuizOutput.write(QuizAnswerParser.instructions(for: kind) + "\n")
        while true {
            let text: String
            switch readAnswerText(kind: kind, terminal: terminal) {
            case .line(let read):
                text = read
            case .end:
                return .status(UsageError("no answer on standard input (or give one with --answer)").report())
            case .stopped(let status):
                // The shell's prompt then starts on a line of its own.
                if terminal { QuizOutput.write("\n") }
                return .status(status)
            }
            switch QuizAnswerParser.parse(text, kind: kind, scenario: scenario) {
            case .success(let answer):
                return .answer(answer)
            case .failure(let error):
                guard terminal else { return .status(report(error)) }
                for message in error.messages { QuizOutput.write("  \(message)\n") }
                QuizOutput.write("Try again.\n")
            }
        }
    }

    /// One line for start-order; for final-state, lines up to an empty line
    /// or the end of input. Blank lines before the answer are skipped. The
    /// end of input with no answer is `.end`; a signal, `.stopped`.
    private static func readAnswerText(kind: QuizKind, terminal: Bool) -> LineInput.Reading {
        var lines: [String] = []
        reading: while true {
            if terminal { QuizOutput.write("> ") }
            // Not stdio's: answers typed ahead stay for an opscope that
            // takes over after a deadlock (`PracticeSession`).
            switch LineInput.readLine() {
            case .stopped(let status):
                return .stopped(status)
            case .end:
                break reading
            case .line(let line):
                if line.allSatisfy(\.isWhitespace) {
                    if lines.isEmpty { continue }
                    break reading
                }
                lines.append(line)
                if QuizAnswerParser.takesOneLine(kind) { break reading }
            }
        }
        return lines.isEmpty ? .end : .line(lines.joined(separator: "\n"))
    }

    private static func report(_ error: QuizAnswerError) -> ExitStatus {
        for message in error.messages { MessagePrinter.standardError.error(message) }
        return .usage
    }

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() && abs(speed) < 1e9 ? String(Int(speed)) : String(speed)
    }
}

/// Standard output without stdio's buffer, so prompts show at once and
/// nothing is reordered with the session's output.
enum QuizOutput {
    static func write(_ text: String) { StandardOutput.write(text) }
}
