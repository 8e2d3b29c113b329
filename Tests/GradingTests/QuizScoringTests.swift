import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// How a start-order answer is scored (the longest run in the right
/// relative order, less one per name that never started) and how its table
/// lines the answer up with the run, pinned word for word on hand-made
/// event streams.
@Suite("quiz start-order scoring")
struct QuizScoringTests {
    private func startOrder(_ scenario: Scenario, _ events: [LifecycleEvent], _ names: String...) -> QuizGrade {
        QuizGrader.grade(scenario, events: events, answer: .startOrder(names.map { scenario.operationID(named: $0)! }))
    }

    /// q serial: a 0.001–0.100, b 0.101–0.200 (file order); c on r, after
    /// b, 0.201–0.300; x on held, which is suspended and never resumed, so
    /// the run stalls with x never started.
    private static let three: (Scenario, [LifecycleEvent]) = {
        let scenario = makeScenario(
            queues: [
                QueueSpec(name: "q", cap: .limit(1)), QueueSpec(name: "r"),
                QueueSpec(name: "held", startsSuspended: true),
            ],
            ops: [op("a", on: "q"), op("b", on: "q"), op("c", on: "r", after: ["b"]), op("x", on: "held")])
        let n = Names(scenario: scenario)
        var s = Script(scenario)
        s.cap("q", 1)
        s.suspended("held", true)
        s.add("a")
        s.add("b")
        s.add("c", ready: false)
        s.add("x")
        s.run("a", from: 0.001, to: 0.100)
        s.run("b", from: 0.101, to: 0.200)
        s.ready("c")
        s.run("c", from: 0.201, to: 0.300)
        s.end(.stalled([n("x"): .queueSuspended(n.q("held"))]))
        return (scenario, s.events)
    }()

    @Test("the real order scores full marks, all rows shared")
    func right() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "a", "b", "c")
        #expect(grade.isCorrect)
        #expect(grade.score == 3)
        #expect(grade.total == 3)
        #expect(grade.scoreLine == "3 of 3 in the right order")
        #expect(
            grade.text == """
                  your answer  the run
                  a            a        0.001s  ✓
                  b            b        0.101s  ✓
                  c            c        0.201s  ✓

                Score: 3 of 3 in the right order — all right!

                """)
    }

    @Test("an extra name costs one point, not every place after it")
    func extraName() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "a", "x", "b", "c")
        #expect(!grade.isCorrect)
        #expect(grade.score == 2)
        #expect(grade.total == 3)
        #expect(grade.inOrder == 3)
        #expect(grade.extraNames == 1)
        #expect(
            grade.text == """
                  your answer  the run
                  a            a        0.001s  ✓
                  x            —                ✗ never started
                  b            b        0.101s  ✓
                  c            c        0.201s  ✓

                Score: 2 of 3 (3 in the right order, less 1 for naming an operation that never started).

                Why:
                  - x never started: its queue held is suspended and nothing resumes it.

                """)
    }

    @Test("a name left out costs one point")
    func missingName() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "a", "c")
        #expect(grade.score == 2)
        #expect(grade.extraNames == 0)
        #expect(
            grade.text == """
                  your answer  the run
                  a            a        0.001s  ✓
                  —            b        0.101s  ✗ left out
                  c            c        0.201s  ✓

                Score: 2 of 3 in the right order.

                Why:
                  - b started at 0.101s, when a finished at 0.100s, freeing q's only slot; every operation that starts has its place in the order, and you left it out.

                """)
    }

    @Test("one swap costs one point: the later-started one is out of place, with the rule")
    func swap() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "b", "a", "c")
        #expect(grade.score == 2)
        #expect(
            grade.text == """
                  your answer  the run
                  b            —                ✗ out of place
                  a            a        0.001s  ✓
                  —            b        0.101s  ✗ out of place
                  c            c        0.201s  ✓

                Score: 2 of 3 in the right order.

                Why:
                  - a started before b: both were ready at 0.000s; a and b have the same priority (normal): \
                a was added first (file order).

                """)
        let dependent = startOrder(scenario, events, "a", "c", "b")
        #expect(dependent.score == 2)
        #expect(
            dependent.explanations == [
                "c started after b because it depends on b (it became ready only when b finished at 0.200s)"
            ])
    }

    @Test("one placed too late is explained against the first it should have preceded, once")
    func tooLate() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "b", "c", "a")
        #expect(grade.score == 2)
        #expect(grade.rows.map(\.yours) == ["—", "b", "c", "a"])
        #expect(grade.rows.map(\.actual) == ["a", "b", "c", "—"])
        #expect(grade.rows.map(\.note) == ["out of place", "", "", "out of place"])
        #expect(
            grade.explanations == [
                "a started before b: both were ready at 0.000s; a and b have the same priority (normal): "
                    + "a was added first (file order)"
            ])
    }

    @Test("every kind of difference at once; the score does not go below 0")
    func everything() {
        let (scenario, events) = Self.three
        let grade = startOrder(scenario, events, "x", "c", "a")
        #expect(grade.score == 0)
        #expect(grade.inOrder == 1)
        #expect(
            grade.text == """
                  your answer  the run
                  x            —                ✗ never started
                  c            —                ✗ out of place
                  a            a        0.001s  ✓
                  —            b        0.101s  ✗ left out
                  —            c        0.201s  ✗ out of place

                Score: 0 of 3 (1 in the right order, less 1 for naming an operation that never started).

                Why:
                  - x never started: its queue held is suspended and nothing resumes it.
                  - b started at 0.101s, when a finished at 0.100s, freeing q's only slot; every operation that starts has its place in the order, and you left it out.
                  - c started after a: c was waiting for its dependency b, which finished at 0.200s; a had started at 0.001s.

                """)
        let nothing = startOrder(scenario, events, "x")
        #expect(nothing.score == 0)
        #expect(nothing.scoreLine == "0 of 3 (0 in the right order, less 1 for naming an operation that never started)")
    }

    @Test("a reversed order of four keeps one in order; each of the others is explained by the rule before it")
    func reversed() {
        let (scenario, events) = QuizRuns.priority
        let grade = startOrder(scenario, events, "low-one", "normal-one", "high-one", "urgent")
        #expect(grade.score == 1)
        #expect(
            grade.text == """
                  your answer  the run
                  low-one      —                   ✗ out of place
                  normal-one   —                   ✗ out of place
                  high-one     —                   ✗ out of place
                  urgent       urgent      0.101s  ✓
                  —            high-one    0.201s  ✗ out of place
                  —            normal-one  0.301s  ✗ out of place
                  —            low-one     0.401s  ✗ out of place

                Score: 1 of 4 in the right order.

                Why:
                  - urgent started before high-one: both were ready when q resumed at 0.100s, \
                and urgent has the higher queuePriority (veryHigh against high).
                  - high-one started before normal-one: both were ready when urgent finished at 0.200s, \
                freeing q's only slot, and high-one has the higher queuePriority (high against normal).
                  - normal-one started before low-one: both were ready when high-one finished at 0.300s, \
                freeing q's only slot, and normal-one has the higher queuePriority (normal against low).

                """)
    }
}
