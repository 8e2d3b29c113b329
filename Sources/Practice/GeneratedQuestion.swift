import Grading
import ScenarioKit

/// A question made by `QuestionGenerator`: an ordinary scenario file's text
/// with a title, notes that explain the answer and a `quiz` statement, the
/// answer its construction fixes, and what it is about.
public struct GeneratedQuestion: Sendable {
    /// 1, 2 or 3: the concepts it may use (`QuestionGenerator.levels`).
    public let level: Int
    /// The seed asked for; the same level and seed make the same question.
    public let seed: UInt64
    /// Which candidate of the seed this is (0: the first). Earlier ones were
    /// drawn again (a blind answer would pass them) or not confirmed.
    public let attempt: Int
    /// The scenario file, as `--save` writes it.
    public let text: String
    public let scenario: Scenario
    /// The concepts the generator put in.
    public let concepts: [Concept]
    /// Scenario seconds per real second for the confirming runs: high where
    /// nothing depends on time, lower where asynchronous operations must
    /// overlap (see docs/GENERATED-QUESTIONS.md).
    public let confirmSpeed: Double
    let prediction: Prediction

    public var kind: QuizKind { prediction.kind }

    /// The answer, as a learner would type it.
    public var answer: String { prediction.answerText }

    /// Its runs need the main thread: it has a main queue, or an action the
    /// main thread performs (`start`, `wait`).
    public var needsMainThread: Bool {
        scenario.queues.contains { $0.isMain } || scenario.actions.contains { $0.action.isMainThreadCall }
    }

    /// It has an action after 0ms (a cancel while an operation runs, a
    /// suspension or a cap change mid-run, a start by hand).
    public var hasLaterAction: Bool { scenario.actions.contains { $0.time > .zero } }

    /// Its run ends stalled: some operation never finishes.
    public var stalls: Bool { prediction.stalls }

    /// The answer read as `opscope quiz` reads one.
    public var parsedAnswer: QuizAnswer? {
        try? QuizAnswerParser.parse(answer, kind: kind, scenario: scenario).get()
    }
}
