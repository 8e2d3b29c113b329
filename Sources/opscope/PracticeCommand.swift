import CommandSupport
import Foundation
import Interactive
import Practice
import ScenarioKit
import Screen
import TextKit

/// `opscope practice`: the next question — what is due, the library's
/// quizzes, then generated ones — asked as `quiz` asks, its answer kept in
/// the user's data folder so that a missed one comes back.
enum PracticeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "practice", abstract: "Practise: the next question, and missed ones again later",
        usage: [
            [
                "practice", .optional("count"), .optional("answer"), .optional("text"), .optional("speed"),
                .optional("reset"),
            ]
        ],
        about: """
            Asks the next question exactly as 'opscope quiz' does. On a terminal it
            opens on the board (predict mode): the cards, the timed actions and the
            question, nothing that gives the answer away (no title, note or
            caption); type the answer, Enter runs it on the real engine and grades
            it there; q then goes on to the next question (with --count) or ends.
            With --text, from a pipe or with --answer, it says how your practice
            stands (per concept: dependencies, priority, QoS, cancellation, cap,
            barriers, async, completion blocks, suspension, main thread), then asks
            here: the scenario, your answer, a run on the real engine, the grade
            and why.

            Which question: one that is due again first (a missed one comes back
            10 minutes later; one you got right comes back after 1 day, then 3, 9,
            27, 81 days while you keep getting it right); else the next quiz of
            the library (scenarios/*.ops under the current folder, in file order)
            you have not answered; else a new generated question (as 'opscope quiz
            --generate' makes them): level 1 until you got three right, then level
            2, then level 3.

            Your answers are kept in $XDG_DATA_HOME/opscope/practice.json (else
            ~/.local/share/opscope/practice.json), written whole or not at all. A
            file that cannot be read is set aside beside it, never written over.
            """,
        options: [
            .value("count", "N", "ask N questions in a row (default: 1)"),
            .value(
                "answer", "TEXT",
                "the answer to the one question, instead of reading standard input (not with --count above 1)"),
            .text,
            .speed("(default: 4; a 'columns' question, at its file's own speed)"),
            .flag(
                "reset",
                "set your practice file aside (saying where) and stop: the next 'opscope practice' starts over"),
        ],
        epilogue: """
            EXIT STATUS: 0 when every answer was entirely right (or after --reset);
            1 when one was not, or a question could not be made; 2 when an answer
            cannot be read, no data folder is known, or the command line is wrong.
            """, summaryColumn: 18)

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.isEmpty else {
            throw UsageError("'practice' takes no file: it picks its questions (see 'opscope help practice')")
        }
        let count = try args.whole("count", in: 1...1000, default: 1)
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 4)
        if count > 1, args.value("answer") != nil {
            throw UsageError("'--answer' answers one question: it cannot go with '--count \(count)'")
        }
        guard let folder = PracticeStore.folder(environment: ProcessInfo.processInfo.environment) else {
            throw UsageError("no data folder to keep your practice in: set HOME or XDG_DATA_HOME")
        }
        let store = PracticeStore(folder: folder)
        if args.has("reset") {
            if args.value("answer") != nil || args.value("count") != nil {
                throw UsageError("'--reset' only sets your practice aside: it asks no question")
            }
            return reset(store)
        }
        let session = PracticeSession(store: store, speed: args.value("speed") != nil ? speed : nil)
        if args.value("answer") == nil, !args.has("text"), isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return session.onBoard(count: count, speed: session.speed)
        }
        return session.run(count: count, answer: args.value("answer"))
    }

    private static func reset(_ store: PracticeStore) -> ExitStatus {
        do {
            guard let aside = try store.reset(now: Date()) else {
                QuizOutput.write(
                    "There is no practice file to set aside ('\(TerminalText.escaped(store.path))'): you start afresh "
                        + "anyway.\n")
                return .success
            }
            QuizOutput.write(
                "Your practice file was set aside as '\(aside)'. The next 'opscope practice' starts over.\n")
            return .success
        } catch {
            MessagePrinter.standardError.error(error.message)
            return .failed
        }
    }
}

/// One `opscope practice`: the summary, then each question in turn.
struct PracticeSession: Sendable {
    let store: PracticeStore
    /// `--speed`, if given; each question otherwise runs at its own pace
    /// (`QuizCommand.pace`).
    let speed: Double?
    let library = PracticeLibrary.load(folder: "scenarios")

    /// The record as this session keeps it, and whether it can still write it.
    struct Keeping: Sendable {
        var record: PracticeRecord
        var canSave: Bool
    }

    func run(count: Int, answer: String?) -> ExitStatus {
        let loaded = store.load(now: Date())
        for message in loaded.messages { MessagePrinter.standardError.warning(message) }
        var keeping = Keeping(record: loaded.record, canSave: loaded.canSave)
        let files = library.map(\.fileName)
        QuizOutput.write(PracticeSummary.text(keeping.record, library: files, now: Date()))
        var allRight = true
        for number in 1...count {
            // A signal during the last save, or the summary: no new question.
            if let stopped = StopRequest.process.status { return stopped }
            let choice = PracticeScheduler.next(record: keeping.record, library: files, now: Date())
            let position = count == 1 ? "" : " \(number) of \(count)"
            QuizOutput.write("\nQuestion\(position): \(PracticeSummary.heading(choice, now: Date()))\n\n")
            guard let (scenario, concepts) = question(for: choice.id) else { return .failed }
            let kept = keeping
            let soFar = allRight
            let status = QuizCommand.ask(
                scenario, answer: answer, speed: QuizCommand.pace(for: scenario, asked: speed),
                mainThreadLost: { status in
                    // A deadlock holds this process's main thread for good: the
                    // answer is kept all the same, and the questions left are
                    // asked by a fresh opscope (each run needs a main thread).
                    var keeping = kept
                    self.keep(status, for: choice.id, concepts: concepts, in: &keeping)
                    self.goOn(after: number, of: count, allRight: soFar && status == .success)
                })
            guard status == .success || status == .failed else { return status }
            allRight = allRight && status == .success
            keep(status, for: choice.id, concepts: concepts, in: &keeping)
        }
        return allRight ? .success : .failed
    }

    /// On a terminal: each question on the board, in predict mode, its
    /// first answer kept by the board; the next once the last is left.
    func onBoard(count: Int, speed: Double?) -> ExitStatus {
        let files = library.map(\.fileName)
        let keeper = PracticeKeeper(folder: store.folder)
        var status = ExitStatus.success
        for number in 1...count {
            // A signal between two questions (the board takes them while open).
            if let stopped = StopRequest.process.status { return stopped }
            let record = store.load(now: Date()).record
            let path: String
            switch PracticeScheduler.next(record: record, library: files, now: Date()).id {
            case .library(let file):
                path = PickerLauncher.libraryFolder + "/" + file
            case .generated(let level, let seed):
                guard let made = keeper.generatedFile(level: level, seed: seed) else {
                    MessagePrinter.standardError.error(
                        "the generated question (level \(level), seed \(seed)) could not be made or kept in "
                            + "'\(store.folder)/questions'")
                    return .failed
                }
                path = made
            case .kata(let name):
                // Never chosen: the scheduler keeps a kata's result and never asks it.
                MessagePrinter.standardError.error("practice does not ask katas: run 'opscope kata \(name)'")
                return .failed
            }
            guard let opening = PickerLauncher.read(path).opening else {
                MessagePrinter.standardError.error("'\(path)' cannot be asked: 'opscope check \(path)' says why")
                return .failed
            }
            var options = InteractiveOptions()
            options.asQuestion = true
            options.practiceQuestion = (path as NSString).lastPathComponent
            if let speed { options.speed = min(max(speed, 0.125), 64) }
            // A question whose wait takes the main thread for good is graded
            // on the board all the same; the questions left go on in a new
            // opscope once it is left.
            if number < count {
                options.carryOnAfterLostMainThread =
                    [CommandLine.arguments[0], "practice", "--count", String(count - number)]
                    + (speed.map { ["--speed", String($0)] } ?? [])
            }
            status = MainActor.assumeIsolated {
                InteractiveApp.launch(opening, picker: PickerList([]), paths: [], options: options)
            }
            guard status == .success else { return status }
        }
        return status
    }

    /// Keeps the answer's verdict (`status`) on `id` and says when it
    /// comes back, or, when it could not be kept, why (it then comes back
    /// as the record had it).
    private func keep(_ status: ExitStatus, for id: QuestionID, concepts: [Concept], in keeping: inout Keeping) {
        if let reveal = PracticeSummary.reveal(id) { QuizOutput.write("\n" + reveal) }
        let now = Date()
        let change = { (old: PracticeRecord) in
            PracticeScheduler.recording(right: status == .success, for: id, concepts: concepts, in: old, now: now)
        }
        guard keeping.canSave else {
            QuizOutput.write("\nYour answer was not kept: \(PracticeStore.cannotWrite).\n")
            return
        }
        do {
            let updated = try store.update(now: now, change)
            for message in updated.messages { MessagePrinter.standardError.warning(message) }
            keeping.record = updated.record
            keeping.canSave = updated.canSave
            guard updated.canSave else {
                QuizOutput.write(
                    "\nYour answer was not kept: "
                        + (updated.messages.first ?? PracticeStore.cannotWrite) + ".\n")
                return
            }
        } catch {
            // Said where the verdict is, with no date: it will not come back.
            // (`error.message` names the practice folder or file.)
            QuizOutput.write("\nYour answer was not kept (\(error.message)): practice goes on without keeping it.\n")
            keeping.canSave = false
            return
        }
        if let entry = keeping.record[id] { QuizOutput.write("\n" + PracticeSummary.comesBack(entry, now: now)) }
    }

    /// After question `number` of `count`, once this process's main thread
    /// is lost: the rest in a new opscope (this one is replaced), or the end.
    private func goOn(after number: Int, of count: Int, allRight: Bool) -> Never {
        let left = count - number
        // A signal came meanwhile: no new opscope (the end says 128 + it).
        guard left > 0, StopRequest.process.status == nil else {
            Opscope.endWithoutMainThread(allRight ? .success : .failed)
        }
        QuizOutput.write(
            "\nThis opscope's main thread is blocked for good in the scenario's wait, and every run needs it: "
                + (left == 1 ? "the last question starts" : "the \(left) questions left start") + " in a new opscope.\n"
        )
        let arguments =
            [CommandLine.arguments[0], "practice", "--count", String(left)]
            + (speed.map { ["--speed", String($0)] } ?? [])
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv("/proc/self/exe", &pointers)
        MessagePrinter.standardError.error("could not start a new opscope: run 'opscope practice --count \(left)'")
        Opscope.endWithoutMainThread(.failed)
    }

    /// The scenario and concepts of `id`: the library's file, or the
    /// generated question remade from its level and seed (and confirmed).
    private func question(for id: QuestionID) -> (Scenario, [Concept])? {
        switch id {
        case .library(let file):
            guard let entry = library.first(where: { $0.fileName == file }) else {
                MessagePrinter.standardError.error("the library has no quiz '\(file)' any more")
                return nil
            }
            return (entry.scenario, entry.concepts)
        case .generated(let level, let seed):
            do {
                let question = try QuizGenerate.generate(level: level, seed: seed)
                return (question.scenario, question.concepts)
            } catch {
                MessagePrinter.standardError.error(error.message)
                return nil
            }
        case .kata(let name):
            MessagePrinter.standardError.error("practice does not ask katas: run 'opscope kata \(name)'")
            return nil
        }
    }
}
