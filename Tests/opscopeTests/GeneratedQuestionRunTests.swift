import Foundation
import Grading
import Practice
import RunFormats
import ScenarioKit
import Testing

/// The generated questions of levels 1–3, seeds 1–50, whose runs the tests'
/// own process cannot make faithfully, run by opscope itself: those on the
/// main queue (opscope's main thread serves it; under `swift test` no
/// thread does) and those whose answer depends on timing (the tests' own
/// work keeps this process's dispatch pool, where an asynchronous
/// operation's start() runs, busy for longer than their margins). Each
/// one's run gives its answer, and no answer that needs no rule
/// (`QuizAnswer.blind`) passes it; `quiz --generate` confirms one of each
/// level on its main thread and grades its answer right. The others are
/// run in the tests' process: GeneratedBlindAnswerTests.
@Suite("generated questions on the main queue or on a clock, run by opscope")
struct GeneratedQuestionRunTests {
    static let questions: [GeneratedQuestion] = QuestionGenerator.levels.flatMap { level in
        (1...50).compactMap { seed -> GeneratedQuestion? in
            guard
                let question = try? QuestionGenerator.generate(level: level, seed: UInt64(seed), confirm: { _ in nil })
            else { return nil }
            return question.needsMainThread || question.confirmSpeed < 100 ? question : nil
        }
    }

    @Test("each level has some on the main queue and some on a clock", arguments: QuestionGenerator.levels)
    func someOfEachLevel(_ level: Int) {
        let mine = Self.questions.filter { $0.level == level }
        #expect(mine.contains { $0.needsMainThread }, "level \(level)")
        #expect(mine.contains { !$0.needsMainThread }, "level \(level)")
    }

    @Test(
        "each one's run by opscope gives its answer, and no blind answer passes it",
        arguments: QuestionGenerator.levels)
    func noBlindAnswerPasses(_ level: Int) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        for question in Self.questions where question.level == level {
            let label = "level \(level) seed \(question.seed)"
            let path = try scratch.write("generated-\(level)-\(question.seed).ops", question.text)
            let (run, why) = try Self.confirmedRun(question, path: path)
            let recording = try #require(run, "\(label): no run gave its answer (the last: \(why))")
            for (name, answer) in QuizAnswer.blind(for: question.scenario) {
                let grade = QuizGrader.grade(
                    recording.scenario, events: recording.events, answer: answer, speed: question.confirmSpeed)
                #expect(
                    !grade.isCorrect, "\(label): the answer '\(name)' passes its \(question.kind.rawValue) question")
            }
        }
    }

    /// A run by `opscope trace` that gives `question`'s answer: the first
    /// of three (with both cores busy a timer may come late past a margin;
    /// the bench holds each question to twenty runs out of twenty).
    static func confirmedRun(_ question: GeneratedQuestion, path: String) throws -> (Recording?, String) {
        var why = ""
        for _ in 0..<3 {
            let result = try OpscopeBinary.run(
                ["trace", "--format", "jsonl", "--speed", String(question.confirmSpeed), path], timeout: 60)
            // 1: the run stalled, as a question with an operation that never finishes does.
            guard result.status == 0 || (result.status == 1 && question.stalls) else {
                why = "exit \(result.status): \(result.stderr)"
                continue
            }
            let recording = try RecordingDecoder.decode(Array(result.stdout.utf8))
            guard let difference = QuestionConfirmer.check(question, events: recording.events) else {
                return (recording, "")
            }
            why = difference
        }
        return (nil, why)
    }

    @Test("quiz --generate confirms one on its main thread and grades its answer right", arguments: [1, 2, 3])
    func confirmedOnTheMainThread(_ level: Int) throws {
        let question = try #require(Self.questions.first { $0.level == level && $0.needsMainThread })
        let result = try OpscopeBinary.run(
            [
                "quiz", "--generate", "--level", String(level), "--seed", String(question.seed), "--answer",
                question.answer,
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("confirmed by 3 runs on the real engine.\n\n"),
            "the first candidate, confirmed: none dropped")
        #expect(result.stdout.contains("— all right!\n"))
    }
}
