import CommandSupport
import Foundation
import Practice
import ScenarioKit
import TextKit

/// `opscope quiz --generate`: a fresh question whose answer is fixed on
/// this engine by construction, confirmed by real runs, then asked as a
/// file's quiz is (or written to a file with `--save`).
enum QuizGenerate {
    /// Runs of the real engine that must each give the predicted answer.
    static let confirmingRuns = 3

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        guard args.positionals.isEmpty else {
            throw UsageError("'quiz --generate' makes its own scenario: give it no file")
        }
        let level = try args.whole("level", in: QuestionGenerator.levels, default: 1)
        let speed = try args.speed("speed", in: SpeedRange.trace, default: 4)
        let seed = try seedOption(args) ?? UInt64.random(in: 1...999_999)
        if args.value("save") != nil, args.value("answer") != nil {
            throw UsageError("'--save' writes the question without asking it: give it no '--answer'")
        }
        if let path = args.value("save"), FileManager.default.fileExists(atPath: path) {
            throw UsageError("'\(path)' already exists: --save writes a new file and never replaces one")
        }
        let question: GeneratedQuestion
        do {
            question = try generate(level: level, seed: seed)
        } catch {
            MessagePrinter.standardError.error(error.message)
            return .failed
        }
        if let path = args.value("save") {
            do {
                try AtomicFile.write(Array(question.text.utf8), to: path, replacing: false)
            } catch {
                MessagePrinter.standardError.error(error.message)
                return .failed
            }
            let path = TerminalText.escaped(path)
            QuizOutput.write("Saved to \(path): 'opscope quiz \(path)' asks it, 'opscope \(path)' shows it run.\n")
            return .success
        }
        return QuizCommand.ask(question.scenario, answer: args.value("answer"), speed: speed)
    }

    /// Makes the question of `seed` at `level`, confirmed by real runs,
    /// and says which it is and how to ask it again.
    static func generate(level: Int, seed: UInt64) throws(GenerationError) -> GeneratedQuestion {
        var unconfirmed: [String] = []
        let question = try QuestionGenerator.generate(level: level, seed: seed) { question throws(GenerationError) in
            let failure = try QuestionConfirmer.firstFailure(question, runs: confirmingRuns)
            if let failure { unconfirmed.append(failure) }
            return failure
        }
        var text =
            "A generated question: level \(level), seed \(seed) (opscope quiz --generate --level \(level) "
            + "--seed \(seed) asks it again), confirmed by \(confirmingRuns) runs on the real engine.\n"
        if !unconfirmed.isEmpty {
            text +=
                "(\(unconfirmed.count) earlier candidate\(unconfirmed.count == 1 ? " was" : "s were") dropped: "
                + "a run did not give its answer; the first: \(unconfirmed[0]).)\n"
        }
        QuizOutput.write(text + "\n")
        return question
    }

    /// `--seed N`: digits only, 0 to UInt64.max; nil when absent.
    static func seedOption(_ args: Arguments) throws(UsageError) -> UInt64? {
        guard let text = args.value("seed") else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seed = UInt64(text)
        else {
            throw UsageError("'--seed' is a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return seed
    }
}
