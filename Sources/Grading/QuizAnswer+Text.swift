import Board
import ScenarioKit

extension QuizAnswer {
    /// The answer as a learner types it, on one line: what
    /// `QuizAnswerParser.parse` reads back as this answer.
    public func text(in scenario: Scenario) -> String {
        let names = { (ids: [OperationID]) in ids.isEmpty ? "none" : ids.map(scenario.opName).joined(separator: ", ") }
        switch self {
        case .startOrder(let ids):
            return ids.map(scenario.opName).joined(separator: ", ")
        case .finalState(let pairs):
            return pairs.map { "\(scenario.opName($0.0)) \($0.1.rawValue)" }.joined(separator: ", ")
        case .peak(let pairs):
            return pairs.map { "\(scenario.queueName($0.0)) \($0.1)" }.joined(separator: ", ")
        case .counts(let counts):
            return FinalState.allCases.compactMap { state in counts[state].map { "\(state.rawValue) \($0)" } }
                .joined(separator: ", ")
        case .mainThread(let ids), .completions(let ids):
            return names(ids.sorted())
        case .together(let yes):
            return yes ? "yes" : "no"
        case .columns(let counts):
            return Phase.columns.compactMap { column in counts[column].map { "\(column.rawValue) \($0)" } }
                .joined(separator: ", ")
        }
    }
}
