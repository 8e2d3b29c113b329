import Board
import ScenarioKit
import TextKit

/// Reading the answers to the questions about named operations:
///
/// - completions: the operations whose completion blocks run (before the
///   quiz's operation starts, when it names one), separated by commas or
///   spaces, or `none`; each must have a completion block.
/// - together: `yes` or `no` (`y`, `n`, `true`, `false`).
extension QuizAnswerParser {
    /// The operations a `completions` question asks about: those with a
    /// completion block, in file order, less the one named after `before`.
    public static func askedCompletions(_ quiz: Quiz, _ scenario: Scenario) -> [OperationID] {
        scenario.operations.indices.map(OperationID.init).filter {
            scenario[operation: $0].completion != nil && !$0.isBarrierIn(scenario) && $0 != quiz.operands.first
        }
    }

    static func completions(_ text: String, _ scenario: Scenario) -> Result<QuizAnswer, QuizAnswerError> {
        let empty = "name the operations whose completion blocks the question asks for, or 'none'"
        var (ids, messages) = operationSet(text, scenario, empty: empty)
        if let quiz = scenario.quiz {
            let asked = Set(askedCompletions(quiz, scenario))
            for id in ids.filter({ !asked.contains($0) }).sorted(by: { $0.index < $1.index }) {
                messages.append(
                    id == quiz.operands.first
                        ? "'\(scenario.opName(id))' is the operation the question is about, not one of the blocks "
                            + "asked about"
                        : "'\(scenario.opName(id))' has no completion block")
            }
        }
        return messages.isEmpty ? .success(.completions(ids)) : .failure(QuizAnswerError(messages))
    }

    static func together(_ text: String) -> Result<QuizAnswer, QuizAnswerError> {
        let words = text.split { $0 == "," || $0.isWhitespace }.map { $0.lowercased() }
        switch words {
        case ["yes"], ["y"], ["true"]: return .success(.together(true))
        case ["no"], ["n"], ["false"]: return .success(.together(false))
        case []: return .failure(QuizAnswerError(["the answer is empty: type yes or no"]))
        default:
            return .failure(QuizAnswerError(["'\(words.joined(separator: " "))' is not yes or no: type yes or no"]))
        }
    }
}

extension OperationID {
    fileprivate func isBarrierIn(_ scenario: Scenario) -> Bool { scenario[operation: self].isBarrier }
}
