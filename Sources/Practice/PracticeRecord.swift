import Foundation

/// Which question: a library file's quiz, a generated one (remade from
/// its level and seed when it comes back), or a kata (`opscope kata`: its
/// result is kept for the concepts it is about; practice never asks it).
/// Written in the practice file as `library:05-priority.ops`,
/// `generated:2:17` or `kata:async-operation`.
public enum QuestionID: Sendable, Hashable, Codable, CustomStringConvertible {
    case library(file: String)
    case generated(level: Int, seed: UInt64)
    case kata(name: String)

    public var description: String {
        switch self {
        case .library(let file): "library:\(file)"
        case .generated(let level, let seed): "generated:\(level):\(seed)"
        case .kata(let name): "kata:\(name)"
        }
    }

    /// How a person reads it: `05-priority.ops`, `generated, level 2, seed 17`.
    public var title: String {
        switch self {
        case .library(let file): file
        case .generated(let level, let seed): "generated, level \(level), seed \(seed)"
        case .kata(let name): "kata \(name)"
        }
    }

    /// Whether it is a kata's result, which practice keeps and never asks.
    public var isKata: Bool {
        if case .kata = self { return true }
        return false
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "library" where parts.count >= 2:
            let file = String(text.dropFirst("library:".count))
            guard !file.isEmpty, !file.contains("/") else { return nil }
            self = .library(file: file)
        case "kata" where parts.count == 2:
            let name = parts[1]
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else { return nil }
            self = .kata(name: name)
        case "generated" where parts.count == 3:
            guard let level = Int(parts[1]), QuestionGenerator.levels.contains(level), let seed = UInt64(parts[2])
            else { return nil }
            self = .generated(level: level, seed: seed)
        default:
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = QuestionID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a question: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// What the learner has done with one question.
public struct QuestionRecord: Sendable, Hashable, Codable {
    public var id: QuestionID
    public var concepts: [Concept]
    /// How many times it was answered, and how many of those right.
    public var answers: Int
    public var rights: Int
    /// Right answers in a row up to the last one: 0 after a miss.
    public var streak: Int
    public var lastAnswered: Date
    /// When it comes back.
    public var due: Date

    public var lastWasRight: Bool { streak > 0 }

    public init(
        id: QuestionID, concepts: [Concept], answers: Int, rights: Int, streak: Int, lastAnswered: Date, due: Date
    ) {
        self.id = id
        self.concepts = concepts
        self.answers = answers
        self.rights = rights
        self.streak = streak
        self.lastAnswered = lastAnswered
        self.due = due
    }

    /// Counts that no answers could give: the file was edited or damaged.
    var isConsistent: Bool { answers >= 1 && rights >= 0 && rights <= answers && streak >= 0 && streak <= rights }
}

/// Progress on one concept, for the summary and the picker.
public struct ConceptProgress: Sendable, Hashable {
    public var concept: Concept
    /// Questions about it answered at least once.
    public var questions: Int
    /// Of those, the ones whose last answer was right.
    public var right: Int
    /// Of those, the ones due again now.
    public var due: Int
    /// Every answer given to them, and the right ones.
    public var answers: Int
    public var rightAnswers: Int
}

/// The learner's practice: one entry per question answered, in the order
/// first answered. What `practice.json` holds (DECISIONS.md, "The practice
/// file").
public struct PracticeRecord: Sendable, Hashable, Codable {
    public static let formatName = "opscope-practice"
    /// The version this opscope writes and reads.
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var questions: [QuestionRecord]

    public init(questions: [QuestionRecord] = []) {
        format = Self.formatName
        version = Self.currentVersion
        self.questions = questions
    }

    public subscript(id: QuestionID) -> QuestionRecord? { questions.first { $0.id == id } }

    /// Each concept, in `Concept` order, those never asked included.
    public func progress(now: Date) -> [ConceptProgress] {
        Concept.allCases.map { concept in
            let about = questions.filter { $0.concepts.contains(concept) }
            return ConceptProgress(
                concept: concept, questions: about.count, right: about.filter(\.lastWasRight).count,
                due: about.filter { $0.due <= now && !$0.id.isKata }.count,
                answers: about.reduce(0) { $0 + $1.answers },
                rightAnswers: about.reduce(0) { $0 + $1.rights })
        }
    }

    /// The same, now.
    public func progress() -> [ConceptProgress] { progress(now: Date()) }
}
