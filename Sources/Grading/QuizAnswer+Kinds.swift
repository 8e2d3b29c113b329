import Board
import ScenarioKit
import TextKit

/// Reading the answers that are counts or sets:
///
/// - peak: `QUEUE N` pairs separated by commas or newlines (`net 2, disk
///   1`; `QUEUE: N` is accepted); a bare `N` when the scenario has one
///   queue with operations.
/// - counts: `STATE N` or `N STATE` separated by commas or newlines
///   (`98 finished, 2 cancelled`); a state left out is 0.
/// - main-thread: operation names separated by commas or spaces, or
///   `none`.
extension QuizAnswerParser {
    /// Whether an answer of `kind` is one line (Return ends it) rather than
    /// lines up to an empty one.
    public static func takesOneLine(_ kind: QuizKind) -> Bool {
        switch kind {
        case .startOrder, .counts, .mainThread, .completions, .together, .columns: true
        case .finalState, .peak: false
        }
    }

    /// The queues a peak question asks about: each with an operation.
    public static func askedQueues(_ scenario: Scenario) -> [QueueID] {
        let used = Set(scenario.operations.filter { !$0.isBarrier }.map(\.queue))
        return scenario.queues.indices.map(QueueID.init).filter(used.contains)
    }

    static func peak(_ text: String, _ scenario: Scenario) -> Result<QuizAnswer, QuizAnswerError> {
        let entries = entries(text)
        guard !entries.isEmpty else {
            return .failure(QuizAnswerError(["the answer is empty: give each queue a number, like 'net 2'"]))
        }
        let asked = askedQueues(scenario)
        if asked.count == 1, entries.count == 1, entries[0].count == 1, let n = Int(entries[0][0]) {
            return n >= 0
                ? .success(.peak([(asked[0], n)]))
                : .failure(QuizAnswerError(["'\(n)' is below 0: a count of operations is 0 or more"]))
        }
        var messages: [String] = []
        var pairs: [(QueueID, Int)] = []
        for words in entries {
            let name = words[0]
            let id = scenario.queueID(named: name)
            if id == nil { messages.append(unknownQueue(name, scenario)) }
            guard words.count == 2 else {
                messages.append(
                    words.count == 1
                        ? "'\(name)' needs a number: how many of its operations execute at once, at most"
                        : "'\(words.joined(separator: " "))' is not 'QUEUE N': separate the queues with commas or newlines"
                )
                continue
            }
            guard let n = Int(words[1]), n >= 0 else {
                messages.append("'\(words[1])' is not a count: give a whole number, 0 or more")
                continue
            }
            guard let id else { continue }
            if pairs.contains(where: { $0.0 == id }) {
                messages.append("'\(name)' is given a number twice")
            } else {
                pairs.append((id, n))
            }
        }
        return messages.isEmpty ? .success(.peak(pairs)) : .failure(QuizAnswerError(messages))
    }

    static func counts(_ text: String) -> Result<QuizAnswer, QuizAnswerError> {
        labelledCounts(
            text, labels: FinalState.allCases, kind: "state", example: "finished 3", unknown: unknownState
        ).map(QuizAnswer.counts)
    }

    static func columns(_ text: String) -> Result<QuizAnswer, QuizAnswerError> {
        labelledCounts(
            text, labels: Phase.columns, kind: "column", example: "executing 2",
            unknown: { word in
                let names = Phase.columns.map(\.rawValue)
                let hint =
                    Suggestion.hint(Suggestion.nearest(to: word, in: names, ignoringCase: true))
                return "unknown column '\(word)'\(hint): a column is pending, ready, executing, finished or cancelled"
            }
        ).map(QuizAnswer.columns)
    }

    /// `LABEL N` or `N LABEL` entries separated by commas or newlines, each
    /// label (one of `labels`, by its word, any case) once; a label left
    /// out is absent. `kind` names a label in messages (`state`), `unknown`
    /// says why a word is none.
    private static func labelledCounts<Label: RawRepresentable<String> & Hashable>(
        _ text: String, labels: [Label], kind: String, example: String, unknown: (String) -> String
    ) -> Result<[Label: Int], QuizAnswerError> {
        let entries = entries(text)
        guard !entries.isEmpty else {
            return .failure(QuizAnswerError(["the answer is empty: give a count per \(kind), like '\(example)'"]))
        }
        let byWord = Dictionary(uniqueKeysWithValues: labels.map { ($0.rawValue, $0) })
        var messages: [String] = []
        var counts: [Label: Int] = [:]
        for words in entries {
            guard words.count == 2 else {
                messages.append(
                    "'\(words.joined(separator: " "))' is not '\(kind.uppercased()) N': one \(kind) and its count, "
                        + "separated from the next by a comma")
                continue
            }
            // Either order: `finished 3` or `3 finished`.
            let (word, number) = Int(words[0]) != nil ? (words[1], words[0]) : (words[0], words[1])
            guard let label = byWord[word.lowercased()] else {
                messages.append(unknown(word))
                continue
            }
            guard let n = Int(number), n >= 0 else {
                messages.append("'\(number)' is not a count: give a whole number, 0 or more")
                continue
            }
            if counts[label] != nil {
                messages.append("'\(label.rawValue)' is given twice")
            } else {
                counts[label] = n
            }
        }
        return messages.isEmpty ? .success(counts) : .failure(QuizAnswerError(messages))
    }

    static func mainThread(_ text: String, _ scenario: Scenario) -> Result<QuizAnswer, QuizAnswerError> {
        let (ids, messages) = operationSet(
            text, scenario, empty: "name the operations that run on the main thread, or 'none'")
        return messages.isEmpty ? .success(.mainThread(ids)) : .failure(QuizAnswerError(messages))
    }

    /// Operation names separated by commas or spaces, each once, or
    /// `none` (unless an operation is named so), with a message per
    /// problem; `empty` says what to write when there is nothing.
    static func operationSet(
        _ text: String, _ scenario: Scenario, empty: String
    ) -> (ids: Set<OperationID>, messages: [String]) {
        let words = text.split { $0 == "," || $0.isWhitespace }.map(String.init)
        guard !words.isEmpty else { return ([], ["the answer is empty: \(empty)"]) }
        if words.count == 1, words[0].lowercased() == "none", scenario.operationID(named: words[0]) == nil {
            return ([], [])
        }
        var messages: [String] = []
        var ids: Set<OperationID> = []
        for word in words {
            guard let id = askedOperation(word, scenario, &messages) else { continue }
            if !ids.insert(id).inserted { messages.append("'\(word)' is named twice") }
        }
        return (ids, messages)
    }

    private static func unknownQueue(_ word: String, _ scenario: Scenario) -> String {
        if scenario.operationID(named: word) != nil {
            return "'\(word)' is an operation, not a queue: a peak is given per queue"
        }
        let names = scenario.queues.map(\.name)
        let hint = Suggestion.hint(Suggestion.nearest(to: word, in: names, ignoringCase: true))
        return "no queue named '\(word)'\(hint)"
    }
}
