import Board
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

@testable import Practice

/// Generated questions on the real engine: a handful of seeds per level
/// are confirmed, made again the same, and a wrong prediction is caught.
/// (Seeds 1–100 × 20 runs: `opscope-bench --only practice`, in CI.)
@Suite("generated questions, confirmed on the real engine", .serialized)
struct ConfirmationTests {
    static let cases: [(level: Int, seed: UInt64)] = QuestionGenerator.levels.flatMap { level in
        (1...4).map { (level, UInt64($0)) }
    }

    @Test("a question is confirmed by three runs, and made again the same", arguments: cases)
    func confirmed(_ level: Int, _ seed: UInt64) throws {
        let expected = try QuestionGenerator.generate(level: level, seed: seed) { _ in nil }
        // A timed question is confirmed by opscope itself (GeneratedQuestionRunTests):
        // here the tests' own work keeps the dispatch pool busy past its margins.
        guard expected.needsMainThread || GeneratedBlindAnswerTests.runsHere(expected) else { return }
        guard !expected.needsMainThread else {
            // Under `swift test` no thread here is the main thread serving the
            // main queue: the runs cannot be made, and the seed is not passed
            // over for another question (GeneratedMainQueueTests confirms
            // these through opscope itself).
            #expect(throws: GenerationError.self) { try QuestionGenerator.generate(level: level, seed: seed, runs: 3) }
            let confirmation = QuestionConfirmer.confirm(expected)
            #expect(confirmation.unavailable != nil && !confirmation.isConfirmed)
            return
        }
        let question = try QuestionGenerator.generate(level: level, seed: seed, runs: 3)
        let again = try QuestionGenerator.generate(level: level, seed: seed, runs: 3)
        #expect(question.text == expected.text, "the first worthy candidate is confirmed")
        #expect(again.text == question.text)
        #expect(again.attempt == question.attempt)
        let confirmation = QuestionConfirmer.confirm(question, runs: 3)
        #expect(confirmation.isConfirmed, "\(confirmation.failures)")
    }

    @Test("a run that contradicts the prediction is caught, with what it did")
    func wrongPredictionCaught() throws {
        // The first level-1 seed that asks a start order.
        let found = (1...60).map { try? QuestionGenerator.generate(level: 1, seed: UInt64($0)) { _ in nil } }
            .first { $0?.kind == .startOrder }
        let question = try #require(found ?? nil)
        guard case .startOrder(let order) = question.prediction else {
            Issue.record("a start-order question predicts a start order")
            return
        }
        let events = ScenarioRun.run(question.scenario, options: RunOptions(speed: question.confirmSpeed))
        #expect(QuestionConfirmer.check(question, events: events) == nil)
        let wrong = GeneratedQuestion(
            level: 1, seed: question.seed, attempt: 0, text: question.text, scenario: question.scenario,
            concepts: question.concepts, confirmSpeed: question.confirmSpeed,
            prediction: .startOrder(order.reversed()))
        let why = try #require(QuestionConfirmer.check(wrong, events: events))
        #expect(why == "it started \(order.joined(separator: ", "))")
        #expect(QuestionConfirmer.check(question, events: Array(events.dropLast())) == "the run did not end")
    }

    @Test("a timed question is caught when its run differs: the columns it had")
    func timedDifferenceCaught() throws {
        let found = (1...60).map { try? QuestionGenerator.generate(level: 2, seed: UInt64($0)) { _ in nil } }
            .first { $0?.kind == .columns }
        let question = try #require(found ?? nil)
        guard case .columns(_, let at, _) = question.prediction else {
            Issue.record("a columns question predicts columns")
            return
        }
        // Whatever this run gave (this process may delay it), a prediction
        // one more than it in pending is caught, with what the run had.
        let events = ScenarioRun.run(question.scenario, options: RunOptions(speed: question.confirmSpeed))
        guard case .columns(let seen)? = QuizAnswer.observed(for: question.scenario, events: events) else {
            Issue.record("a columns question's run has columns")
            return
        }
        var off = seen.filter { $0.value > 0 }
        off[.pending, default: 0] += 1
        var stalls = false
        if case .end(.stalled) = events.last?.kind { stalls = true }
        let wrong = GeneratedQuestion(
            level: 2, seed: question.seed, attempt: 0, text: question.text, scenario: question.scenario,
            concepts: question.concepts, confirmSpeed: question.confirmSpeed,
            prediction: .columns(off, at: at, stalls: stalls))
        let why = try #require(QuestionConfirmer.check(wrong, events: events))
        #expect(why == "at \(QuestionDraft.time(at)) the columns were \(Prediction.columnsText(seen))")
    }

    @Test("a question that stalls is confirmed only by a stalled run")
    func stallPredicted() throws {
        // The first level-3 seed whose question has an operation that never finishes.
        let question = try #require(
            (1...60).lazy.compactMap { seed -> GeneratedQuestion? in
                let question = try? QuestionGenerator.generate(level: 3, seed: UInt64(seed)) { _ in nil }
                return question.flatMap { $0.prediction.stalls && GeneratedBlindAnswerTests.runsHere($0) ? $0 : nil }
            }.first)
        let events = ScenarioRun.run(question.scenario, options: RunOptions(speed: question.confirmSpeed))
        #expect(QuestionConfirmer.check(question, events: events) == nil)
        guard case .end(.stalled) = events.last?.kind else {
            Issue.record("the run should have stalled")
            return
        }
    }
}
