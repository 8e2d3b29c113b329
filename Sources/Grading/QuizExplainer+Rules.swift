import Board
import RunEvents
import ScenarioKit
import TextKit

/// The rules an explanation leans on, said once per explanation: a rule
/// given in parentheses in one of its sentences is not given again in the
/// next, and a clause said already is not said twice.
extension QuizExplainer {
    /// The rules `withoutRepeats` says once (their words: `RuleWords`).
    static let rules = [RuleWords.qosRule, RuleWords.threadRule]

    /// `explanations` with each rule's parenthesis kept only where it is
    /// first given, and each clause (the parts between `; ` outside
    /// parentheses) dropped where it was said before. A sentence's first
    /// clause always stays: it says which difference the sentence is about.
    public static func withoutRepeats(_ explanations: [String]) -> [String] {
        var rulesGiven: Set<String> = []
        var clausesSaid: Set<String> = []
        return explanations.map { sentence in
            var text = sentence
            for rule in rules where text.contains("(\(rule))") {
                let parenthesis = " (\(rule))"
                if rulesGiven.contains(rule) {
                    text = text.replacingOccurrences(of: parenthesis, with: "")
                } else if let first = text.range(of: parenthesis) {
                    // Given here, once: a second clause of this sentence leans on it too.
                    let rest = text[first.upperBound...].replacingOccurrences(of: parenthesis, with: "")
                    text = text[..<first.upperBound] + rest
                    rulesGiven.insert(rule)
                }
            }
            let clauses = topLevelClauses(text)
            // A clause is the same one with or without its rule.
            let bare = clauses.map { clause in
                rules.reduce(clause) { $0.replacingOccurrences(of: " (\($1))", with: "") }
            }
            var kept = [clauses[0]]
            for (clause, bare) in zip(clauses, bare).dropFirst() where !clausesSaid.contains(bare) {
                kept.append(clause)
            }
            clausesSaid.formUnion(bare)
            return kept.joined(separator: "; ")
        }
    }

    /// `text` cut at each `; ` that is not inside parentheses.
    static func topLevelClauses(_ text: String) -> [String] {
        var clauses: [String] = []
        var current = ""
        var depth = 0
        var previous: Character?
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            default: break
            }
            if character == " ", previous == ";", depth == 0 {
                current.removeLast()
                clauses.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        clauses.append(current)
        return clauses
    }

    // MARK: - When an operation started

    /// What let `op` start when it did: the prerequisite that finished
    /// last, its add, or what let its queue pick it.
    func whyThen(_ op: OperationID, started: RunTimeline.Stamp) -> String {
        if let (prerequisite, finished) = lastPrerequisite(of: op, before: started.seq),
            finished.seq > (timeline[op].added?.seq ?? 0)
        {
            let what = scenario[operation: op].dependencies.contains(prerequisite) ? "its dependency" : "the barrier"
            return "once \(what) \(name(prerequisite)) finished at \(time(finished))"
        }
        let moment = momentText(op, op, queue: scenario[operation: op].queue, before: started.seq)
        if moment.hasPrefix("when ") { return moment }
        if isAddedLater(op), let added = timeline[op].added {
            return "once it was added at \(time(added))\(addActionText(op))"
        }
        return "as soon as its queue could take it"
    }

    // MARK: - Queue actions that did not cancel

    /// Why an operation that finished was not cancelled although something
    /// on its queue might look as if it were: a cancel-all made before it
    /// was added (it touches only what is in the queue then), or a
    /// suspension (it cancels nothing). Clauses joined by `; `, the rule
    /// first, so that `withoutRepeats` says the rule once; nil when
    /// neither happened.
    func notCancelledBy(_ op: OperationID) -> String? {
        let f = timeline[op]
        let q = scenario[operation: op].queue
        guard let added = f.added else { return nil }
        let actions = timeline.queueActions[q.index]
        if let (stamp, cause) = actions.last(where: {
            if case .cancelAll = $0.cause.action { return $0.stamp.seq < added.seq }
            return false
        }) {
            return "the cancel-all of \(queueName(q)) at \(time(stamp))\(causeText(cause)) cancelled only the "
                + "operations in the queue at that moment; \(name(op)) was added at \(time(added)), after it"
        }
        let finished = f.finished?.seq ?? Int.max
        guard
            let (stamp, cause) = actions.first(where: {
                if case .suspend = $0.cause.action { return $0.stamp.seq > added.seq && $0.stamp.seq < finished }
                return false
            })
        else { return nil }
        let rule =
            "suspending \(queueName(q)) at \(time(stamp))\(causeText(cause)) cancels nothing: it only keeps the "
            + "queue from starting more operations until it resumes"
        if let started = f.started, started.seq > stamp.seq, let resumed = timeline.nextResume(q, after: stamp.seq) {
            return rule + "; \(name(op)) started at \(time(started)), after the resume at \(time(resumed))"
        } else if let started = f.started, started.seq < stamp.seq {
            return rule + "; \(name(op)) had started at \(time(started)), before it"
        }
        return rule
    }
}
