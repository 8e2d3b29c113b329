import Board
import Grading
import ScenarioKit
import Testing

@testable import Practice

/// What the generated questions of levels 1–3, seeds 1–50, cover: the
/// kinds of answer, the concepts of each level, actions after 0ms, runs
/// that cancel an operation while it runs, the main queue, completion
/// blocks and barriers. Computed from the candidates the generator picks
/// (pure: nothing runs; the confirmation keeps them, see ConfirmationTests
/// and `opscope-bench --only practice`).
@Suite("generated questions cover the syllabus")
struct CoverageTests {
    static let seeds: ClosedRange<UInt64> = 1...50

    static let questions: [GeneratedQuestion] = QuestionGenerator.levels.flatMap { level in
        seeds.compactMap { seed in try? QuestionGenerator.generate(level: level, seed: seed) { _ in nil } }
    }

    static func count(_ isCounted: (GeneratedQuestion) -> Bool) -> Int { questions.filter(isCounted).count }

    @Test("every level and seed makes a question")
    func everySeed() {
        #expect(Self.questions.count == QuestionGenerator.levels.count * Self.seeds.count)
    }

    @Test("each reads without errors; the only warnings are about an operation that never finishes or an inversion")
    func clean() {
        for question in Self.questions {
            let read = ScenarioReader.read(question.text, path: "generated.ops")
            #expect(!read.hasErrors, "level \(question.level) seed \(question.seed)")
            for warning in read.diagnostics where warning.severity == .warning {
                #expect(
                    warning.message.contains("never finishes") || warning.message.hasPrefix("priority inversion: "),
                    "level \(question.level) seed \(question.seed): \(warning.message)")
            }
        }
    }

    @Test("at least six kinds of answer (all but together)")
    func kinds() {
        let kinds = Set(Self.questions.map(\.kind))
        #expect(kinds.count >= 6, "\(kinds.map(\.rawValue).sorted())")
        #expect(!kinds.contains(.together), "one of yes and no always passes a together question")
    }

    @Test("each level, level 1 included, asks about at least four concepts", arguments: QuestionGenerator.levels)
    func concepts(_ level: Int) {
        let concepts = Set(Self.questions.filter { $0.level == level }.flatMap(\.concepts))
        #expect(concepts.count >= 4, "level \(level): \(concepts.map(\.rawValue).sorted())")
    }

    @Test("at least a fifth of the questions have an action after 0ms")
    func timedActions() {
        let timed = Self.count(\.hasLaterAction)
        #expect(timed * 5 >= Self.questions.count, "\(timed) of \(Self.questions.count)")
    }

    @Test("some answers have an operation that ran, then was cancelled")
    func cancelledWhileRunning() {
        let cancelled = Self.count { question in
            switch question.prediction {
            case .finalState(let pairs, _): pairs.contains { $0.state == .cancelled }
            case .counts(let counts, _): (counts[.cancelled] ?? 0) > 0
            default: false
            }
        }
        #expect(cancelled >= 3, "\(cancelled)")
    }

    @Test("some questions are on the main queue, some have completion blocks, some have barriers")
    func mainQueueCompletionsBarriers() {
        let main = Self.count { $0.scenario.queues.contains { $0.isMain } }
        let completions = Self.count { $0.scenario.operations.contains { $0.completion != nil } }
        let barriers = Self.count { $0.scenario.operations.contains { $0.isBarrier } }
        #expect(main >= 3, "\(main)")
        #expect(completions >= 3, "\(completions)")
        #expect(barriers >= 3, "\(barriers)")
    }
}
