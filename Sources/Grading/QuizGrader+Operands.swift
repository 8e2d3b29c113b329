import Board
import RunEvents
import ScenarioKit
import TextKit

/// The answers about named operations: whose completion blocks run (or run
/// before an operation starts), and whether two operations ever execute
/// at the same time.
extension QuizGrader {
    static func completions(
        _ scenario: Scenario, _ explainer: QuizExplainer, _ answer: Set<OperationID>
    ) -> QuizGrade {
        let quiz = scenario.quiz ?? Quiz(question: "", kind: .completions)
        let target = quiz.operands.first
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        var notes: [String] = []
        for op in QuizAnswerParser.askedCompletions(quiz, scenario) {
            let ran = explainer.completionStamp(of: op)
            let yours = answer.contains(op)
            let (actual, runText): (Bool, String)
            var right: Bool
            if let target {
                let start = explainer.timeline[target].started
                actual = ran != nil && (start == nil || ran!.seq < start!.seq)
                runText = ran == nil ? "never ran" : actual ? "before" : "after"
                right = yours == actual
                if !right, let ran, let start, abs(ran.time - start.time) < explainer.tieWindow,
                    !explainer.causallyOrdered(blockOf: op, start: target)
                {
                    // Where nothing the run recorded orders a completion
                    // block with another operation's start, within the
                    // window it is a race; a recorded cause is never one.
                    right = true
                    notes.append(
                        "\(Spelling.possessive(explainer.name(op))) completion block and \(Spelling.possessive(explainer.name(target))) start came "
                            + "\(explainer.tieWindowText) of each other: nothing orders them, so either "
                            + "answer counts")
                }
            } else {
                actual = ran != nil
                runText = ran == nil ? "never ran" : "ran"
                right = yours == actual
            }
            rows.append(
                QuizGrade.Row(
                    label: explainer.name(op), yours: yours ? (target == nil ? "ran" : "before") : "—",
                    actual: runText, time: ran.map(explainer.time) ?? "", right: right,
                    moment: ran?.seq ?? target.flatMap { explainer.timeline[$0].started?.seq }))
            if !right { explanations.append(explainer.whyCompletion(of: op, before: target)) }
        }
        return graded(.completions, rows, explanations, notes: notes)
    }

    static func together(_ scenario: Scenario, _ explainer: QuizExplainer, _ answer: Bool) -> QuizGrade {
        guard let quiz = scenario.quiz, quiz.operands.count == 2 else {
            return graded(.together, [], [])
        }
        let (a, b) = (quiz.operands[0], quiz.operands[1])
        let moment = explainer.timeline.overlap(of: [a, b]).moment
        let actual = moment != nil
        let row = QuizGrade.Row(
            label: "\(explainer.name(a)) and \(explainer.name(b))", yours: answer ? "yes" : "no",
            actual: actual ? "yes" : "no", time: moment.map(explainer.time) ?? "", right: answer == actual,
            moment: moment?.seq ?? [a, b].compactMap { explainer.timeline[$0].started?.seq }.max())
        return graded(.together, [row], answer == actual ? [] : [explainer.whyTogether(a, b, at: moment)])
    }
}

extension QuizExplainer {
    /// When `op`'s completion block ran, if it did (the run's facts keep it).
    func completionStamp(of op: OperationID) -> RunTimeline.Stamp? { timeline[op].completionRan }

    /// Whether the run's recorded causes order `op`'s completion block and
    /// `target`'s start, either way: the block let `target` go
    /// (`releasedByBlock`), or `op` waits for `target` (so its block runs
    /// after `target` finished).
    func causallyOrdered(blockOf op: OperationID, start target: OperationID) -> Bool {
        releasedByBlock(of: op, target) != nil || timeline.dependencyPath(from: op, to: target) != nil
    }

    /// The action of `op`'s completion block that let `target` go, directly
    /// or through what `target` waits for: it resumed the queue one of
    /// them was held in by its suspension, or cancelled the dependency one
    /// of them waited for. With the operation it let go and when.
    func releasedByBlock(
        of op: OperationID, _ target: OperationID
    ) -> (action: Action, stamp: RunTimeline.Stamp, released: OperationID)? {
        var waiting = [target]
        var seen: Set<OperationID> = [target]
        var index = 0
        while index < waiting.count {
            for dep in scenario[operation: waiting[index]].dependencies where seen.insert(dep).inserted {
                waiting.append(dep)
            }
            index += 1
        }
        for event in timeline.events {
            guard case .action(let action, .completion(op), ignored: nil) = event.kind else { continue }
            let before = timeline.board(through: event.seq - 1)
            for held in waiting {
                guard (timeline[held].dispatched?.seq ?? Int.max) > event.seq else { continue }
                let releases = before.whyNotRunning(held).contains { reason in
                    switch (action, reason) {
                    case (.resume(let q), .queueSuspended(let suspended)): q == suspended
                    case (.cancel(let x), .waitingFor(let ids)): ids.contains(x)
                    default: false
                    }
                }
                if releases { return (action, RunTimeline.Stamp(seq: event.seq, time: event.time), held) }
            }
        }
        return nil
    }

    /// Whether and when `op`'s completion block ran, against `target`'s
    /// start when there is one, and the rule.
    func whyCompletion(of op: OperationID, before target: OperationID?) -> String {
        let opName = name(op)
        guard let ran = completionStamp(of: op) else {
            return
                "\(Spelling.possessive(opName)) completion block never ran: a completion block runs once its operation is finished, "
                + "and \(opName) never finished (\(stallReason(op) ?? "the run ended first"))"
        }
        let ended = timeline[op].finished.map { " (\(opName) finished at \(time($0)))" } ?? ""
        let rule = "a completion block runs after its operation finishes\(ended), cancelled or not"
        guard let target else { return "\(Spelling.possessive(opName)) completion block ran at \(time(ran)): \(rule)" }
        let targetName = name(target)
        guard let start = timeline[target].started else {
            return
                "\(Spelling.possessive(opName)) completion block ran at \(time(ran)) and \(targetName) never started: "
                + whyNeverStarted(target)
        }
        if ran.seq < start.seq {
            let text =
                "\(Spelling.possessive(opName)) completion block ran at \(time(ran)), before \(targetName) started at \(time(start))"
            guard let release = releasedByBlock(of: op, target) else { return text + ": " + rule }
            let action = ScenarioPrinter.actionText(release.action, in: scenario)
            let whom =
                release.released == target ? targetName : "\(name(release.released)), which \(targetName) waits for,"
            let held =
                if case .resume = release.action { "held in its suspended queue" } else {
                    "waiting for what it cancelled"
                }
            return text + ": its '\(action)' at \(time(release.stamp)) is what let \(whom) go (\(held) until then), "
                + "so the block comes first on every run"
        }
        let waits =
            timeline.dependencyPath(from: target, to: op) != nil
            ? "\(targetName) waits for \(opName) to finish, not for its completion block, which is separate work on "
                + "a thread of the pool"
            : "nothing makes \(targetName) wait for \(Spelling.possessive(opName)) completion block"
        return
            "\(Spelling.possessive(opName)) completion block ran at \(time(ran)), after \(targetName) started at \(time(start)): "
            + "\(rule); \(waits)"
    }

    /// Why `a` and `b` did or did not execute at once (`moment`: the first
    /// moment both were executing).
    func whyTogether(_ a: OperationID, _ b: OperationID, at moment: RunTimeline.Stamp?) -> String {
        let (sa, sb) = (timeline[a].started, timeline[b].started)
        if let moment, let sa, let sb {
            let (qa, qb) = (scenario[operation: a].queue, scenario[operation: b].queue)
            let cap = timeline.board(through: moment.seq)[queue: qa].limit
            let room =
                qa != qb
                ? "they are on different queues, each with its own slots"
                : cap.map { "\(Spelling.possessive(queueName(qa))) cap was \($0) then, room for both" }
                    ?? "\(queueName(qa)) has no cap: the system decides how many run at once"
            return "\(name(a)) (from \(time(sa))) and \(name(b)) (from \(time(sb))) were both executing at "
                + "\(time(moment)): nothing kept them apart; \(room)"
        }
        guard let sa else { return whyNeverStarted(a) }
        guard let sb else { return whyNeverStarted(b) }
        let (first, second) = sa.seq < sb.seq ? (a, b) : (b, a)
        let secondStart = sa.seq < sb.seq ? sb : sa
        let stopped = timeline[first].moments.stopped.map { " (\(name(first)) stopped at \(time($0)))" } ?? ""
        if let reason = structuralReason(first, second) { return reason + stopped + ": they never executed at once" }
        let q = scenario[operation: first].queue
        if q == scenario[operation: second].queue {
            if scenario[queue: q].isMain {
                return "the main queue runs one operation at a time, on the main thread\(stopped)"
            }
            if timeline.board(through: secondStart.seq - 1)[queue: q].limit == 1 {
                return "\(queueName(q)) ran one operation at a time (its cap was 1 then): \(name(second)) started at "
                    + "\(time(secondStart)), once a slot was free\(stopped)"
            }
        }
        return "\(name(first)) stopped before \(name(second)) started at \(time(secondStart))\(stopped): nothing held "
            + "them apart but their timing"
    }
}
