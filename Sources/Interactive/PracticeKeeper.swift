import Foundation
import Practice
import ScenarioKit
import TextKit

/// The interface's side of the practice record (`opscope practice`'s file
/// in the user's data folder): a question's first answer in predict mode
/// is kept there, and the picker shows each question's last answer and the
/// progress per concept.
package struct PracticeKeeper: Sendable {
    let store: PracticeStore

    /// nil when the environment names no data folder (no HOME).
    package init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let folder = PracticeStore.folder(environment: environment) else { return nil }
        store = PracticeStore(folder: folder)
    }

    package init(folder: String) { store = PracticeStore(folder: folder) }

    /// Keeps the answer to the library question `file` (whose scenario is
    /// `scenario`); says when it comes back, or why it was not kept.
    package func keep(_ file: String, scenario: Scenario, right: Bool, now: Date = Date()) -> String {
        let id = QuestionID.library(file: file)
        let concepts = LibraryConcepts.concepts(of: file, scenario: scenario)
        do throws(FileWriteError) {
            let updated = try store.update(now: now) { old in
                PracticeScheduler.recording(right: right, for: id, concepts: concepts, in: old, now: now)
            }
            guard updated.canSave, let entry = updated.record[id] else {
                return "your answer was not kept: " + (updated.messages.first ?? "the practice file cannot be written")
            }
            // Short, for a status line: `opscope practice` says the date.
            let wait = Spelling.realTime(seconds: entry.due.timeIntervalSince(now))
            let verdict = entry.lastWasRight ? "right \(entry.streak)× in a row" : "missed"
            let kept = "kept (\(verdict)): back in \(wait)"
            return updated.messages.isEmpty ? kept : "\(kept) (\(updated.messages[0]))"
        } catch {
            return "your answer was not kept (\(error.message))"
        }
    }

    /// The record as the picker shows it: each library question's last
    /// answer, and a line of progress per concept answered so far; a
    /// message when the file was set aside.
    package func overview(now: Date = Date()) -> (lastRight: [String: Bool], progress: String, message: String?) {
        let loaded = store.load(now: now)
        var lastRight: [String: Bool] = [:]
        for entry in loaded.record.questions {
            if case .library(let file) = entry.id { lastRight[file] = entry.lastWasRight }
        }
        let asked = loaded.record.progress(now: now).filter { $0.questions > 0 }
        let progress = asked.map { "\($0.concept.title) \($0.right)/\($0.questions)" }.joined(separator: ", ")
        return (lastRight, progress, loaded.messages.first)
    }

    /// The library question `opscope practice` would ask next among
    /// `files`: one due (the longest overdue), else one never answered,
    /// else the one back the soonest; with when, in words.
    package func next(among files: [String], now: Date = Date()) -> (file: String, when: String) {
        let record = store.load(now: now).record
        let choice = PracticeScheduler.next(record: record, library: files, now: now)
        switch choice {
        case .due(let entry):
            if case .library(let file) = entry.id { return (file, "due again") }
        case .library(let file):
            return (file, "never answered")
        case .generated:
            break
        }
        // Every library question answered and none due: the soonest back.
        let soonest = record.questions.filter { entry in
            if case .library(let file) = entry.id { return files.contains(file) }
            return false
        }.min { $0.due < $1.due }
        guard let soonest, case .library(let file) = soonest.id else { return (files.first ?? "", "") }
        return (file, "due in " + Spelling.realTime(seconds: soonest.due.timeIntervalSince(now)))
    }
}
