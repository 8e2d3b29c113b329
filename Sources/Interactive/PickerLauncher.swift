import CommandSupport
import Foundation
import Katas
import ScenarioKit
import Screen

/// `opscope` without a file: a picker over the scenario library, then the
/// mistakes under a heading of their own.
package enum PickerLauncher {
    /// Why the interactive view refuses to start from a script.
    package static let notATerminal =
        "standard output is not a terminal; the interactive view needs one (from a script, use 'opscope trace FILE')"

    /// The library folder: `scenarios/` under the current directory.
    package static let libraryFolder = "scenarios"
    /// The files that must fail `opscope check`, each teaching one rule.
    package static let mistakesFolder = "scenarios/mistakes"
    package static let mistakesHeading = "Mistakes: files that fail `opscope check`, each teaching one rule"
    package static let nextHeading = "Practice: the next question, to answer before the run shows it"
    package static let questionsHeading =
        "Questions: each library file's quiz, to answer before the run shows it (its notes stay hidden)"

    package static let katasHeading =
        "Katas: write the Operation, the engine grades it (NAME.swift in this folder)"

    package static func launch(options: InteractiveOptions) throws(UsageError) -> ExitStatus {
        let catalog = catalog()
        let (list, paths) = (catalog.list, catalog.paths)
        guard !paths.isEmpty else {
            throw UsageError(
                "no scenario files in '\(libraryFolder)/' here; run opscope from the project folder, or give a file: 'opscope FILE'"
            )
        }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw UsageError(notATerminal)
        }
        return MainActor.assumeIsolated {
            InteractiveApp.launch(
                nil, picker: list, paths: paths, questions: catalog.questions, katas: catalog.katas, options: options)
        }
    }

    /// The picker's list, the path of each entry in the order the list
    /// numbers them, and which entries open as a question: first the
    /// question `opscope practice` would ask next, then the library, then
    /// each library file with a quiz again as a question (titled by its
    /// question: a lesson's title often gives the answer away), then the
    /// katas (each checks `NAME.swift` in the current folder), then the
    /// mistakes (a section only when the folder has files). The picker
    /// opens on the next question: a candidate reaches it without passing
    /// a lesson's note, and the notes show only once the selection is on
    /// a lesson.
    package static func catalog() -> (list: PickerList, paths: [String], questions: Set<Int>, katas: [Int: String]) {
        let library = paths(in: libraryFolder)
        let mistakes = paths(in: mistakesFolder)
        let read = library.map { Self.read($0) }
        var asked: [PickerEntry] = []
        var askedPaths: [String] = []
        for (path, (entry, opening)) in zip(library, read) {
            guard let quiz = opening?.scenario.quiz else { continue }
            askedPaths.append(path)
            asked.append(PickerEntry(fileName: entry.fileName, title: quiz.question))
        }
        var sections: [PickerSection] = []
        var paths: [String] = []
        var questions: Set<Int> = []
        if let first = askedPaths.first {
            // The one `opscope practice` would ask (set by `markQuestions`).
            sections.append(
                PickerSection(
                    heading: nextHeading, entries: [PickerEntry(fileName: nextQuestionName)], asksQuestions: true))
            questions.insert(0)
            paths.append(first)
        }
        sections.append(PickerSection(entries: read.map(\.entry)))
        paths += library
        if !asked.isEmpty {
            questions.formUnion(paths.count..<(paths.count + asked.count))
            paths += askedPaths
            sections.append(PickerSection(heading: questionsHeading, entries: asked, asksQuestions: true))
        }
        let practice = PracticeKeeper()
        var katas: [Int: String] = [:]
        for (offset, kata) in Kata.all.enumerated() { katas[paths.count + offset] = kata.name }
        sections.append(PickerSection(heading: katasHeading, entries: kataEntries(practice: practice)))
        let kataPaths = Kata.all.map(\.starterFileName)
        if !mistakes.isEmpty {
            sections.append(PickerSection(heading: mistakesHeading, entries: mistakes.map { Self.read($0).entry }))
        }
        let (list, marked) = markQuestions(
            PickerList(sections), paths: paths, questions: questions, practice: practice)
        return (list, marked + kataPaths + mistakes, questions, katas)
    }

    /// An entry per kata: its last result in the practice record (✓ every
    /// check passed, ✗ not), its title, and what Enter does with the file
    /// here.
    package static func kataEntries(practice: PracticeKeeper?) -> [PickerEntry] {
        let results = practice?.kataResults() ?? [:]
        return Kata.all.map { kata in
            let mark = results[kata.name].map { $0 ? "✓ " : "✗ " } ?? ""
            let file = kata.starterFileName
            let note =
                FileManager.default.fileExists(atPath: file)
                ? "Enter checks \(file) here"
                : "Enter writes \(file) here (a start that compiles) and checks it"
            return PickerEntry(fileName: kata.name, title: mark + kata.title, firstNote: note, isKata: true)
        }
    }

    /// The Questions section's first entry: the question practice asks
    /// next, the library's, then generated ones (a file in the data folder).
    package static let nextQuestionName = "next ▸"

    /// The questions marked from the practice record: each question's
    /// last answer (✓ right, ✗ missed) before its question, the progress
    /// per concept (or why the record was set aside) in the heading of the
    /// next question's section, and the next question itself.
    package static func markQuestions(
        _ list: PickerList, paths: [String], questions: Set<Int>, practice: PracticeKeeper?
    ) -> (PickerList, [String]) {
        var list = list
        var paths = paths
        let indices = questions.sorted().filter { $0 < list.count && paths.indices.contains($0) }
        guard let next = indices.first(where: { list[entry: $0].fileName == nextQuestionName }),
            let nextSection = list.section(ofEntry: next)
        else { return (list, paths) }
        let asked = indices.filter { $0 != next }
        let overview = practice?.overview()
        let plain = list.sections[nextSection].heading ?? nextHeading
        let lead = plain.components(separatedBy: ":").first ?? plain
        if let message = overview?.message {
            list.sections[nextSection].heading = "\(lead) — \(message)"
        } else if let progress = overview?.progress, !progress.isEmpty {
            list.sections[nextSection].heading =
                "\(lead) (answer before the run shows it) — right last time: \(progress)"
        }
        let question = { (index: Int) in list[entry: index].title.map { String($0.drop { "✓✗ ".contains($0) }) } }
        for index in asked {
            let mark = overview?.lastRight[(paths[index] as NSString).lastPathComponent].map { $0 ? "✓ " : "✗ " } ?? ""
            list[entry: index].title = mark + (question(index) ?? "")
        }
        // The next question: due, else never answered, else the soonest back.
        let files = asked.map { list[entry: $0].fileName }
        var choice = practice?.next(among: files) ?? files.first.map { .library(file: $0, when: "") }
        // A generated question is made (and confirmed) once, as a file in the data folder.
        if case .generated(let level, let seed, let when)? = choice {
            if let practice, let path = practice.generatedFile(level: level, seed: seed) {
                let text = Self.read(path).opening?.scenario.quiz?.question ?? "a generated question"
                list[entry: next].title = "generated, level \(level), seed \(seed): \(text) (\(when))"
                paths[next] = path
                return (list, paths)
            }
            choice = practice?.next(among: files, generated: false)
        }
        if case .library(let file, let when)? = choice, let at = files.firstIndex(of: file) {
            let title = question(asked[at]) ?? file
            list[entry: next].title = "\(file): \(title)" + (when.isEmpty ? "" : " (\(when))")
            paths[next] = paths[asked[at]]
        }
        return (list, paths)
    }

    /// `folder/*.ops` in name order (the library is numbered in teaching order).
    package static func paths(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".ops") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Reads `path` without running it: the picker's entry for it, and the
    /// scenario when it can run. A file with errors, or one that cannot be
    /// read, has no scenario; its entry carries exactly what
    /// `opscope check FILE` prints on standard error (without colour), its
    /// title the first error and its note that error's first note.
    package static func read(_ path: String) -> (entry: PickerEntry, opening: ScenarioOpening?) {
        let name = (path as NSString).lastPathComponent
        let file: SourceFile
        do {
            file = try ScenarioLoading.source(at: path)
        } catch {
            let entry = PickerEntry(
                fileName: name, title: "error: \(error.message)",
                diagnostics: [ProgramMessage.error(error.message).line])
            return (entry, nil)
        }
        let result = ScenarioReader.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else {
            let text = DiagnosticPrinter().renderAll(result, file: file, color: false)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let first = result.diagnostics.first(where: \.isError)
            let entry = PickerEntry(
                fileName: name, title: first.map { "error: \($0.message)" }, firstNote: first?.notes.first,
                diagnostics: lines)
            return (entry, nil)
        }
        // A file with the user's classes runs in a child (`ChildRun`).
        return (
            PickerEntry(fileName: name, title: scenario.title, firstNote: scenario.notes.first),
            ScenarioOpening(scenario: scenario, file: file)
        )
    }
}
