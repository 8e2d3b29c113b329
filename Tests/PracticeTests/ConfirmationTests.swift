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
        let question = try QuestionGenerator.generate(level: level, seed: seed, runs: 3)
        let again = try QuestionGenerator.generate(level: level, seed: seed, runs: 3)
        #expect(again.text == question.text)
        #expect(again.attempt == question.attempt)
        let confirmation = QuestionConfirmer.confirm(question, runs: 3)
        #expect(confirmation.isConfirmed, "\(confirmation.failures)")
    }

    @Test("a run that contradicts the prediction is caught, with what it did")
    func wrongPredictionCaught() throws {
        let question = try QuestionGenerator.generate(level: 1, seed: 3, runs: 1)
        guard case .startOrder(let order) = question.prediction else {
            Issue.record("level 1 asks a start order")
            return
        }
        let events = ScenarioRun.run(question.scenario, options: RunOptions(speed: question.confirmSpeed))
        #expect(QuestionConfirmer.check(question, events: events) == nil)
        let wrong = GeneratedQuestion(
            level: 1, seed: 3, attempt: 0, text: question.text, scenario: question.scenario,
            concepts: question.concepts, confirmSpeed: question.confirmSpeed,
            prediction: .startOrder(order.reversed()))
        let why = try #require(QuestionConfirmer.check(wrong, events: events))
        #expect(why == "it started \(order.joined(separator: ", "))")
        #expect(QuestionConfirmer.check(question, events: Array(events.dropLast())) == "the run did not end")
    }

    @Test("a question that stalls is confirmed only by a stalled run")
    func stallPredicted() throws {
        // The first level-3 seed whose question has an operation that never finishes.
        let question = try #require(
            (1...60).lazy.compactMap { seed -> GeneratedQuestion? in
                let question = try? QuestionGenerator.generate(level: 3, seed: UInt64(seed)) { _ in nil }
                return question.flatMap { $0.prediction.stalls ? $0 : nil }
            }.first)
        let events = ScenarioRun.run(question.scenario, options: RunOptions(speed: question.confirmSpeed))
        #expect(QuestionConfirmer.check(question, events: events) == nil)
        guard case .end(.stalled) = events.last?.kind else {
            Issue.record("the run should have stalled")
            return
        }
    }
}
