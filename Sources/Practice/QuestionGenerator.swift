import Grading
import ScenarioKit

/// Why no question could be made.
public enum GenerationError: Error, Sendable, Equatable {
    /// Not 1, 2 or 3.
    case unknownLevel(Int)
    /// Every candidate of the seed was drawn again or not confirmed.
    case nothingConfirmed(level: Int, seed: UInt64, attempts: Int, lastFailure: String)
    /// The question's confirming runs cannot be made here (`why`): it is
    /// not passed over for another, which would make the same level and
    /// seed a different question elsewhere.
    case cannotConfirmHere(level: Int, seed: UInt64, why: String)

    public var message: String {
        switch self {
        case .unknownLevel(let level):
            "there is no level \(level): the levels are 1, 2 and 3"
        case .nothingConfirmed(let level, let seed, let attempts, let last):
            "no question of level \(level) with seed \(seed) could be confirmed on this engine in \(attempts) "
                + "candidates (the last: \(last)); try another seed"
        case .cannotConfirmHere(let level, let seed, let why):
            "the question of level \(level) with seed \(seed) cannot be confirmed here: \(why)"
        }
    }
}

/// Makes fresh questions whose answers are fixed on this engine by
/// construction (docs/GENERATED-QUESTIONS.md says how), and has each one
/// confirmed by real runs before it is asked.
///
/// - Level 1: dependencies and priority on a serial queue, the main thread
///   (the main queue, a start by hand), the cap, and a cancel while an
///   operation runs.
/// - Level 2 adds quality of service, cancelling before the start,
///   cancelled dependencies, cap changes and suspension (before and during
///   the run), and completion blocks that let an operation go.
/// - Level 3 adds queues that depend on each other, barriers, asynchronous
///   operations that forget to finish (always, or on one path), operations
///   that ignore a cancel, which completion blocks run, and peaks.
///
/// Seven kinds of answer: start-order, final-state, counts, peak,
/// main-thread, completions and columns (never `together`, which one of
/// its two answers always passes).
///
/// The same level and seed make the same text: every draw comes from
/// `SplitMix64`, candidate `k` of a seed from its `k`th derived seed.
public enum QuestionGenerator {
    public static let levels: ClosedRange<Int> = 1...3
    /// Candidates tried for one seed before giving up.
    public static let maxAttempts = 40

    /// The question of `seed` at `level`: the first candidate that is worth
    /// asking (no blind answer passes it, a rule decides it) and that
    /// `confirm` accepts (nil: confirmed; otherwise why not). An error
    /// `confirm` throws ends the search (the runs cannot be made here).
    public static func generate(
        level: Int, seed: UInt64, confirm: (GeneratedQuestion) throws(GenerationError) -> String?
    ) throws(GenerationError) -> GeneratedQuestion {
        guard levels.contains(level) else { throw .unknownLevel(level) }
        var lastFailure = "every draw was passable blind"
        for attempt in 0..<maxAttempts {
            guard let question = candidate(level: level, seed: seed, attempt: attempt) else { continue }
            guard let failure = try confirm(question) else { return question }
            lastFailure = failure
        }
        throw .nothingConfirmed(level: level, seed: seed, attempts: maxAttempts, lastFailure: lastFailure)
    }

    /// The question of `seed` at `level`, confirmed by `runs` runs on the
    /// real engine (`QuestionConfirmer`).
    public static func generate(level: Int, seed: UInt64, runs: Int = 3) throws(GenerationError) -> GeneratedQuestion {
        try generate(level: level, seed: seed) { question throws(GenerationError) in
            try QuestionConfirmer.firstFailure(question, runs: runs)
        }
    }

    /// Candidate `attempt` of `seed` at `level`, made without running
    /// anything; nil when the draw is not worth asking. Pure.
    public static func candidate(level: Int, seed: UInt64, attempt: Int) -> GeneratedQuestion? {
        var random = SplitMix64(seed: SplitMix64.derive(seed: seed, level: level, attempt: attempt))
        let recipe = recipe(level: level, &random)
        // The recipe drawn, drawn again a few times from the same stream until
        // one is worth asking: the mix of recipes stays the one below.
        for _ in 0..<draws {
            guard let drawn = recipe(&random) else { continue }
            if let question = question(drawn, level: level, seed: seed, attempt: attempt) { return question }
        }
        return nil
    }

    /// Draws of one recipe tried by a candidate.
    static let draws = 8

    /// The recipe of a candidate at `level`, by the share each kind of
    /// question has there.
    static func recipe(level: Int, _ r: inout SplitMix64) -> (inout SplitMix64) -> Candidate? {
        let draw = r.below(20)
        switch level {
        case 1:
            switch draw {
            case 0..<6: return { StartOrderRecipes.level1(&$0) }
            case 6..<10: return { MainThreadRecipe.make(level: 1, &$0) }
            case 10..<15: return { TimedRecipes.columns(level: 1, &$0) }
            default: return { TimedRecipes.outcome(level: 1, kind: .finalState, &$0) }
            }
        case 2:
            switch draw {
            case 0..<5: return { StartOrderRecipes.level2(&$0) }
            case 5..<7: return { OutcomeRecipes.make(level: 2, kind: .finalState, &$0) }
            case 7..<8: return { OutcomeRecipes.make(level: 2, kind: .counts, &$0) }
            case 8..<9: return { TimedRecipes.outcome(level: 2, kind: .finalState, &$0) }
            case 9..<11: return { TimedRecipes.outcome(level: 2, kind: .counts, &$0) }
            case 11..<15: return { TimedRecipes.columns(level: 2, &$0) }
            case 15..<17: return { CompletionRecipes.before(level: 2, &$0) }
            default: return { MainThreadRecipe.make(level: 2, &$0) }
            }
        default:
            switch draw {
            case 0..<4: return { StartOrderRecipes.level3(&$0) }
            case 4..<5: return { OutcomeRecipes.make(level: 3, kind: .finalState, &$0) }
            case 5..<6: return { OutcomeRecipes.make(level: 3, kind: .counts, &$0) }
            case 6..<8: return { OutcomeRecipes.make(level: 3, kind: .completions, &$0) }
            case 8..<10: return { PeakRecipe.level3(&$0) }
            case 10..<13: return { TimedRecipes.columns(level: 3, &$0) }
            case 14..<15: return { TimedRecipes.outcome(level: 3, kind: .counts, &$0) }
            case 13..<14, 15..<16: return { TimedRecipes.outcome(level: 3, kind: .finalState, &$0) }
            case 16..<18: return { MainThreadRecipe.make(level: 3, &$0) }
            default: return { CompletionRecipes.before(level: 3, &$0) }
            }
        }
    }

    /// The question `candidate` makes: its file, read back without errors,
    /// asking a kind no blind answer passes; nil otherwise.
    private static func question(_ drawn: Candidate, level: Int, seed: UInt64, attempt: Int) -> GeneratedQuestion? {
        var candidate = drawn
        candidate.draft.kind = candidate.prediction.kind
        candidate.draft.title += " (level \(level), seed \(seed))"
        candidate.draft.header = [
            "A generated question: opscope quiz --generate --level \(level) --seed \(seed)",
            "Its answer is fixed on this engine by construction (docs/GENERATED-QUESTIONS.md);",
            "the notes explain it, and opscope quiz shows them after the answer.",
        ]
        let text = candidate.draft.text()
        let read = ScenarioReader.read(text, path: "generated.ops")
        guard let scenario = read.scenario, !read.hasErrors else { return nil }
        // Worth asking only if no answer that needs no rule passes it.
        guard scenario.quiz?.kind != .together,
            !QuizAnswer.blind(for: scenario).contains(where: { candidate.prediction.isPassed(by: $1, in: scenario) })
        else { return nil }
        return GeneratedQuestion(
            level: level, seed: seed, attempt: attempt, text: text, scenario: scenario,
            concepts: candidate.concepts.sorted(), confirmSpeed: candidate.confirmSpeed,
            prediction: candidate.prediction)
    }
}
