import Board
import ScenarioKit
import TextKit

/// A learner's answer to a scenario's quiz, names resolved.
public enum QuizAnswer: Sendable, Hashable {
    /// The operations in the order the learner thinks they start; those
    /// the learner thinks never start are left out.
    case startOrder([OperationID])
    /// One state per named operation, in the order written.
    case finalState([(OperationID, FinalState)])
    /// The most operations of each named queue executing at once, in the
    /// order written.
    case peak([(QueueID, Int)])
    /// How many operations end in each state; a state not given is 0.
    case counts([FinalState: Int])
    /// The operations the learner thinks run on the main thread.
    case mainThread(Set<OperationID>)
    /// The operations whose completion blocks the learner thinks run (or
    /// run before the quiz's operation starts).
    case completions(Set<OperationID>)
    /// Whether the learner thinks the quiz's two operations ever execute
    /// at the same time.
    case together(Bool)
    /// How many operations the learner thinks sit in each column of the
    /// board at the quiz's moment; a column not given is 0.
    case columns([Phase: Int])

    public var kind: QuizKind {
        switch self {
        case .startOrder: .startOrder
        case .finalState: .finalState
        case .peak: .peak
        case .counts: .counts
        case .mainThread: .mainThread
        case .completions: .completions
        case .together: .together
        case .columns: .columns
        }
    }

    public static func == (a: QuizAnswer, b: QuizAnswer) -> Bool {
        switch (a, b) {
        case (.startOrder(let x), .startOrder(let y)): x == y
        case (.finalState(let x), .finalState(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.peak(let x), .peak(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.counts(let x), .counts(let y)): x == y
        case (.mainThread(let x), .mainThread(let y)): x == y
        case (.completions(let x), .completions(let y)): x == y
        case (.together(let x), .together(let y)): x == y
        case (.columns(let x), .columns(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .startOrder(let ids):
            hasher.combine(0)
            hasher.combine(ids)
        case .finalState(let pairs):
            hasher.combine(1)
            for (id, state) in pairs {
                hasher.combine(id)
                hasher.combine(state)
            }
        case .peak(let pairs):
            hasher.combine(2)
            for (id, n) in pairs {
                hasher.combine(id)
                hasher.combine(n)
            }
        case .counts(let counts):
            hasher.combine(3)
            hasher.combine(counts)
        case .mainThread(let ids):
            hasher.combine(4)
            hasher.combine(ids)
        case .completions(let ids):
            hasher.combine(5)
            hasher.combine(ids)
        case .together(let yes):
            hasher.combine(6)
            hasher.combine(yes)
        case .columns(let counts):
            hasher.combine(7)
            hasher.combine(counts)
        }
    }
}

/// Why an answer could not be read: one message per problem, each a
/// sentence that names what to fix.
public struct QuizAnswerError: Error, Sendable, Hashable {
    public var messages: [String]
    public init(_ messages: [String]) { self.messages = messages }
}

/// Reads a quiz answer written by a person.
///
/// - start-order: operation names separated by commas and/or spaces
///   (`a, b c`); newlines count as separators too.
/// - final-state: `NAME STATE` pairs separated by commas or newlines
///   (`fetch finished, thumbs cancelled`); `NAME: STATE` is accepted.
///
/// Names are the scenario's operations and barriers, case-sensitive as in
/// the language; states are case-insensitive. Every problem is reported,
/// with the nearest name when one is close.
public enum QuizAnswerParser {
    public static func parse(
        _ text: String, kind: QuizKind, scenario: Scenario
    ) -> Result<QuizAnswer, QuizAnswerError> {
        switch kind {
        case .completions: completions(text, scenario)
        case .together: together(text)
        case .startOrder: startOrder(text, scenario)
        case .finalState: finalState(text, scenario)
        case .peak: peak(text, scenario)
        case .counts: counts(text)
        case .mainThread: mainThread(text, scenario)
        case .columns: columns(text)
        }
    }

    /// The prompt's instructions for a kind of answer.
    public static func instructions(for kind: QuizKind) -> String {
        switch kind {
        case .completions:
            "Type the operations whose COMPLETION BLOCKS the question asks for, separated by\n"
                + "commas or spaces ('none' when you think none), then press Return."
        case .together:
            "Type yes if the two operations ever EXECUTE AT THE SAME TIME, no if they never do,\n"
                + "then press Return."
        case .startOrder:
            "Type the operations in the order they START, separated by commas or spaces\n"
                + "(leave out those you think never start), then press Return."
        case .finalState:
            "Type how each operation ENDS: one 'NAME STATE' per line or separated by commas,\n"
                + "STATE being finished, cancelled (ran, then cancelled), skipped (cancelled\n"
                + "before it started) or stuck (never finished). An empty line ends the answer."
        case .peak:
            "Type how many of each queue's operations EXECUTE AT ONCE, at most: one 'QUEUE N'\n"
                + "per line or separated by commas (a bare N when the scenario has one queue).\n"
                + "An empty line ends the answer."
        case .counts:
            "Type how many operations END each way: 'finished N', 'cancelled N' (ran, then\n"
                + "cancelled), 'skipped N' (cancelled before it started), 'stuck N' (never\n"
                + "finished), separated by commas; a state left out counts as 0. Then press Return."
        case .mainThread:
            "Type the operations that RUN ON THE MAIN THREAD, separated by commas or spaces\n"
                + "('none' when you think none does), then press Return."
        case .columns:
            "Type how many operations sit in each COLUMN at that moment: 'pending N', 'ready N',\n"
                + "'executing N', 'finished N', 'cancelled N' (finished with isCancelled true),\n"
                + "separated by commas; a column left out counts as 0. Then press Return."
        }
    }

    private static func startOrder(_ text: String, _ scenario: Scenario) -> Result<QuizAnswer, QuizAnswerError> {
        let words = text.split { $0 == "," || $0.isWhitespace }.map(String.init)
        guard !words.isEmpty else {
            return .failure(QuizAnswerError(["the answer is empty: name the operations in the order they start"]))
        }
        var messages: [String] = []
        var ids: [OperationID] = []
        for word in words {
            guard let id = askedOperation(word, scenario, &messages) else { continue }
            if ids.contains(id) {
                messages.append("'\(word)' is named twice: an operation starts at most once")
            } else {
                ids.append(id)
            }
        }
        return messages.isEmpty ? .success(.startOrder(ids)) : .failure(QuizAnswerError(messages))
    }

    private static func finalState(_ text: String, _ scenario: Scenario) -> Result<QuizAnswer, QuizAnswerError> {
        let entries = entries(text)
        guard !entries.isEmpty else {
            return .failure(
                QuizAnswerError(["the answer is empty: give each operation a state, like 'fetch finished'"]))
        }
        let stateList = "finished, cancelled, skipped or stuck"
        var messages: [String] = []
        var pairs: [(OperationID, FinalState)] = []
        for words in entries {
            let name = words[0]
            let id = askedOperation(name, scenario, &messages)
            guard words.count == 2 else {
                messages.append(
                    words.count == 1
                        ? "'\(name)' needs a state: \(stateList)"
                        : "'\(words.joined(separator: " "))' is not 'NAME STATE': separate the operations with commas or newlines"
                )
                continue
            }
            guard let state = FinalState(rawValue: words[1].lowercased()) else {
                messages.append(unknownState(words[1]))
                continue
            }
            guard let id else { continue }
            if pairs.contains(where: { $0.0 == id }) {
                messages.append("'\(name)' is given a state twice")
            } else {
                pairs.append((id, state))
            }
        }
        return messages.isEmpty ? .success(.finalState(pairs)) : .failure(QuizAnswerError(messages))
    }

    /// `NAME VALUE` entries: separated by commas or newlines, their words
    /// by spaces or a colon; empty ones left out.
    static func entries(_ text: String) -> [[String]] {
        text.split { $0 == "," || $0.isNewline }
            .map { $0.split { $0.isWhitespace || $0 == ":" }.map(String.init) }
            .filter { !$0.isEmpty }
    }

    /// `word` is not a final state: the nearest one, and the list.
    static func unknownState(_ word: String) -> String {
        let states = FinalState.allCases.map(\.rawValue)
        let hint = Suggestion.hint(Suggestion.nearest(to: word, in: states, ignoringCase: true))
        return "unknown state '\(word)'\(hint): a state is finished, cancelled, skipped or stuck"
    }

    /// The operation an answer names, or nil with the reason in
    /// `messages`: no such operation, or a barrier (a quiz asks about the
    /// operations; a barrier's place follows from theirs, and counting it
    /// when named would change what the question is out of).
    static func askedOperation(_ word: String, _ scenario: Scenario, _ messages: inout [String]) -> OperationID? {
        guard let id = scenario.operationID(named: word) else {
            messages.append(unknownOperation(word, scenario))
            return nil
        }
        guard !scenario[operation: id].isBarrier else {
            messages.append(
                "'\(word)' is a barrier: the question asks about the operations, not their queue's barriers")
            return nil
        }
        return id
    }

    static func unknownOperation(_ word: String, _ scenario: Scenario) -> String {
        if scenario.queueID(named: word) != nil {
            return "'\(word)' is a queue, not an operation"
        }
        let names = scenario.operations.map(\.name)
        let hint = Suggestion.hint(Suggestion.nearest(to: word, in: names, ignoringCase: true))
        return "no operation named '\(word)'\(hint)"
    }
}
