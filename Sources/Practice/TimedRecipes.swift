import Board
import ScenarioKit
import TextKit

/// Questions whose answer depends on when things happen, worked out by
/// `TimedModel`: how the operations end after cancels at a time (while
/// one runs: cancelled; before it starts: skipped; after it ended:
/// nothing), and how many sit in each column of the board at a moment.
/// Confirmed at `TimedModel.confirmSpeed`.
enum TimedRecipes {
    /// Draws tried before the recipe gives up on a candidate.
    static let draws = 6

    /// final-state or counts: cancels at a time (and, from level 2, a
    /// suspension or a cap change; from level 3, operations that forget
    /// their finish or ignore the cancel).
    static func outcome(level: Int, kind: QuizKind, _ r: inout SplitMix64) -> Candidate? {
        for _ in 0..<draws {
            var names = NamePool(&r)
            guard let plan = TimedPlan.draw(level: level, for: .outcome, names: &names, random: &r),
                let run = plan.run()
            else { continue }
            let states = run.lives.map(\.finalState)
            // A cancel must have changed an end; at level 1, one caught in flight.
            guard states.contains(where: { $0 == .cancelled || $0 == .skipped }),
                level > 1 || states.contains(.cancelled)
            else { continue }
            var draft = QuestionDraft(
                title: level == 1 ? "Cancels on a clock" : "Cancels, suspension and caps on a clock")
            plan.fill(&draft)
            let finals = zip(plan.model.ops, states).map { (name: $0.name, state: $1) }
            var counts: [FinalState: Int] = [:]
            for state in states { counts[state, default: 0] += 1 }
            let prediction: Prediction =
                kind == .counts ? .counts(counts, stalls: run.stalls) : .finalState(finals, stalls: run.stalls)
            draft.question =
                kind == .counts
                ? "How many of the \(finals.count) operations end each way?"
                : "How does each of the \(finals.count) operations end?"
            draft.notes = TimedStory(plan: plan, run: run).notes + [QuestionDraft.answerNote(prediction.answerText)]
            return Candidate(
                draft: draft, prediction: prediction, concepts: plan.concepts(run).union([.cancellation]),
                confirmSpeed: TimedModel.confirmSpeed)
        }
        return nil
    }

    /// columns at a moment: a multiple of the grid at which nothing
    /// happens, after the first action (if any), with at least two columns
    /// filled; preferably three.
    static func columns(level: Int, _ r: inout SplitMix64) -> Candidate? {
        let g = TimedModel.grid
        for _ in 0..<draws {
            var names = NamePool(&r)
            guard let plan = TimedPlan.draw(level: level, for: .columns, names: &names, random: &r),
                let run = plan.run()
            else { continue }
            let moments = run.moments
            let after = plan.model.actions.first?.at ?? 0
            let boards = stride(from: g, to: run.lastMoment, by: g).filter { !moments.contains($0) && $0 > after }
                .map { (at: $0, columns: columns(run, at: $0)) }
            let rich = boards.filter { $0.columns.count >= 3 }
            let fair = rich.isEmpty ? boards.filter { $0.columns.count >= 2 } : rich
            guard !fair.isEmpty else { continue }
            let chosen = r.pick(fair)
            var draft = QuestionDraft(title: "The board at a moment")
            plan.fill(&draft)
            draft.kindOperands = "at \(QuestionDraft.time(chosen.at))"
            draft.question =
                "How many operations are in each column of the board (pending, ready, executing, finished, "
                + "cancelled) at \(QuestionDraft.time(chosen.at))?"
            let prediction = Prediction.columns(chosen.columns, at: chosen.at, stalls: run.stalls)
            let story = TimedStory(plan: plan, run: run)
            draft.notes = story.notes + [story.board(at: chosen.at), QuestionDraft.answerNote(prediction.answerText)]
            var concepts = plan.concepts(run)
            if level == 1 { concepts.insert(.cap) }
            return Candidate(
                draft: draft, prediction: prediction, concepts: concepts, confirmSpeed: TimedModel.confirmSpeed)
        }
        return nil
    }

    /// How many operations sit in each column at `t`, no empty column.
    static func columns(_ run: TimedModel.Run, at t: Int) -> [Phase: Int] {
        var counts: [Phase: Int] = [:]
        for life in run.lives {
            if let column = life.column(at: t) { counts[column, default: 0] += 1 }
        }
        return counts
    }
}
