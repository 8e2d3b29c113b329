import Foundation
import Testing

@testable import Practice

/// What `opscope practice` says, with the clock given.
@Suite("the practice summary")
struct PracticeSummaryTests {
    static let now = Date(timeIntervalSince1970: 1_796_134_502)  // 2026-12-01 14:15:02 UTC

    static let record = PracticeRecord(questions: [
        QuestionRecord(
            id: .library(file: "05-priority.ops"), concepts: [.priority, .suspension], answers: 2, rights: 2,
            streak: 2, lastAnswered: now.addingTimeInterval(-7200), due: now.addingTimeInterval(3 * 86_400)),
        QuestionRecord(
            id: .generated(level: 2, seed: 17), concepts: [.qos, .priority], answers: 1, rights: 0, streak: 0,
            lastAnswered: now.addingTimeInterval(-3600), due: now.addingTimeInterval(-3000)),
    ])

    @Test("nothing answered yet")
    func empty() {
        #expect(
            PracticeSummary.text(PracticeRecord(), library: [], now: Self.now)
                == "Practice: nothing answered yet. The library's quizzes come first, then generated questions.\n")
    }

    @Test("how many answered and due, then a line per concept")
    func summary() {
        let text = PracticeSummary.text(Self.record, library: ["05-priority.ops"], now: Self.now)
        #expect(
            text == """
                Practice: 2 questions answered, 1 right at the last try; 1 due now.
                By concept (right at the last try, of those answered):
                  dependencies       not asked yet
                  priority           1 of 2  █░  (1 due)
                  QoS                0 of 1  ░  (1 due)
                  cancellation       not asked yet
                  cap                not asked yet
                  barriers           not asked yet
                  async              not asked yet
                  completion blocks  not asked yet
                  suspension         1 of 1  █
                  main thread        not asked yet

                """)
    }

    @Test("with nothing due, when the next one is")
    func nextDue() {
        let later = PracticeRecord(questions: [Self.record.questions[0]])
        let text = PracticeSummary.text(later, library: [], now: Self.now)
        #expect(
            text.hasPrefix("Practice: 1 question answered, 1 right at the last try; 0 due now (the next in 3 days).\n"))
    }

    @Test("why this question, and when it comes back")
    func headings() {
        #expect(
            PracticeSummary.heading(.due(Self.record.questions[1]), now: Self.now)
                == "generated, level 2, seed 17 — missed, last answered 1 hour ago: due again")
        #expect(
            PracticeSummary.heading(.due(Self.record.questions[0]), now: Self.now)
                == "a library question — right 2 times in a row, last answered 2 hours ago: due again")
        #expect(
            PracticeSummary.heading(.library("01-chain.ops"), now: Self.now) == "a library question — new to you")
        #expect(
            PracticeSummary.reveal(.library(file: "01-chain.ops"))
                == "That was 01-chain.ops, the quiz of the lesson 'opscope scenarios/01-chain.ops' opens.\n")
        #expect(PracticeSummary.reveal(.generated(level: 1, seed: 2)) == nil)
        #expect(
            PracticeSummary.comesBack(Self.record.questions[0], now: Self.now.addingTimeInterval(-7200))
                == "Right (2 times in a row): it comes back in 3.1 days, on 2026-12-04 at 14:15 UTC.\n")
    }
}
