import Board
import RunEvents
import ScenarioKit

/// A generated question's answer, worked out from how it was built before
/// anything runs; the confirming runs must each give exactly this.
enum Prediction: Sendable {
    /// The operations that start, in order (barriers left out).
    case startOrder([String])
    /// How each operation (not the barriers) ends, in file order.
    case finalState([(name: String, state: FinalState)])
    /// The most of each queue's operations executing at once.
    case peak([(queue: String, count: Int)])
    /// How many operations end each way.
    case counts([FinalState: Int])

    var kind: QuizKind {
        switch self {
        case .startOrder: .startOrder
        case .finalState: .finalState
        case .peak: .peak
        case .counts: .counts
        }
    }

    /// The answer as a learner types it.
    var answerText: String {
        switch self {
        case .startOrder(let names):
            names.joined(separator: ", ")
        case .finalState(let pairs):
            pairs.map { "\($0.name) \($0.state.rawValue)" }.joined(separator: ", ")
        case .peak(let pairs):
            pairs.map { "\($0.queue) \($0.count)" }.joined(separator: ", ")
        case .counts(let counts):
            FinalState.allCases.compactMap { state in counts[state].map { "\(state.rawValue) \($0)" } }
                .joined(separator: ", ")
        }
    }

    /// Some operation never finishes: the run ends stalled.
    var stalls: Bool {
        switch self {
        case .startOrder, .peak: false
        case .finalState(let pairs): pairs.contains { $0.state == .stuck }
        case .counts(let counts): (counts[.stuck] ?? 0) > 0
        }
    }

    /// How a run of `scenario` differs from this, or nil when it gives
    /// exactly this answer (and ended as predicted).
    func difference(from events: [LifecycleEvent], of scenario: Scenario) -> String? {
        guard case .end(let outcome) = events.last?.kind else { return "the run did not end" }
        switch (outcome, stalls) {
        case (.completed, true): return "the run completed, but it should have stalled"
        case (.stalled, false): return "the run stalled, but it should have completed"
        default: break
        }
        let timeline = RunTimeline(scenario: scenario, events: events)
        let name = { (id: OperationID) in scenario[operation: id].name }
        switch self {
        case .startOrder(let names):
            let seen = timeline.startOrder.filter { !scenario[operation: $0].isBarrier }.map(name)
            return seen == names ? nil : "it started \(seen.joined(separator: ", "))"
        case .finalState(let pairs):
            for (op, state) in pairs {
                guard let id = scenario.operationID(named: op) else { return "no operation \(op)" }
                let seen = timeline.finalState(of: id)
                if seen != state { return "\(op) ended \(seen.rawValue), not \(state.rawValue)" }
            }
            return nil
        case .peak(let pairs):
            for (queue, count) in pairs {
                guard let id = scenario.queueID(named: queue) else { return "no queue \(queue)" }
                let seen = timeline.peak(of: id)
                if seen != count { return "\(queue) peaked at \(seen), not \(count)" }
            }
            return nil
        case .counts(let counts):
            var seen: [FinalState: Int] = [:]
            for id in scenario.operations.indices.map(OperationID.init) where !scenario[operation: id].isBarrier {
                seen[timeline.finalState(of: id), default: 0] += 1
            }
            return seen == counts ? nil : "the counts were \(Prediction.counts(seen).answerText)"
        }
    }
}
