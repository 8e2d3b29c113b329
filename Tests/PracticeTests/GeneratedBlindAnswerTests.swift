import Board
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

@testable import Practice

/// No answer that needs no rule passes a generated question: each of
/// `QuizAnswer.blind` (the file's order, its reverse, the alphabet; one
/// state or one column for all; one at a time, all at once, the declared
/// caps; none, all, the main queue's operations, every operation with a
/// block) is graded against a real run of the question, for levels 1–3,
/// seeds 1–50, in this process: those whose answer depends on no timing
/// and on no main thread. The others are run by opscope itself
/// (GeneratedQuestionRunTests, opscopeTests): under `swift test` no thread
/// here serves the main queue on the main thread, and the tests' own work
/// keeps the dispatch pool, where an asynchronous operation's start()
/// runs, busy for longer than a timed question's margin.
@Suite("no blind answer passes a generated question, graded against a real run")
struct GeneratedBlindAnswerTests {
    @Test(arguments: QuestionGenerator.levels)
    func noBlindAnswerPasses(_ level: Int) throws {
        let questions = CoverageTests.questions.filter { $0.level == level && Self.runsHere($0) }
        #expect(questions.count >= 5)
        for question in questions {
            let events = try #require(
                Self.confirmedRun(question), "level \(level) seed \(question.seed): no run gave its answer")
            for (name, answer) in QuizAnswer.blind(for: question.scenario) {
                let grade = QuizGrader.grade(
                    question.scenario, events: events, answer: answer, speed: question.confirmSpeed)
                #expect(
                    !grade.isCorrect,
                    "level \(level) seed \(question.seed): '\(name)' passes its \(question.kind.rawValue) question")
            }
        }
    }

    /// Whether this process makes a faithful run of `question`: no main
    /// queue, and nothing that depends on time.
    static func runsHere(_ question: GeneratedQuestion) -> Bool {
        !question.needsMainThread && question.confirmSpeed == Candidate.timeFreeSpeed
    }

    /// A run of `question` that gives its answer, as its confirmation
    /// requires: the first of three (the bench holds each question to
    /// twenty runs out of twenty, in a quiet process).
    static func confirmedRun(_ question: GeneratedQuestion) -> [LifecycleEvent]? {
        for _ in 0..<3 {
            let events = ScenarioRun.run(
                question.scenario, options: RunOptions(speed: question.confirmSpeed), timeout: 60)
            if QuestionConfirmer.check(question, events: events) == nil { return events }
        }
        return nil
    }
}
