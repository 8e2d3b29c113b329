import Board
import Grading
import LifecycleEngine
import ScenarioKit
import Testing

@testable import Practice

/// The generator, without running: every draw is a valid scenario whose
/// predicted answer reads, and the same level and seed make the same text.
@Suite("generated questions, as text")
struct GeneratorTests {
    static let cases: [(level: Int, seed: UInt64)] = QuestionGenerator.levels.flatMap { level in
        (1...12).map { (level, UInt64($0)) }
    }

    /// Accepts every candidate: the text without any run.
    static func unconfirmed(_ level: Int, _ seed: UInt64) throws -> GeneratedQuestion {
        try QuestionGenerator.generate(level: level, seed: seed) { _ in nil }
    }

    @Test("the same level and seed make the same question", arguments: cases)
    func sameSeedSameText(_ level: Int, _ seed: UInt64) throws {
        let once = try Self.unconfirmed(level, seed)
        let again = try Self.unconfirmed(level, seed)
        #expect(once.text == again.text)
        #expect(once.answer == again.answer)
        #expect(once.concepts == again.concepts)
        #expect(once.text.contains("opscope quiz --generate --level \(level) --seed \(seed)\n"))
    }

    @Test("different seeds make different questions")
    func seedsDiffer() throws {
        for level in QuestionGenerator.levels {
            let texts = try (1...10).map { try Self.unconfirmed(level, UInt64($0)).text }
            #expect(Set(texts).count == 10, "level \(level)")
        }
    }

    @Test("a candidate reads without errors, asks its kind, and its answer reads", arguments: cases)
    func validScenario(_ level: Int, _ seed: UInt64) throws {
        for attempt in 0..<4 {
            guard let question = QuestionGenerator.candidate(level: level, seed: seed, attempt: attempt) else {
                continue
            }
            let read = ScenarioReader.read(question.text, path: "generated.ops")
            #expect(!read.hasErrors, "level \(level) seed \(seed): \(read.diagnostics.map(\.message))")
            // The only warnings a generated file may get: an operation waiting
            // for one that never posts isFinished, a priority inversion
            // through a dependency (what those motifs teach).
            for warning in read.diagnostics where warning.severity == .warning {
                #expect(
                    warning.message.contains("never finishes") || warning.message.hasPrefix("priority inversion: "),
                    "\(warning.message)")
            }
            #expect(question.scenario.quiz?.kind == question.kind)
            #expect(question.kind != .together, "one of yes and no always passes")
            #expect(question.parsedAnswer != nil, "\(question.answer)")
            #expect(!question.scenario.notes.isEmpty)
            #expect(question.scenario.notes.last == "The answer: \(question.answer).")
            #expect(!question.concepts.isEmpty)
            // Only a question on the main queue, or with a start by hand, needs the main thread.
            #expect(question.needsMainThread == (question.kind == .mainThread))
        }
    }

    @Test("levels keep to their concepts")
    func levelsAndConcepts() throws {
        let allowed: [Int: Set<Concept>] = [
            1: [.dependencies, .priority, .mainThread, .cancellation, .cap, .async],
            2: Set(Concept.allCases).subtracting([.barriers]),
            3: Set(Concept.allCases),
        ]
        for (level, seed) in Self.cases {
            let question = try Self.unconfirmed(level, seed)
            #expect(Set(question.concepts).isSubset(of: allowed[level]!), "level \(level): \(question.concepts)")
        }
    }

    @Test("no blind answer passes the predicted answer (QuizAnswer.blind, as the generator filters)")
    func notBlanket() throws {
        for level in QuestionGenerator.levels {
            for seed in 1...40 {
                let question = try Self.unconfirmed(level, UInt64(seed))
                let blind = QuizAnswer.blind(for: question.scenario)
                #expect(!blind.isEmpty)
                for (name, answer) in blind {
                    #expect(
                        !question.prediction.isPassed(by: answer, in: question.scenario),
                        "level \(level) seed \(seed): '\(name)' would pass")
                }
            }
        }
    }

    @Test("a blind answer the grader would take is caught, with its lenient states")
    func blindCaught() throws {
        let firstStartOrder = (1...60).map { try? Self.unconfirmed(1, UInt64($0)) }.first { $0?.kind == .startOrder }
        let question = try #require(firstStartOrder ?? nil)
        let ids = try #require(question.parsedAnswer)
        #expect(question.prediction.isPassed(by: ids, in: question.scenario))
        guard case .startOrder(let order) = ids else { return }
        #expect(!question.prediction.isPassed(by: .startOrder(order.reversed()), in: question.scenario))
        let scenario = try #require(ScenarioReader.read("op a work 10ms\n", path: "a.ops").scenario)
        let a = try #require(scenario.operationID(named: "a"))
        let skipped = Prediction.finalState([(name: "a", state: .skipped)], stalls: false)
        #expect(skipped.isPassed(by: .finalState([(a, .stuck)]), in: scenario), "skipped or stuck: either passes")
        #expect(!skipped.isPassed(by: .finalState([(a, .finished)]), in: scenario))
        let counts = Prediction.counts([.finished: 2], stalls: false)
        #expect(counts.isPassed(by: .counts([.finished: 2, .stuck: 0]), in: scenario), "a zero is no count")
    }

    @Test("every level asks each kind it has, over a few dozen seeds")
    func kinds() throws {
        let expected: [Int: Set<QuizKind>] = [
            1: [.startOrder, .mainThread, .columns, .finalState],
            2: [.startOrder, .finalState, .counts, .columns, .completions, .mainThread],
            3: Set(QuizKind.allCases).subtracting([.together]),
        ]
        for level in QuestionGenerator.levels {
            let kinds = try Set((1...50).map { try Self.unconfirmed(level, UInt64($0)).kind })
            #expect(kinds == expected[level]!, "level \(level)")
        }
    }

    @Test("an unknown level is refused")
    func unknownLevel() {
        #expect(throws: GenerationError.unknownLevel(4)) { try Self.unconfirmed(4, 1) }
    }

    @Test("when nothing is confirmed, the seed is given up with the last reason")
    func nothingConfirmed() {
        #expect(throws: GenerationError.self) {
            try QuestionGenerator.generate(level: 1, seed: 1) { _ in "a run differed" }
        }
        let stop = GenerationError.cannotConfirmHere(level: 1, seed: 1, why: "no main thread")
        var asked = 0
        #expect(throws: stop) {
            try QuestionGenerator.generate(level: 1, seed: 1) { _ throws(GenerationError) in
                asked += 1
                throw stop
            }
        }
        #expect(asked == 1, "a question that cannot be confirmed here is not passed over for another")
        let message = GenerationError.nothingConfirmed(level: 1, seed: 1, attempts: 40, lastFailure: "x").message
        #expect(message.contains("try another seed"))
    }
}
