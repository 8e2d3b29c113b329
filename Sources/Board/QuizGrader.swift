import LifecycleEngine
import ScenarioKit

/// The verdict on a quiz answer: the score, a table of the answer beside
/// the run, and one explanation per difference (`QuizExplainer` finds the
/// rule that decided it).
public struct QuizGrade: Sendable, Hashable {
    /// One line of the comparison table.
    public struct Row: Sendable, Hashable {
        /// The position (`1`) for start-order, the operation for final-state.
        public var label: String
        /// What the learner answered there; "—" for nothing.
        public var yours: String
        /// What the run did there; "—" for nothing.
        public var actual: String
        /// When (start-order: the start time, `0.102s`); empty otherwise.
        public var time: String
        public var right: Bool
    }

    public let kind: QuizKind
    /// Places (start-order) or operations (final-state) answered right.
    public let score: Int
    /// Places in the real order (start-order) or operations asked about (final-state).
    public let total: Int
    /// The whole answer was right.
    public let isCorrect: Bool
    public let rows: [Row]
    /// One sentence per difference, each saying the rule that decided it.
    public let explanations: [String]
    /// Facts that did not count against the answer (operations that started
    /// together, whose order is a race).
    public let notes: [String]

    /// `3 of 5 in the right place` / `3 of 5 right`.
    public var scoreLine: String {
        kind == .startOrder ? "\(score) of \(total) in the right place" : "\(score) of \(total) right"
    }

    /// The report `opscope quiz` prints after the run.
    public var text: String {
        let labelHeader = kind == .startOrder ? "#" : "operation"
        let widths = (
            max(labelHeader.count, rows.map(\.label.count).max() ?? 0),
            max("your answer".count, rows.map(\.yours.count).max() ?? 0),
            max("the run".count, rows.map(\.actual.count).max() ?? 0),
            rows.map(\.time.count).max() ?? 0
        )
        func line(_ a: String, _ b: String, _ c: String, _ t: String, _ mark: String) -> String {
            let text = "  " + pad(a, widths.0) + "  " + pad(b, widths.1) + "  " + pad(c, widths.2) + "  "
                + (widths.3 > 0 ? pad(t, widths.3) + "  " : "") + mark
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [line(labelHeader, "your answer", "the run", "", "")]
        for row in rows { lines.append(line(row.label, row.yours, row.actual, row.time, row.right ? "✓" : "✗")) }
        lines.append("")
        lines.append("Score: \(scoreLine)" + (isCorrect ? " — all right!" : "."))
        if !explanations.isEmpty {
            lines.append("")
            lines.append("Why:")
            for explanation in explanations { lines.append("  - " + explanation + ".") }
        }
        if !notes.isEmpty {
            lines.append("")
            for note in notes { lines.append("Note: " + note + ".") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}

/// Grades a quiz answer against the events of a run. Pure: give it the
/// scenario, the events (hand-made in tests) and the answer.
///
/// - start-order: the real order is the operations that posted
///   `isExecuting` true, by sequence number; barriers count only when the
///   answer names them. The score counts the places where the answer has
///   the same operation as the run; the answer is right when both lists
///   are equal. Explained: each operation named that never started, each
///   one that started but was left out, and each pair in the wrong order
///   that is not already implied by two other explained pairs (so a
///   reversed list of four gets three lines, not six); pairs whose later
///   operation could not start yet for one reason of its own share a line.
/// - final-state: every operation (barriers only when named) is asked
///   about; the score counts the right states (an operation skipped in a
///   queue that never ran it may be called skipped or stuck); each wrong
///   or missing one is explained.
public enum QuizGrader {
    public static func grade(
        _ scenario: Scenario, events: [LifecycleEvent], answer: QuizAnswer
    ) -> QuizGrade {
        let explainer = QuizExplainer(scenario: scenario, events: events)
        switch answer {
        case .startOrder(let ids): return startOrder(scenario, explainer, ids)
        case .finalState(let pairs): return finalState(scenario, explainer, pairs)
        }
    }

    private static func startOrder(
        _ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [OperationID]
    ) -> QuizGrade {
        let observed = explainer.startOrder.filter { !scenario[operation: $0].isBarrier || answer.contains($0) }
        let (actual, ties) = settleTies(observed, answer: answer, explainer)
        var rows: [QuizGrade.Row] = []
        for i in 0..<max(actual.count, answer.count) {
            let yours = i < answer.count ? scenario[operation: answer[i]].name : "—"
            let real = i < actual.count ? scenario[operation: actual[i]].name : "—"
            let time = i < actual.count ? formatSeconds(explainer.startTime(of: actual[i]) ?? 0) : ""
            let right = i < answer.count && i < actual.count && answer[i] == actual[i]
            rows.append(QuizGrade.Row(label: String(i + 1), yours: yours, actual: real, time: time, right: right))
        }
        let score = rows.filter(\.right).count

        var explanations: [String] = []
        for id in answer where explainer.startTime(of: id) == nil {
            explanations.append(explainer.whyNeverStarted(id))
        }
        for id in actual where !answer.contains(id) {
            explanations.append(explainer.whyStartedAtAll(id))
        }
        let common = actual.filter(answer.contains)
        let place = Dictionary(uniqueKeysWithValues: answer.enumerated().map { ($1, $0) })
        // common[i] started before common[j] (i < j) but the answer has them the other way.
        func inverted(_ i: Int, _ j: Int) -> Bool { place[common[i]]! > place[common[j]]! }
        for j in common.indices {
            let firsts = (0..<j).filter { i in
                inverted(i, j) && !(i + 1..<j).contains { k in inverted(i, k) && inverted(k, j) }
            }
            if !firsts.isEmpty {
                explanations += explainer.whyStarted(firsts.map { common[$0] }, before: common[j])
            }
        }
        let notes = ties.map { group in
            let names = scenario.opNames(group)
            return "\(names) started together (within \(Int(QuizExplainer.tieWindow * 1000))ms): "
                + "all were ready and nothing held one back, so which thread announces isExecuting first is a race; "
                + "either order counts as right"
        }
        return QuizGrade(
            kind: .startOrder, score: score, total: actual.count, isCorrect: answer == actual, rows: rows,
            explanations: explanations, notes: notes)
    }

    /// The observed order with each group of operations that started
    /// together (`QuizExplainer.startedTogether`, chained along the order)
    /// put in the answer's order, and the groups whose order that changed
    /// or that the answer names at least two of.
    private static func settleTies(
        _ observed: [OperationID], answer: [OperationID], _ explainer: QuizExplainer
    ) -> ([OperationID], [[OperationID]]) {
        var groups: [[OperationID]] = []
        for id in observed {
            if let last = groups.last?.last, explainer.startedTogether(last, id) {
                groups[groups.count - 1].append(id)
            } else {
                groups.append([id])
            }
        }
        let place = Dictionary(uniqueKeysWithValues: answer.enumerated().map { ($1, $0) })
        var settled: [OperationID] = []
        var mentioned: [[OperationID]] = []
        for group in groups {
            guard group.count > 1 else {
                settled += group
                continue
            }
            // Named ones in the answer's order, in the places the named ones
            // took; the others keep theirs.
            let named = group.filter { place[$0] != nil }.sorted { place[$0]! < place[$1]! }
            var next = named.makeIterator()
            let reordered = group.map { place[$0] != nil ? next.next()! : $0 }
            settled += reordered
            if named.count >= 2 && reordered != group { mentioned.append(reordered) }
        }
        return (settled, mentioned)
    }

    private static func finalState(
        _ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [(OperationID, FinalState)]
    ) -> QuizGrade {
        let given = Dictionary(answer, uniquingKeysWith: { first, _ in first })
        let asked = scenario.operations.indices.map(OperationID.init).filter {
            !scenario[operation: $0].isBarrier || given[$0] != nil
        }
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        for id in asked {
            let name = scenario[operation: id].name
            let actual = explainer.finalState(of: id)
            let yours = given[id]
            let right = yours.map { explainer.acceptableStates(of: id).contains($0) } ?? false
            rows.append(
                QuizGrade.Row(label: name, yours: yours?.rawValue ?? "—", actual: actual.rawValue, time: "", right: right))
            if !right {
                let versus = yours.map { "not \($0.rawValue)" } ?? "you gave no state"
                explanations.append("\(name): \(actual.rawValue), \(versus) — \(explainer.howItEnded(id))")
            }
        }
        let score = rows.filter(\.right).count
        return QuizGrade(
            kind: .finalState, score: score, total: asked.count, isCorrect: score == asked.count, rows: rows,
            explanations: explanations, notes: [])
    }
}
