import Foundation
import Testing

@testable import Practice

/// Spaced repetition with the clock given: no test waits.
@Suite("the practice scheduler")
struct PracticeSchedulerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let library = ["01-chain.ops", "02-cap.ops", "05-priority.ops"]

    static func answered(
        _ answers: [(QuestionID, Bool, TimeInterval)], concepts: [Concept] = [.dependencies]
    ) -> PracticeRecord {
        answers.reduce(PracticeRecord()) { record, answer in
            PracticeScheduler.recording(
                right: answer.1, for: answer.0, concepts: concepts, in: record,
                now: start.addingTimeInterval(answer.2))
        }
    }

    static let intervalCases: [(Int, TimeInterval)] = [
        (0, 600), (1, 86_400), (2, 3 * 86_400), (3, 9 * 86_400), (4, 27 * 86_400), (5, 81 * 86_400),
        (6, 180 * 86_400), (40, 180 * 86_400),
    ]

    @Test("the longer it was right in a row, the later it comes back", arguments: intervalCases)
    func intervals(_ streak: Int, _ seconds: TimeInterval) {
        #expect(PracticeScheduler.interval(streak: streak) == seconds)
    }

    @Test("an answer counts, sets the streak, and says when it comes back")
    func recording() {
        let id = QuestionID.library(file: "01-chain.ops")
        var record = Self.answered([(id, true, 0), (id, true, 100)])
        #expect(record[id]?.streak == 2)
        #expect(record[id]?.due == Self.start.addingTimeInterval(100 + 3 * 86_400))
        record = PracticeScheduler.recording(
            right: false, for: id, concepts: [.dependencies], in: record, now: Self.start.addingTimeInterval(200))
        let entry = record[id]
        #expect(entry?.answers == 3)
        #expect(entry?.rights == 2)
        #expect(entry?.streak == 0)
        #expect(entry?.due == Self.start.addingTimeInterval(200 + 600))
        #expect(record.questions.count == 1)
    }

    @Test("nothing answered: the library's first quiz")
    func firstQuestion() {
        #expect(
            PracticeScheduler.next(record: PracticeRecord(), library: Self.library, now: Self.start)
                == .library("01-chain.ops"))
    }

    @Test("the library in file order, then generated questions from seed 1")
    func libraryThenGenerated() {
        var record = PracticeRecord()
        var asked: [QuestionID] = []
        var now = Self.start
        for _ in 0..<5 {
            let choice = PracticeScheduler.next(record: record, library: Self.library, now: now)
            asked.append(choice.id)
            record = PracticeScheduler.recording(right: true, for: choice.id, concepts: [], in: record, now: now)
            now.addTimeInterval(60)
        }
        #expect(
            asked == [
                .library(file: "01-chain.ops"), .library(file: "02-cap.ops"), .library(file: "05-priority.ops"),
                .generated(level: 1, seed: 1), .generated(level: 1, seed: 2),
            ])
    }

    @Test("a missed question comes back once due, before anything new; the longest overdue first")
    func missedComesBack() {
        let chain = QuestionID.library(file: "01-chain.ops")
        let cap = QuestionID.library(file: "02-cap.ops")
        let record = Self.answered([(chain, false, 0), (cap, false, 60)])
        // Not due yet: the next new one.
        #expect(
            PracticeScheduler.next(record: record, library: Self.library, now: Self.start.addingTimeInterval(120))
                == .library("05-priority.ops"))
        let later = Self.start.addingTimeInterval(60 + 600)
        #expect(PracticeScheduler.due(in: record, library: Self.library, now: later).map(\.id) == [chain, cap])
        #expect(PracticeScheduler.next(record: record, library: Self.library, now: later).id == chain)
    }

    @Test("a due library quiz whose file is not here is passed over")
    func missingFile() {
        let gone = QuestionID.library(file: "99-gone.ops")
        let record = Self.answered([(gone, false, 0)])
        let later = Self.start.addingTimeInterval(3600)
        #expect(PracticeScheduler.due(in: record, library: Self.library, now: later).isEmpty)
        #expect(PracticeScheduler.next(record: record, library: Self.library, now: later) == .library("01-chain.ops"))
    }

    @Test("generated questions go up a level after three right at the last try")
    func levels() {
        var answers: [(QuestionID, Bool, TimeInterval)] = (1...3).map {
            (.generated(level: 1, seed: UInt64($0)), true, 0)
        }
        #expect(PracticeScheduler.generatedLevel(Self.answered(Array(answers.prefix(2)))) == 1)
        #expect(PracticeScheduler.generatedLevel(Self.answered(answers)) == 2)
        answers += (1...2).map { (.generated(level: 2, seed: UInt64($0)), true, 0) }
        answers.append((.generated(level: 2, seed: 3), false, 0))
        #expect(PracticeScheduler.generatedLevel(Self.answered(answers)) == 2)
        #expect(
            PracticeScheduler.next(record: Self.answered(answers), library: [], now: Self.start)
                == .generated(level: 2, seed: 4))
        answers.append((.generated(level: 2, seed: 3), true, 10))
        #expect(PracticeScheduler.generatedLevel(Self.answered(answers)) == 3)
    }

    @Test("progress per concept: every concept, answered, right at the last try, due")
    func progress() {
        let record = PracticeRecord(questions: [
            QuestionRecord(
                id: .library(file: "a.ops"), concepts: [.priority, .suspension], answers: 2, rights: 1, streak: 1,
                lastAnswered: Self.start, due: Self.start.addingTimeInterval(86_400)),
            QuestionRecord(
                id: .library(file: "b.ops"), concepts: [.priority], answers: 1, rights: 0, streak: 0,
                lastAnswered: Self.start, due: Self.start.addingTimeInterval(600)),
        ])
        let progress = record.progress(now: Self.start.addingTimeInterval(3600))
        #expect(progress.map(\.concept) == Concept.allCases)
        let priority = progress.first { $0.concept == .priority }
        #expect(
            priority == ConceptProgress(concept: .priority, questions: 2, right: 1, due: 1, answers: 3, rightAnswers: 1)
        )
        #expect(progress.first { $0.concept == .suspension }?.due == 0)
        #expect(progress.first { $0.concept == .qos }?.questions == 0)
    }

    @Test(
        "question ids read back as written",
        arguments: ["library:05-priority.ops", "generated:3:18446744073709551615", "kata:async-operation"])
    func ids(_ text: String) {
        #expect(QuestionID(text)?.description == text)
    }

    @Test(
        "ids that are not questions are refused",
        arguments: [
            "library:", "library:a/b.ops", "generated:4:1", "x:1", "generated:1", "kata:", "kata:A/b", "kata:a:b",
        ])
    func badIDs(_ text: String) {
        #expect(QuestionID(text) == nil)
    }

    @Test("a kata's result counts for its concepts but is never asked, nor counted due")
    func kataResults() {
        let kata = QuestionID.kata(name: "async-operation")
        let record = Self.answered([(kata, false, 0)], concepts: [.async, .cancellation])
        let later = Self.start.addingTimeInterval(3600)
        #expect(record[kata]?.due ?? later < later, "a miss is due ten minutes later, as any question")
        #expect(PracticeScheduler.due(in: record, library: Self.library, now: later).isEmpty)
        #expect(PracticeScheduler.next(record: record, library: Self.library, now: later) == .library("01-chain.ops"))
        let async = record.progress(now: later).first { $0.concept == .async }
        #expect(async == ConceptProgress(concept: .async, questions: 1, right: 0, due: 0, answers: 1, rightAnswers: 0))
    }
}
