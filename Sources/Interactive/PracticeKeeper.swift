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

    /// Keeps the answer to the question of `file` (a library file, or a
    /// generated question's file, `generatedFile`) whose scenario is
    /// `scenario`; says when it comes back, or why it was not kept.
    package func keep(_ file: String, scenario: Scenario, right: Bool, now: Date = Date()) -> String {
        let id = Self.questionID(ofFile: file)
        let concepts = LibraryConcepts.concepts(of: file, scenario: scenario)
        do throws(FileWriteError) {
            let updated = try store.update(now: now) { old in
                PracticeScheduler.recording(right: right, for: id, concepts: concepts, in: old, now: now)
            }
            guard updated.canSave, let entry = updated.record[id] else {
                return "your answer was not kept: " + (updated.messages.first ?? PracticeStore.cannotWrite)
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

    /// Each kata's last result (true when every check passed), by name.
    package func kataResults(now: Date = Date()) -> [String: Bool] {
        var results: [String: Bool] = [:]
        for entry in store.load(now: now).record.questions {
            if case .kata(let name) = entry.id { results[name] = entry.lastWasRight }
        }
        return results
    }

    /// What `opscope practice` would ask next, as the picker offers it.
    package enum NextQuestion: Sendable, Hashable {
        /// A library file, with when it is asked, in words.
        case library(file: String, when: String)
        /// A generated question, made from its level and seed.
        case generated(level: Int, seed: UInt64, when: String)
    }

    /// The question `opscope practice` would ask next among the library's
    /// `files`: one due (the longest overdue), else one never answered,
    /// else a new generated one (or, when `generated` is false, the library
    /// question back the soonest); with when, in words.
    package func next(among files: [String], generated: Bool = true, now: Date = Date()) -> NextQuestion {
        let record = store.load(now: now).record
        let choice = PracticeScheduler.next(record: record, library: files, now: now)
        switch choice {
        case .due(let entry):
            switch entry.id {
            case .library(let file): return .library(file: file, when: "due again")
            case .generated(let level, let seed) where generated:
                return .generated(level: level, seed: seed, when: "due again")
            case .generated: break
            // Never due: practice keeps a kata's result and never asks it.
            case .kata: break
            }
        case .library(let file):
            return .library(file: file, when: "never answered")
        case .generated(let level, let seed) where generated:
            return .generated(level: level, seed: seed, when: "new, level \(level)")
        case .generated:
            break
        }
        // The soonest library question back.
        let soonest = record.questions.filter { entry in
            if case .library(let file) = entry.id { return files.contains(file) }
            return false
        }.min { $0.due < $1.due }
        guard let soonest, case .library(let file) = soonest.id else {
            return .library(file: files.first ?? "", when: "")
        }
        return .library(file: file, when: "due in " + Spelling.realTime(seconds: soonest.due.timeIntervalSince(now)))
    }

    /// The file of the generated question `level`/`seed` in the data folder
    /// (`questions/generated-level2-seed7.ops`), an ordinary scenario file:
    /// made and confirmed by real runs the first time it is asked for,
    /// written atomically, read back afterwards. nil when it cannot be made
    /// or written (the picker then offers a library question).
    package func generatedFile(level: Int, seed: UInt64) -> String? {
        let folder = store.folder + "/questions"
        let path = folder + "/" + Self.generatedName(level: level, seed: seed)
        if FileManager.default.fileExists(atPath: path) { return path }
        guard let question = try? QuestionGenerator.generate(level: level, seed: seed),
            (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil
        else { return nil }
        do throws(FileWriteError) {
            try AtomicFile.write(Array(question.text.utf8), to: path, replacing: false)
        } catch {
            // Written meanwhile by another opscope: the same question.
            return error.exists ? path : nil
        }
        return path
    }

    static func generatedName(level: Int, seed: UInt64) -> String { "generated-level\(level)-seed\(seed).ops" }

    /// The practice record's name for the question of `file`: a generated
    /// question's file (`generatedName`) stands for its level and seed, any
    /// other for the library file of that name.
    package static func questionID(ofFile file: String) -> QuestionID {
        let name = (file as NSString).lastPathComponent
        if let match = name.wholeMatch(of: #/generated-level([0-9]+)-seed([0-9]+)\.ops/#),
            let level = Int(match.output.1), let seed = UInt64(match.output.2)
        {
            return .generated(level: level, seed: seed)
        }
        return .library(file: name)
    }
}
