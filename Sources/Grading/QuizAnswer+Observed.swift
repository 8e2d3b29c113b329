import Board
import RunEvents
import ScenarioKit

extension QuizAnswer {
    /// The answer a run gives to `scenario`'s quiz, as a learner who
    /// watched it would write it: the real start order (barriers left
    /// out), how each operation ended, each asked queue's peak, the counts
    /// per state and per column, the operations on the main thread, the
    /// completion blocks that ran (before the quiz's operation started),
    /// whether the two ever ran at once. Nil for a scenario without a quiz.
    public static func observed(for scenario: Scenario, events: [LifecycleEvent]) -> QuizAnswer? {
        guard let quiz = scenario.quiz else { return nil }
        let timeline = RunTimeline(scenario: scenario, events: events)
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        switch quiz.kind {
        case .startOrder:
            return .startOrder(timeline.startOrder.filter { !scenario[operation: $0].isBarrier })
        case .finalState:
            return .finalState(ops.map { ($0, timeline.finalState(of: $0)) })
        case .peak:
            return .peak(QuizAnswerParser.askedQueues(scenario).map { ($0, timeline.peak(of: $0)) })
        case .counts:
            var counts: [FinalState: Int] = [:]
            for op in ops { counts[timeline.finalState(of: op), default: 0] += 1 }
            return .counts(counts)
        case .mainThread:
            return .mainThread(Set(ops.filter { timeline[$0].thread?.isMain == true }))
        case .completions:
            let target = quiz.operands.first.flatMap { timeline[$0].started }
            return .completions(
                Set(
                    QuizAnswerParser.askedCompletions(quiz, scenario).filter { op in
                        guard let ran = timeline[op].completionRan else { return false }
                        return target.map { ran.seq < $0.seq } ?? true
                    }))
        case .together:
            return .together(quiz.operands.count == 2 && timeline.overlap(of: Set(quiz.operands)).moment != nil)
        case .columns:
            let board = timeline.board(atTime: quiz.moment?.seconds ?? 0)
            var counts: [Phase: Int] = [:]
            for card in board.cards where !card.isBarrier && card.phase != .notAdded {
                counts[card.phase, default: 0] += 1
            }
            return .columns(counts)
        }
    }
}
