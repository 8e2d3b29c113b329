import Foundation
import ScenarioKit
import Screen
import Testing

@testable import Interactive

/// The interface's side of the practice record: a kept answer says when it
/// comes back, and the picker's Questions section shows the last answer
/// and the progress per concept; a corrupt record is set aside, not lost.
@Suite struct PracticeKeeperTests {
    static let scenario = ScenarioReader.read("op a work 1s\nop b work 1s after a\nquiz \"Q\" answer start-order")
        .scenario!

    /// A picker with the library's first file, then a Questions section:
    /// `next ▸` and a question per (file, question).
    static func picker(_ questions: [(file: String, question: String)]) -> PickerList {
        PickerList([
            PickerSection(entries: [PickerEntry(fileName: "01-chain.ops")]),
            PickerSection(
                heading: PickerLauncher.questionsHeading,
                entries: [PickerEntry(fileName: PickerLauncher.nextQuestionName)]
                    + questions.map { PickerEntry(fileName: $0.file, title: $0.question) }, asksQuestions: true),
        ])
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("opscope-keeper-\(UUID().uuidString)")
    }

    @Test func aKeptAnswerSaysWhenItComesBackAndMarksThePicker() throws {
        let data = Self.folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let keeper = PracticeKeeper(folder: data.path)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(
            keeper.keep("01-chain.ops", scenario: Self.scenario, right: true, now: now)
                == "kept (right 1× in a row): back in 1 day")
        #expect(
            keeper.keep("05-priority.ops", scenario: Self.scenario, right: false, now: now)
                == "kept (missed): back in 10 minutes")
        let overview = keeper.overview(now: now)
        #expect(overview.lastRight == ["01-chain.ops": true, "05-priority.ops": false])
        #expect(overview.message == nil)
        let (list, paths) = PickerLauncher.markQuestions(
            Self.picker([
                ("01-chain.ops", "Which first?"), ("05-priority.ops", "Which order?"), ("07-barrier.ops", "How many?"),
            ]),
            paths: ["s/01-chain.ops", "s/01-chain.ops", "s/01-chain.ops", "s/05-priority.ops", "s/07-barrier.ops"],
            questions: [1, 2, 3, 4], practice: keeper)
        #expect(list[entry: 2].title == "✓ Which first?")
        #expect(list[entry: 3].title == "✗ Which order?")
        // Next: none due now (the miss comes back in 10 minutes), so the one never answered.
        #expect(list[entry: 1].title == "07-barrier.ops: How many? (never answered)")
        #expect(paths[1] == "s/07-barrier.ops")
        // Ten minutes on, the missed one is due.
        #expect(
            keeper.next(among: ["01-chain.ops", "05-priority.ops"], now: now + 601)
                == .library(file: "05-priority.ops", when: "due again"))
        #expect(
            list.sections[1].heading
                == "Questions (answer before the run shows it) — right last time: dependencies 1/1, priority 0/1, "
                + "suspension 0/1")
    }

    /// Every library question answered and none due: the picker's next
    /// question is a generated one, made once as a file in the data folder,
    /// and an answer to it is kept under its level and seed.
    @Test func afterTheLibraryTheNextQuestionIsAGeneratedFile() throws {
        let data = Self.folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let keeper = PracticeKeeper(folder: data.path)
        let now = Date()
        _ = keeper.keep("01-chain.ops", scenario: Self.scenario, right: true, now: now)
        let picker = Self.picker([("01-chain.ops", "Which first?")])
        let (list, paths) = PickerLauncher.markQuestions(
            picker, paths: ["s/01-chain.ops", "s/01-chain.ops", "s/01-chain.ops"], questions: [1, 2],
            practice: keeper)
        let file = data.path + "/questions/generated-level1-seed1.ops"
        #expect(paths[1] == file)
        #expect(list[entry: 1].title?.hasPrefix("generated, level 1, seed 1: ") == true, "\(list[entry: 1])")
        #expect(list[entry: 1].title?.hasSuffix("(new, level 1)") == true)
        // An ordinary scenario file with its quiz, read back the next time rather than made again.
        let opened = try #require(PickerLauncher.read(file).opening)
        #expect(opened.scenario.quiz != nil)
        let made = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        _ = PickerLauncher.markQuestions(
            picker, paths: ["s/01-chain.ops", "s/01-chain.ops", "s/01-chain.ops"], questions: [1, 2],
            practice: keeper)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == made)
        // Its answer is kept as the generated question's, and the next one is the seed after it.
        #expect(keeper.keep(file, scenario: opened.scenario, right: true, now: now).hasPrefix("kept (right 1×"))
        #expect(PracticeKeeper.questionID(ofFile: file) == .generated(level: 1, seed: 1))
        #expect(keeper.next(among: ["01-chain.ops"], now: now) == .generated(level: 1, seed: 2, when: "new, level 1"))
        #expect(
            keeper.next(among: ["01-chain.ops"], generated: false, now: now).hasFile("01-chain.ops"))
    }

    @Test func aCorruptRecordIsSetAsideAndSaidInTheHeading() throws {
        let data = Self.folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("opscope/practice.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: file)
        let overview = PracticeKeeper(folder: data.appendingPathComponent("opscope").path).overview()
        #expect(overview.message?.contains("set aside") == true)
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("practice.json.corrupt-") }
        #expect(aside.count == 1)
        let kept = try Data(contentsOf: file.deletingLastPathComponent().appendingPathComponent(aside[0]))
        #expect(String(decoding: kept, as: UTF8.self) == "not json")
    }
}

extension PracticeKeeper.NextQuestion {
    fileprivate func hasFile(_ name: String) -> Bool {
        if case .library(let file, _) = self { return file == name }
        return false
    }
}
