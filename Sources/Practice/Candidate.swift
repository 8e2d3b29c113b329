import FoundationRules
import ScenarioKit

/// One draw of the generator: the scenario, its predicted answer, what it
/// is about and how fast it may be confirmed. Pure: made without running.
struct Candidate: Sendable {
    var draft: QuestionDraft
    var prediction: Prediction
    var concepts: Set<Concept>
    /// Scenario seconds per real second for the confirming runs.
    var confirmSpeed: Double

    /// Where nothing depends on time: the slowest work is a few
    /// milliseconds of real time, and a run ends in well under a second.
    static let timeFreeSpeed = 100.0
}

/// Lengths of simulated work, in milliseconds of scenario time: they never
/// decide a generated answer, so any of these will do.
func workLength(_ random: inout SplitMix64) -> Int { 50 * random.int(in: 1...6) }

/// The priority levels a generated operation draws from: normal twice, as
/// it is the commonest (and written as no clause).
let drawnPriorities: [PriorityLevel] = [.veryLow, .low, .normal, .normal, .high, .veryHigh]
