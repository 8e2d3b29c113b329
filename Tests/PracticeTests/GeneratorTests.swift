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
            // The only warning a generated file may get: an operation waiting
            // for one that never posts isFinished (what that motif teaches).
            for warning in read.diagnostics where warning.severity == .warning {
                #expect(warning.message.contains("never finishes"), "\(warning.message)")
            }
            #expect(question.scenario.quiz?.kind == question.kind)
            #expect(question.parsedAnswer != nil, "\(question.answer)")
            #expect(!question.scenario.notes.isEmpty)
            #expect(question.scenario.notes.last == "The answer: \(question.answer).")
            #expect(!question.scenario.queues.contains { $0.isMain })
            #expect(!question.concepts.isEmpty)
        }
    }

    @Test("levels keep to their concepts")
    func levelsAndConcepts() throws {
        let allowed: [Int: Set<Concept>] = [
            1: [.dependencies, .priority],
            2: [.dependencies, .priority, .qos, .cancellation, .cap, .suspension],
            3: Set(Concept.allCases).subtracting([.mainThread]),
        ]
        for (level, seed) in Self.cases {
            let question = try Self.unconfirmed(level, seed)
            #expect(Set(question.concepts).isSubset(of: allowed[level]!), "level \(level): \(question.concepts)")
        }
    }

    @Test("no blind answer passes: not the file's order, its reverse or the alphabet; not one state for all")
    func notBlanket() throws {
        for level in QuestionGenerator.levels {
            for seed in 1...40 {
                let question = try Self.unconfirmed(level, UInt64(seed))
                let names = question.scenario.operations.filter { !$0.isBarrier }.map(\.name)
                switch question.prediction {
                case .startOrder(let order):
                    #expect(order != names && order != names.reversed() && order != names.sorted())
                case .finalState(let pairs):
                    #expect(Set(pairs.map(\.state)).count > 1)
                case .counts(let counts):
                    #expect(counts.count > 1)
                case .peak(let pairs):
                    #expect(!pairs.allSatisfy { $0.count == 1 })
                }
            }
        }
    }

    @Test("every level asks each kind it has, over a few dozen seeds")
    func kinds() throws {
        let expected: [Int: Set<QuizKind>] = [
            1: [.startOrder], 2: [.startOrder, .finalState, .counts], 3: [.startOrder, .finalState, .counts, .peak],
        ]
        for level in QuestionGenerator.levels {
            let kinds = try Set((1...40).map { try Self.unconfirmed(level, UInt64($0)).kind })
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
        let message = GenerationError.nothingConfirmed(level: 1, seed: 1, attempts: 40, lastFailure: "x").message
        #expect(message.contains("try another seed"))
    }
}
