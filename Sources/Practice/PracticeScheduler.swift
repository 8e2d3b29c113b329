import Foundation

/// What `opscope practice` asks next.
public enum PracticeChoice: Sendable, Hashable {
    /// A question answered before, due again.
    case due(QuestionRecord)
    /// A library quiz never answered (its file name).
    case library(String)
    /// A generated question never answered.
    case generated(level: Int, seed: UInt64)

    public var id: QuestionID {
        switch self {
        case .due(let record): record.id
        case .library(let file): .library(file: file)
        case .generated(let level, let seed): .generated(level: level, seed: seed)
        }
    }
}

/// Spaced repetition, pure: the time is always given (`now`).
///
/// A question comes back 10 minutes after a miss; after the k-th right
/// answer in a row, 1 day × 3^(k−1) later (1, 3, 9, 27, 81 days), at most
/// 180 days. What is due comes first (the longest overdue first), then the
/// library's quizzes never answered, in file order, then new generated
/// questions: level 1 until three of them were last answered right, then
/// level 2 likewise, then level 3, each level's seeds from 1 up.
public enum PracticeScheduler {
    public static let afterMiss: TimeInterval = 10 * 60
    public static let day: TimeInterval = 86_400
    public static let longest: TimeInterval = 180 * 86_400
    /// Generated questions of a level last answered right before the next level.
    public static let rightsPerLevel = 3

    /// How long after an answer that leaves `streak` right in a row the
    /// question comes back.
    public static func interval(streak: Int) -> TimeInterval {
        guard streak > 0 else { return afterMiss }
        var length = day
        for _ in 1..<min(streak, 12) { length *= 3 }
        return min(length, longest)
    }

    /// `record` with the answer to `id` (about `concepts`) given at `now`.
    public static func recording(
        right: Bool, for id: QuestionID, concepts: [Concept], in record: PracticeRecord, now: Date
    ) -> PracticeRecord {
        var record = record
        var entry =
            record[id]
            ?? QuestionRecord(id: id, concepts: concepts, answers: 0, rights: 0, streak: 0, lastAnswered: now, due: now)
        entry.concepts = concepts
        entry.answers += 1
        entry.rights += right ? 1 : 0
        entry.streak = right ? entry.streak + 1 : 0
        entry.lastAnswered = now
        entry.due = now.addingTimeInterval(interval(streak: entry.streak))
        if let index = record.questions.firstIndex(where: { $0.id == id }) {
            record.questions[index] = entry
        } else {
            record.questions.append(entry)
        }
        return record
    }

    /// The questions due at `now` that can be asked here (a library file
    /// must be in `library`; a kata is never asked), the longest overdue
    /// first.
    public static func due(in record: PracticeRecord, library: [String], now: Date) -> [QuestionRecord] {
        record.questions.filter { entry in
            guard entry.due <= now else { return false }
            switch entry.id {
            case .library(let file): return library.contains(file)
            case .generated: return true
            case .kata: return false
            }
        }.sorted { a, b in
            a.due != b.due
                ? a.due < b.due : a.streak != b.streak ? a.streak < b.streak : a.id.description < b.id.description
        }
    }

    /// The next question: one due, else a library quiz never answered, else
    /// a new generated one.
    public static func next(record: PracticeRecord, library: [String], now: Date) -> PracticeChoice {
        if let due = due(in: record, library: library, now: now).first { return .due(due) }
        if let file = library.first(where: { record[.library(file: $0)] == nil }) { return .library(file) }
        let level = generatedLevel(record)
        let used = record.questions.compactMap { entry -> UInt64? in
            if case .generated(level, let seed) = entry.id { return seed }
            return nil
        }
        return .generated(level: level, seed: (used.max() ?? 0) + 1)
    }

    /// The level of the next new generated question.
    public static func generatedLevel(_ record: PracticeRecord) -> Int {
        for level in QuestionGenerator.levels.dropLast() {
            let right = record.questions.filter { entry in
                if case .generated(level, _) = entry.id { return entry.lastWasRight }
                return false
            }.count
            if right < rightsPerLevel { return level }
        }
        return QuestionGenerator.levels.upperBound
    }
}
