import Board
import Grading
import RunEvents
import ScenarioKit
import TextKit

/// A generated question's answer, worked out from how it was built before
/// anything runs; the confirming runs must each give exactly this.
enum Prediction: Sendable {
    /// The operations that start, in order (barriers left out).
    case startOrder([String])
    /// How each operation (not the barriers) ends, in file order; whether
    /// the run stalls (some operation never finishes: stuck, or skipped
    /// and never finished).
    case finalState([(name: String, state: FinalState)], stalls: Bool)
    /// The most of each queue's operations executing at once.
    case peak([(queue: String, count: Int)])
    /// How many operations end each way; whether the run stalls.
    case counts([FinalState: Int], stalls: Bool)
    /// The operations that run on the main thread, in file order.
    case mainThread([String])
    /// The operations whose completion blocks run (before `before`
    /// starts, when it is given), in file order; whether the run stalls.
    case completions([String], before: String?, stalls: Bool)
    /// How many operations sit in each column at `at` (milliseconds of
    /// scenario time), no column with none; whether the run stalls.
    case columns([Phase: Int], at: Int, stalls: Bool)

    var kind: QuizKind {
        switch self {
        case .startOrder: .startOrder
        case .finalState: .finalState
        case .peak: .peak
        case .counts: .counts
        case .mainThread: .mainThread
        case .completions: .completions
        case .columns: .columns
        }
    }

    /// The answer as a learner types it.
    var answerText: String {
        switch self {
        case .startOrder(let names):
            names.joined(separator: ", ")
        case .finalState(let pairs, _):
            pairs.map { "\($0.name) \($0.state.rawValue)" }.joined(separator: ", ")
        case .peak(let pairs):
            pairs.map { "\($0.queue) \($0.count)" }.joined(separator: ", ")
        case .counts(let counts, _):
            FinalState.allCases.compactMap { state in counts[state].map { "\(state.rawValue) \($0)" } }
                .joined(separator: ", ")
        case .mainThread(let names), .completions(let names, _, _):
            names.isEmpty ? "none" : names.joined(separator: ", ")
        case .columns(let counts, _, _):
            Self.columnsText(counts)
        }
    }

    /// `ready 1, executing 2`: the columns with something in them, left
    /// to right; `none` when the board is empty.
    static func columnsText(_ counts: [Phase: Int]) -> String {
        let parts = Phase.columns.compactMap { column in
            counts[column].flatMap { $0 > 0 ? "\(column.rawValue) \($0)" : nil }
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Some operation never finishes: the run ends stalled.
    var stalls: Bool {
        switch self {
        case .startOrder, .peak, .mainThread: false
        case .finalState(_, let stalls), .counts(_, let stalls), .completions(_, _, let stalls),
            .columns(_, _, let stalls):
            stalls
        }
    }

    /// A run's answer is of another kind than the question's.
    static let otherQuiz = "its quiz asks something else"

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
        case .finalState(let pairs, _):
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
        case .counts(let counts, let stalls):
            var seen: [FinalState: Int] = [:]
            for id in scenario.operations.indices.map(OperationID.init) where !scenario[operation: id].isBarrier {
                seen[timeline.finalState(of: id), default: 0] += 1
            }
            return seen == counts ? nil : "the counts were \(Prediction.counts(seen, stalls: stalls).answerText)"
        case .mainThread(let names), .completions(let names, _, _):
            guard let observed = QuizAnswer.observed(for: scenario, events: events) else { return "it has no quiz" }
            let ids: Set<OperationID>
            switch observed {
            case .mainThread(let set), .completions(let set): ids = set
            default: return Self.otherQuiz
            }
            let seen = scenario.operations.indices.map(OperationID.init).filter(ids.contains).map(name)
            let what = kind == .mainThread ? "on the main thread ran" : "the completion blocks that ran were"
            return seen == names ? nil : "\(what) \(seen.isEmpty ? "none" : seen.joined(separator: ", "))"
        case .columns(let counts, let at, _):
            guard case .columns(let seen)? = QuizAnswer.observed(for: scenario, events: events) else {
                return Self.otherQuiz
            }
            let nonzero = seen.filter { $0.value > 0 }
            return nonzero == counts
                ? nil : "at \(QuestionDraft.time(at)) the columns were \(Self.columnsText(nonzero))"
        }
    }

    /// Whether `answer` (one of `QuizAnswer.blind`'s, say) would be graded
    /// right by a run that gives this prediction: the same answer, or one
    /// the grader accepts in its place (a state left out of counts or
    /// columns is 0; an operation cancelled before it started may be
    /// called skipped or stuck). Never false where the grader could say
    /// right: where in doubt, it says yes.
    func isPassed(by answer: QuizAnswer, in scenario: Scenario) -> Bool {
        let id = { (name: String) in scenario.operationID(named: name) }
        switch (self, answer) {
        case (.startOrder(let names), .startOrder(let ids)):
            return names.map(id) == ids.map { Optional($0) }
        case (.finalState(let pairs, _), .finalState(let given)):
            let states = Dictionary(given, uniquingKeysWith: { first, _ in first })
            return pairs.allSatisfy { name, state in
                guard let op = id(name), let yours = states[op] else { return false }
                return yours == state || (state == .skipped && yours == .stuck)
            }
        case (.peak(let pairs), .peak(let given)):
            let numbers = Dictionary(given, uniquingKeysWith: { first, _ in first })
            return pairs.allSatisfy { queue, count in scenario.queueID(named: queue).flatMap { numbers[$0] } == count }
        case (.counts(let counts, _), .counts(let given)):
            return counts.filter { $0.value > 0 } == given.filter { $0.value > 0 }
        case (.mainThread(let names), .mainThread(let ids)), (.completions(let names, _, _), .completions(let ids)):
            return Set(names.compactMap(id)) == ids
        case (.columns(let counts, _, _), .columns(let given)):
            return counts.filter { $0.value > 0 } == given.filter { $0.value > 0 }
        default:
            return false
        }
    }
}
