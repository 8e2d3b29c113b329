import Board
import ScenarioKit

/// The verdict on one `expect` line after a run.
///
/// `explanation` is one short lower-case sentence with the evidence, in
/// scenario seconds (`fetch finished at 1.201s, parse started at 1.203s`,
/// `parse never started`, `peak of net was 3, not 2`), so a report can
/// print `✓ fetch before parse: fetch finished at …` without more work.
public struct ExpectationResult: Sendable, Hashable {
    public var expectation: Expectation
    public var held: Bool
    public var explanation: String

    public init(expectation: Expectation, held: Bool, explanation: String) {
        self.expectation = expectation
        self.held = held
        self.explanation = explanation
    }
}
