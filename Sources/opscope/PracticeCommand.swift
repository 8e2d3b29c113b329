import CommandSupport
import Foundation
import Practice
import ScenarioKit

/// `opscope practice`: the next question — what is due, the library's
/// quizzes, then generated ones — asked as `quiz` asks, its answer kept in
/// the user's data folder so that a missed one comes back.
enum PracticeCommand: Subcommand {
    static let name = "practice"
    static let abstract = "Practise: the next question, and missed ones again later"
    static let help = """
        USAGE: opscope practice [--count N] [--answer TEXT] [--speed X] [--reset]

        Says how your practice stands (per concept: dependencies, priority, QoS,
        cancellation, cap, barriers, async, completion blocks, suspension, main
        thread), then asks the next question exactly as 'opscope quiz' does: the
        scenario, your answer, a run on the real engine, the grade and why.

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

        OPTIONS:
          --count N       ask N questions in a row (default: 1)
          --answer TEXT   the answer to the one question, instead of reading
                          standard input (not with --count above 1)
          --speed X       scenario seconds per real second (default: 4)
          --reset         set your practice file aside (saying where) and stop:
                          the next 'opscope practice' starts over

        EXIT STATUS: 0 when every answer was entirely right (or after --reset);
        1 when one was not, or a question could not be made; 2 when an answer
        cannot be read, no data folder is known, or the command line is wrong.
        """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(arguments, options: ["count", "answer", "speed"], flags: ["reset"])
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
        return PracticeSession(store: store, speed: speed).run(count: count, answer: args.value("answer"))
    }

    private static func reset(_ store: PracticeStore) -> ExitStatus {
        do {
            guard let aside = try store.reset(now: Date()) else {
                QuizOutput.write("There is no practice file to set aside ('\(store.path)'): you start afresh anyway.\n")
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
struct PracticeSession {
    let store: PracticeStore
    let speed: Double
    let library = PracticeLibrary.load(folder: "scenarios")

    func run(count: Int, answer: String?) -> ExitStatus {
        let loaded = store.load(now: Date())
        for message in loaded.messages { MessagePrinter.standardError.warning(message) }
        var record = loaded.record
        var canSave = loaded.canSave
        let files = library.map(\.fileName)
        QuizOutput.write(PracticeSummary.text(record, library: files, now: Date()))
        var allRight = true
        for number in 1...count {
            let choice = PracticeScheduler.next(record: record, library: files, now: Date())
            let position = count == 1 ? "" : " \(number) of \(count)"
            QuizOutput.write("\nQuestion\(position): \(PracticeSummary.heading(choice, now: Date()))\n\n")
            guard let (scenario, concepts) = question(for: choice.id) else { return .failed }
            let status = QuizCommand.ask(scenario, answer: answer, speed: speed)
            guard status == .success || status == .failed else { return status }
            allRight = allRight && status == .success
            let now = Date()
            let change = { (old: PracticeRecord) in
                PracticeScheduler.recording(
                    right: status == .success, for: choice.id, concepts: concepts, in: old, now: now)
            }
            record = change(record)
            if canSave {
                do {
                    let updated = try store.update(now: now, change)
                    for message in updated.messages { MessagePrinter.standardError.warning(message) }
                    record = updated.record
                    canSave = updated.canSave
                } catch {
                    MessagePrinter.standardError.warning(
                        "your answer could not be kept (\(error.message)); practice goes on without keeping it")
                    canSave = false
                }
            }
            if let entry = record[choice.id] { QuizOutput.write("\n" + PracticeSummary.comesBack(entry, now: now)) }
        }
        return allRight ? .success : .failed
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
        }
    }
}
