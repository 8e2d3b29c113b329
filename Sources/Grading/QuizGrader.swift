import Board
import RunEvents
import ScenarioKit
import TextKit

/// The verdict on a quiz answer: the score, a table of the answer beside
/// the run, and one explanation per difference (`QuizExplainer` finds the
/// rule that decided it).
public struct QuizGrade: Sendable, Hashable {
    /// One line of the comparison table.
    ///
    /// start-order: the rows line the answer up with the run as a diff
    /// does (`QuizAlignment`): the operations in the right relative order
    /// share a row marked ✓; a name that never started, an operation left
    /// out and each side of an operation out of place get rows of their
    /// own marked ✗ with a word saying which. Read down, the answer column
    /// is the answer and the run column the real order, unchanged. Marks by
    /// position would call every name after one extra name wrong although
    /// the learner has their order right.
    ///
    /// final-state: one row per operation asked about.
    public struct Row: Sendable, Hashable {
        /// The operation (final-state); empty for start-order.
        public var label: String
        /// What the learner answered there; "—" for nothing.
        public var yours: String
        /// What the run did there; "—" for nothing.
        public var actual: String
        /// When (start-order: the start time, `0.102s`, on rows with a run side); empty otherwise.
        public var time: String
        public var right: Bool
        /// What is wrong with the row, after its ✗ (start-order: `never
        /// started`, `left out`, `out of place`); empty otherwise.
        public var note: String = ""
        /// The sequence number of the event that decided the run's side of
        /// the row (a start, a cancel, a finish, a completion block, the
        /// moment of a peak), where the interface's history can go to show
        /// it; nil when no one event did.
        public var moment: Int? = nil
    }

    public let kind: QuizKind
    /// start-order: `inOrder` less one per extra name, never below 0;
    /// the other kinds: the rows answered right.
    /// final-state: the operations answered right.
    public let score: Int
    /// Operations that started (start-order) or operations asked about (final-state).
    public let total: Int
    /// start-order: the longest run of operations the answer has in the
    /// right relative order (`QuizAlignment`); final-state: the score.
    public let inOrder: Int
    /// start-order: operations named that never started, a point off each; 0 for final-state.
    public let extraNames: Int
    /// The whole answer was right.
    public let isCorrect: Bool
    public let rows: [Row]
    /// One sentence per difference, each saying the rule that decided it.
    public let explanations: [String]
    /// Facts that did not count against the answer (operations that started
    /// together, whose order is a race).
    public let notes: [String]

    /// `3 of 5 in the right order`, `2 of 3 (3 in the right order, less 1
    /// for naming an operation that never started)` / `3 of 5 right`.
    public var scoreLine: String {
        guard kind == .startOrder else { return "\(score) of \(total) right" }
        guard extraNames > 0 else { return "\(score) of \(total) in the right order" }
        let what = extraNames == 1 ? "an operation" : "operations"
        return
            "\(score) of \(total) (\(inOrder) in the right order, less \(extraNames) for naming \(what) that never started)"
    }

    /// The report `opscope quiz` prints after the run.
    public var text: String {
        let header: [String]
        let cells: [[String]]
        switch kind {
        case .startOrder:
            header = ["your answer", "the run", ""]
            cells = rows.map { [$0.yours, $0.actual, $0.time] }
        case .finalState, .mainThread, .peak, .counts, .completions, .together, .columns:
            let label =
                switch kind {
                case .peak: "queue"
                case .counts: "state"
                case .columns: "column"
                case .together: "operations"
                case .completions: "completion block of"
                default: "operation"
                }
            header = [label, "your answer", "the run", ""]
            cells = rows.map { [$0.label, $0.yours, $0.actual, $0.time] }
        }
        // A column with nothing in it (no times) is left out.
        let widths = header.indices.map { c in max(header[c].count, cells.map { $0[c].count }.max() ?? 0) }
        func line(_ cells: [String], _ mark: String) -> String {
            let columns = cells.indices.filter { widths[$0] > 0 }.map { pad(cells[$0], widths[$0]) }
            let text = "  " + (columns + [mark]).joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [line(header, "")]
        for (row, cells) in zip(rows, cells) {
            lines.append(line(cells, (row.right ? "✓" : "✗") + (row.note.isEmpty ? "" : " " + row.note)))
        }
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
///   `isExecuting` true, by sequence number (never a barrier: the question
///   asks about the operations, and an answer cannot name one); operations
///   that started together count in either
///   order (`settleTies`). The score is the longest run of operations the
///   answer has in the right relative order (the longest common
///   subsequence of the answer and the real order, `QuizAlignment`) less
///   one per name that never started, never below 0, out of the
///   operations that started. So one extra name, one left out or one
///   swapped pair costs one point, not the whole answer: against `a, b,
///   c`, both `a, x, b, c` (x never started) and `a, c` and `b, a, c`
///   score 2 of 3. The answer is right when it equals the real order.
///
///   Explained: each name that never started, each operation that started
///   but was left out, then each operation out of place (not in the common
///   subsequence), in the order they started, with the rule that decided
///   each pair it has the wrong way round. Pairs implied by two other
///   explained pairs are left out (a reversed list of four gets three
///   lines, not six), and so are those an operation placed too late forms
///   with the later ones of the subsequence: one sentence against the
///   first of them implies the rest, which the answer has in order. Pairs
///   whose later operation could not start yet for one reason of its own
///   share a line.
/// - final-state: every operation (never a barrier) is asked about; the score counts the right states (an operation skipped in a
///   queue that never ran it may be called skipped or stuck); each wrong
///   or missing one is explained.
public enum QuizGrader {
    /// `speed`: the run's scenario seconds per real second (the window of
    /// a tie between two starts is real time: `QuizExplainer.init`).
    public static func grade(
        _ scenario: Scenario, events: [LifecycleEvent], answer: QuizAnswer, speed: Double = 1
    ) -> QuizGrade {
        let explainer = QuizExplainer(scenario: scenario, events: events, speed: speed)
        switch answer {
        case .startOrder(let ids): return startOrder(scenario, explainer, ids)
        case .finalState(let pairs): return finalState(scenario, explainer, pairs)
        case .peak(let pairs): return peak(scenario, explainer, pairs)
        case .counts(let given): return counts(scenario, explainer, given)
        case .mainThread(let ids): return mainThread(scenario, explainer, ids)
        case .completions(let ids): return completions(scenario, explainer, ids)
        case .together(let yes): return together(scenario, explainer, yes)
        case .columns(let counts): return columns(scenario, explainer, counts)
        }
    }

    private static func startOrder(
        _ scenario: Scenario, _ explainer: QuizExplainer, _ answer: [OperationID]
    ) -> QuizGrade {
        let observed = explainer.startOrder.filter { !scenario[operation: $0].isBarrier }
        let (actual, ties) = settleTies(observed, answer: answer, explainer)
        let alignment = QuizAlignment(answer: answer, run: actual)
        let inOrder = Set(alignment.common)
        let extra = answer.filter { !actual.contains($0) }

        var rows: [QuizGrade.Row] = []
        let name = { (id: OperationID) in scenario[operation: id].name }
        let time = { (id: OperationID) in Spelling.seconds(explainer.startTime(of: id) ?? 0) }
        let started = { (id: OperationID) in explainer.timeline[id].started?.seq }
        for row in alignment.rows {
            switch row {
            case .both(let id):
                rows.append(
                    QuizGrade.Row(
                        label: "", yours: name(id), actual: name(id), time: time(id), right: true, moment: started(id)))
            case .answerOnly(let id):
                let note = actual.contains(id) ? "out of place" : "never started"
                let f = explainer.timeline[id]
                rows.append(
                    QuizGrade.Row(
                        label: "", yours: name(id), actual: "—", time: "", right: false, note: note,
                        moment: f.started?.seq ?? f.cancelled?.seq))
            case .runOnly(let id):
                let note = answer.contains(id) ? "out of place" : "left out"
                rows.append(
                    QuizGrade.Row(
                        label: "", yours: "—", actual: name(id), time: time(id), right: false, note: note,
                        moment: started(id)))
            }
        }

        var explanations: [String] = []
        for id in extra {
            explanations.append(explainer.whyNeverStarted(id))
        }
        for id in actual where !answer.contains(id) {
            explanations.append(explainer.whyStartedAtAll(id))
        }
        let common = actual.filter(answer.contains)
        let place = Dictionary(uniqueKeysWithValues: answer.enumerated().map { ($1, $0) })
        // common[i] started before common[j] (i < j) but the answer has them the other way.
        func inverted(_ i: Int, _ j: Int) -> Bool { place[common[i]]! > place[common[j]]! }
        for j in common.indices where !inOrder.contains(common[j]) {
            // What started before it that the answer puts after it, less the pairs implied by two others…
            let firsts = (0..<j).filter { i in
                inverted(i, j) && !(i + 1..<j).contains { k in inverted(i, k) && inverted(k, j) }
            }
            if !firsts.isEmpty {
                explanations += explainer.whyStarted(firsts.map { common[$0] }, before: common[j])
            }
            // …and the first of the subsequence that started after it but comes before it in the answer.
            if let k = (j + 1..<common.count).first(where: { inOrder.contains(common[$0]) && inverted(j, $0) }) {
                explanations.append(explainer.whyStarted(common[j], before: common[k]))
            }
        }
        let notes = ties.map { group in
            let names = scenario.opNames(group)
            return "\(names) started together (\(explainer.tieWindowText)): "
                + "all were ready and nothing held one back, so which thread announces isExecuting first is a race; "
                + "either order counts as right"
        }
        return QuizGrade(
            kind: .startOrder, score: max(0, inOrder.count - extra.count), total: actual.count,
            inOrder: inOrder.count, extraNames: extra.count, isCorrect: answer == actual, rows: rows,
            explanations: QuizExplainer.withoutRepeats(explanations), notes: notes)
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
        let asked = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        var rows: [QuizGrade.Row] = []
        var explanations: [String] = []
        for id in asked {
            let name = scenario[operation: id].name
            let actual = explainer.finalState(of: id)
            let yours = given[id]
            let acceptable = explainer.acceptableStates(of: id)
            let right = yours.map { acceptable.contains($0) } ?? false
            let actualText = acceptable.count > 1 ? "skipped or stuck" : actual.rawValue
            let f = explainer.timeline[id]
            rows.append(
                QuizGrade.Row(
                    label: name, yours: yours?.rawValue ?? "—", actual: actualText, time: "", right: right,
                    moment: (f.cancelled ?? f.finished ?? f.started)?.seq))
            if !right {
                let versus = yours.map { "not \($0.rawValue)" } ?? "you gave no state"
                explanations.append("\(name): \(actualText), \(versus) — \(explainer.howItEnded(id))")
            }
        }
        let score = rows.filter(\.right).count
        return QuizGrade(
            kind: .finalState, score: score, total: asked.count, inOrder: score, extraNames: 0,
            isCorrect: score == asked.count, rows: rows, explanations: QuizExplainer.withoutRepeats(explanations),
            notes: [])
    }
}
