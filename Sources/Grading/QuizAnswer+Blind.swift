import Board
import ScenarioKit

extension QuizAnswer {
    /// The answers to `scenario`'s quiz that need no knowledge of a rule,
    /// each with its name: those that need no thought (the file's order,
    /// its reverse, the alphabet; every operation ending one way; one at a
    /// time or all at once; none or all; every operation in one column)
    /// and those read off the file (the declared cap of each queue, the
    /// number of its operations where it has none, and the columns that
    /// would fill; the operations written on the main queue; every
    /// operation with a completion block). A question worth asking is
    /// passed by none of them. Empty for a yes-or-no question (`together`),
    /// which one of its two answers always passes, and for a scenario
    /// without a quiz.
    public static func blind(for scenario: Scenario) -> [(name: String, answer: QuizAnswer)] {
        guard let quiz = scenario.quiz else { return [] }
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        let byName = ops.sorted { scenario[operation: $0].name < scenario[operation: $1].name }
        let onMain = Set(ops.filter { scenario[queue: scenario[operation: $0].queue].isMain })
        let withBlocks = Set(ops.filter { scenario[operation: $0].completion != nil })
        // The most of each queue's operations its declared cap lets run.
        let declared = { (q: QueueID) -> Int in
            let count = ops.filter { scenario[operation: $0].queue == q }.count
            if scenario[queue: q].isMain { return min(1, count) }
            guard case .limit(let n) = scenario[queue: q].cap else { return count }
            return min(n, count)
        }
        switch quiz.kind {
        case .startOrder:
            return [
                ("the file's order", .startOrder(ops)), ("its reverse", .startOrder(ops.reversed())),
                ("alphabetical", .startOrder(byName)),
            ]
        case .finalState:
            return FinalState.allCases.map { state in ("all \(state.rawValue)", .finalState(ops.map { ($0, state) })) }
        case .counts:
            return FinalState.allCases.map { ("all \($0.rawValue)", .counts([$0: ops.count])) }
        case .peak:
            let queues = QuizAnswerParser.askedQueues(scenario)
            let all = queues.map { q in (q, ops.filter { scenario[operation: $0].queue == q }.count) }
            return [
                ("one at a time", .peak(queues.map { ($0, 1) })), ("all at once", .peak(all)),
                ("the declared caps", .peak(queues.map { ($0, declared($0)) })),
            ]
        case .mainThread:
            return [
                ("none", .mainThread([])), ("all", .mainThread(Set(ops))),
                ("the main queue's operations", .mainThread(onMain)),
            ]
        case .completions:
            let asked = QuizAnswerParser.askedCompletions(quiz, scenario)
            return [
                ("none", .completions([])), ("all", .completions(Set(asked))),
                ("every operation with a completion block", .completions(withBlocks.intersection(asked))),
            ]
        case .columns:
            let running = QuizAnswerParser.askedQueues(scenario).map(declared).reduce(0, +)
            return Phase.columns.map { ("all \($0.rawValue)", .columns([$0: ops.count])) } + [
                (
                    "the declared caps executing, the rest ready",
                    .columns([.executing: running, .ready: ops.count - running])
                )
            ]
        case .together:
            return []
        }
    }
}
