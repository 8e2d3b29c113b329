import Board
import ScenarioKit
import TextKit

/// A scenario as plain text for a person about to answer its quiz: the
/// queues, the operations in insertion order, the timed actions, then the
/// question. The title and notes are left out: they often give the answer
/// away ("Six downloads, two at a time"; `opscope quiz` prints them after
/// the result).
public enum QuizSheet {
    public static func text(for scenario: Scenario) -> String {
        var lines: [String] = []
        lines.append("Queues:")
        for queue in scenario.queues { lines.append("  \(queue.name): \(describe(queue))") }

        lines += ["", "Operations, in the order they are added:"]
        for id in insertionOrder(scenario) {
            lines.append("  " + describe(id, in: scenario))
        }
        let byHand = scenario.startedByHand.sorted()
        if !byHand.isEmpty {
            lines += ["", "Operations in no queue (timed actions start them by hand):"]
            for id in byHand { lines.append("  " + describe(id, in: scenario)) }
        }

        if !scenario.actions.isEmpty {
            lines += ["", "Timed actions:"]
            lines += timedActions(scenario).map { "  " + $0 }
        }
        if let quiz = scenario.quiz {
            lines += ["", "Question: \(quiz.question)"]
            if let about = QuizSheet.subject(of: quiz, in: scenario) { lines.append("  (\(about))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The timed actions in time order, one line each: `at 200ms: cancel
    /// fetch`; a call the main thread makes says so (`at 1.3s: wait badge
    /// (the main thread calls badge.waitUntilFinished())`), since who
    /// calls is part of what the file says.
    public static func timedActions(_ scenario: Scenario) -> [String] {
        scenario.actions.map { timed in
            let text = ScenarioPrinter.actionText(timed.action, in: scenario)
            let call: String? =
                switch timed.action {
                case .wait(let op): "\(scenario.opName(op)).waitUntilFinished()"
                case .waitAll(let q): "\(scenario.queueName(q)).waitUntilAllOperationsAreFinished()"
                case .start(let op): "\(scenario.opName(op)).start()"
                default: nil
                }
            return "at \(ScenarioPrinter.format(timed.time)): \(text)"
                + (call.map { " (the main thread calls \($0))" } ?? "")
        }
    }

    /// What the file says that the board's cards and queue lines do not
    /// and an answer may need, in time order: the timed actions
    /// (`timedActions`), then the operations' clauses a card does not show
    /// (its quality of service, a completion block and what it does,
    /// ignoring cancel, never posting isFinished, execution blocks).
    public static func givens(_ scenario: Scenario) -> [String] {
        var lines = timedActions(scenario)
        for (index, spec) in scenario.operations.enumerated() where !spec.isBarrier {
            let id = OperationID(index)
            var clauses: [String] = []
            if let qos = spec.qos, spec.priority == nil { clauses.append("qos \(qos.rawValue)") }
            if case .blocks = spec.body { clauses.append(body(spec)) }
            if let leftover = scenario.leftover(of: id) { clauses.append(leftsRunning(leftover)) }
            if scenario.forgetsIfCancelled.contains(id) {
                clauses.append("never posts isFinished when cancelled before it starts")
            } else if spec.body.isAsync && spec.neverFinishes {
                clauses.append("never posts isFinished")
            }
            if spec.ignoresCancel { clauses.append("ignores cancel") }
            if let actions = spec.completion {
                let what = actions.map { ScenarioPrinter.actionText($0, in: scenario) }.joined(separator: ", ")
                clauses.append(what.isEmpty ? "has a completion block" : "its completion block does '\(what)'")
            }
            if !clauses.isEmpty { lines.append("\(scenario.opName(id)): " + clauses.joined(separator: ", ")) }
        }
        return lines
    }

    /// What the question of a kind with operands is about, in words, so
    /// the learner knows what the answer names: `about fetch and parse`.
    public static func subject(of quiz: Quiz, in scenario: Scenario) -> String? {
        let names = quiz.operands.map { scenario[operation: $0].name }
        switch quiz.kind {
        case .together:
            return "do \(Spelling.list(names)) ever execute at the same time? answer yes or no"
        case .completions:
            let blocks = QuizAnswerParser.askedCompletions(quiz, scenario).map { scenario[operation: $0].name }
            let when = names.first.map { " before \($0) starts" } ?? ""
            return "completion blocks of \(Spelling.list(blocks)): which run\(when)?"
        default:
            return nil
        }
    }

    /// `cap 2`, `serial`, `the main queue`, `no cap (the system decides)`,
    /// then `qos …` and `suspended at the start`.
    public static func describe(_ queue: QueueSpec) -> String {
        if queue.isMain { return "the main queue (serial, runs on the main thread)" }
        var parts: [String] = []
        switch queue.cap {
        case .systemDefault: parts.append("no cap (the system decides)")
        case .limit(1): parts.append("serial")
        case .limit(let n): parts.append("cap \(n)")
        }
        if let qos = queue.qos { parts.append("qos \(qos.rawValue)") }
        if queue.startsSuspended { parts.append("suspended at the start") }
        return parts.joined(separator: ", ")
    }

    /// `parse on net: work 400ms, after fetch, priority high, qos utility,
    /// completion block, ignores cancel`.
    public static func describe(_ id: OperationID, in scenario: Scenario) -> String {
        let spec = scenario[operation: id]
        var parts = [body(spec, forgetsOnlyIfCancelled: scenario.forgetsIfCancelled.contains(id))]
        if let leftover = scenario.leftover(of: id) { parts.append(leftsRunning(leftover)) }
        if !spec.dependencies.isEmpty {
            parts.append("after " + spec.dependencies.map { scenario[operation: $0].name }.joined(separator: ", "))
        }
        if let priority = spec.priority { parts.append("priority \(priority.rawValue)") }
        if let qos = spec.qos { parts.append("qos \(qos.rawValue)") }
        if let actions = spec.completion {
            let what = actions.map { ScenarioPrinter.actionText($0, in: scenario) }.joined(separator: ", ")
            parts.append(what.isEmpty ? "completion block" : "completion block that does '\(what)'")
        }
        if spec.ignoresCancel { parts.append("ignores cancel") }
        if let added = addTime(of: id, in: scenario) {
            parts.append("added at \(ScenarioPrinter.format(added))")
        }
        if scenario.startedByHand.contains(id) { return "\(spec.name): " + parts.joined(separator: ", ") }
        let queue = scenario[queue: spec.queue].name
        return "\(spec.name) on \(queue): " + parts.joined(separator: ", ")
    }

    /// Operations added at the start in file order, then those added by
    /// `add` actions, in the order of the actions (never those started by
    /// hand, which no queue holds).
    public static func insertionOrder(_ scenario: Scenario) -> [OperationID] {
        var ids = scenario.addedAtStart
        for timed in scenario.actions {
            for id in timed.action.addedOperations where !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private static func addTime(of id: OperationID, in scenario: Scenario) -> Duration? {
        scenario.actions.first { $0.action.addedOperations.contains(id) }?.time
    }

    /// `work 300ms leaves 500ms`: main() returns with work still going.
    private static func leftsRunning(_ leftover: Duration) -> String {
        "then main() returns, leaving \(ScenarioPrinter.format(leftover)) of its work running"
    }

    private static func body(_ spec: OperationSpec, forgetsOnlyIfCancelled: Bool = false) -> String {
        let d = ScenarioPrinter.format
        switch spec.body {
        case .work(let t):
            return "work \(d(t))"
        case .blocks(let ts):
            if let first = ts.first, ts.allSatisfy({ $0 == first }) {
                return "\(ts.count) execution block\(ts.count == 1 ? "" : "s") of \(d(first))"
            }
            return "execution blocks of " + ts.map(d).joined(separator: ", ")
        case .async(let t):
            guard spec.neverFinishes || forgetsOnlyIfCancelled else { return "async \(d(t))" }
            return "async \(d(t)) that never posts isFinished"
                + (forgetsOnlyIfCancelled ? " when cancelled before it starts" : "")
        case .barrier(let t):
            return t == .zero ? "barrier" : "barrier with work \(d(t))"
        case .custom(let type):
            return "your class \(type)"
        }
    }
}
