import Foundation
import TextKit

/// What `opscope practice` says before and after a question.
public enum PracticeSummary {
    /// The record in a few lines: how many answered, how many due, and a
    /// line per concept.
    public static func text(_ record: PracticeRecord, library: [String], now: Date) -> String {
        guard !record.questions.isEmpty else {
            return "Practice: nothing answered yet. The library's quizzes come first, then generated questions.\n"
        }
        let right = record.questions.filter(\.lastWasRight).count
        let due = PracticeScheduler.due(in: record, library: library, now: now).count
        var dueText = "\(due) due now"
        if due == 0, let next = record.questions.map(\.due).filter({ $0 > now }).min() {
            dueText += " (the next in \(Spelling.realTime(seconds: next.timeIntervalSince(now))))"
        }
        var lines = [
            "Practice: \(Spelling.count(record.questions.count, "question")) answered, \(right) right at the last "
                + "try; \(dueText).",
            "By concept (right at the last try, of those answered):",
        ]
        let progress = record.progress(now: now)
        let width = progress.map(\.concept.title.count).max() ?? 0
        for entry in progress {
            let name = entry.concept.title.padding(toLength: width, withPad: " ", startingAt: 0)
            guard entry.questions > 0 else {
                lines.append("  \(name)  not asked yet")
                continue
            }
            let bar =
                String(repeating: "█", count: entry.right)
                + String(repeating: "░", count: entry.questions - entry.right)
            var line = "  \(name)  \(entry.right) of \(entry.questions)  \(String(bar.prefix(20)))"
            if entry.due > 0 { line += "  (\(entry.due) due)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Why this question now: `a library question — missed, last answered
    /// 2 hours ago: due again`. A library question is not named before the
    /// answer: its file's name often says the lesson's point
    /// (`32-forgets-when-cancelled.ops`); `reveal` names it after.
    public static func heading(_ choice: PracticeChoice, now: Date) -> String {
        switch choice {
        case .due(let entry):
            let ago = Spelling.realTime(seconds: max(0, now.timeIntervalSince(entry.lastAnswered)))
            let how = entry.lastWasRight ? "right \(Spelling.count(entry.streak, "time")) in a row" : "missed"
            return "\(shownBefore(entry.id)) — \(how), last answered \(ago) ago: due again"
        case .library:
            return "a library question — new to you"
        case .generated(let level, let seed):
            return "a generated question (level \(level), seed \(seed)) — new to you"
        }
    }

    /// What the question was, said after the answer: the library file it
    /// came from; nil for a generated one (its heading named it).
    public static func reveal(_ id: QuestionID) -> String? {
        guard case .library(let file) = id else { return nil }
        return "That was \(file), the quiz of the lesson 'opscope scenarios/\(file)' opens.\n"
    }

    private static func shownBefore(_ id: QuestionID) -> String {
        if case .library = id { return "a library question" }
        return id.title
    }

    /// When the question comes back: `Right: it comes back in 3 days, on
    /// 2026-12-04 at 14:15 UTC.`
    public static func comesBack(_ entry: QuestionRecord, now: Date) -> String {
        let wait = Spelling.realTime(seconds: entry.due.timeIntervalSince(now))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd 'at' HH:mm 'UTC'"
        let verdict = entry.lastWasRight ? "Right (\(Spelling.count(entry.streak, "time")) in a row)" : "Missed"
        return "\(verdict): it comes back in \(wait), on \(formatter.string(from: entry.due)).\n"
    }
}
