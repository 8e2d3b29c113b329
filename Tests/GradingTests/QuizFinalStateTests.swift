import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// `QuizGrader` on a final-state answer: each wrong or missing state
/// explained, pinned word for word.
@Suite("quiz grader: final state")
struct QuizFinalStateTests {
    private func startOrder(_ scenario: Scenario, _ events: [LifecycleEvent], _ names: String...) -> QuizGrade {
        QuizGrader.grade(scenario, events: events, answer: .startOrder(names.map { scenario.operationID(named: $0)! }))
    }

    private func finalState(
        _ scenario: Scenario, _ events: [LifecycleEvent], _ pairs: KeyValuePairs<String, FinalState>
    ) -> QuizGrade {
        QuizGrader.grade(
            scenario, events: events,
            answer: .finalState(pairs.map { (scenario.operationID(named: $0.key)!, $0.value) }))
    }

    // MARK: - Final state

    /// net cap 2: fetch finishes; thumbs is skipped (cancelled at 0.2
    /// before it started); polite is cancelled while it runs; parse
    /// (after thumbs) runs, a cancelled dependency counting as finished;
    /// save never posts isFinished; render waits for save.
    private static let ending: (Scenario, [LifecycleEvent]) = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(1)), QueueSpec(name: "work"), QueueSpec(name: "disk")],
            ops: [
                op("fetch", on: "net"), op("thumbs", on: "net"), op("parse", on: "work", after: ["thumbs"]),
                op("polite", on: "work"), op("save", on: "disk", body: .async(.seconds(1))),
                op("render", on: "disk", after: ["save"]),
            ])
        scenario.operations[4].neverFinishes = true
        scenario.actions = [
            TimedAction(time: .milliseconds(200), action: .cancel(OperationID(1))),
            TimedAction(time: .milliseconds(300), action: .cancel(OperationID(3))),
        ]
        let n = Names(scenario: scenario)
        var s = Script(scenario)
        s.cap("net", 1)
        s.add("fetch")
        s.add("thumbs")
        s.add("parse", ready: false)
        s.add("polite")
        s.add("save")
        s.add("render", ready: false)
        s.at(0.001)
        s.start("fetch")
        s.start("polite")
        s.start("save")
        s.at(0.200)
        s.emit(.action(.cancel(n("thumbs")), origin: .timed(0), ignored: nil))
        s.cancel("thumbs")
        s.at(0.300)
        s.emit(.action(.cancel(n("polite")), origin: .timed(1), ignored: nil))
        s.cancel("polite")
        s.at(0.350)
        s.finish("polite")
        s.at(0.600)
        s.finish("fetch")
        s.at(0.601)
        s.set("thumbs", .isFinished, true)
        s.ready("parse")
        s.run("parse", from: 0.602, to: 0.900)
        s.at(2.000)
        s.end(.stalled([n("save"): .neverPostedFinish, n("render"): .waitsFor(n("save"), root: n("save"))]))
        return (scenario, s.events)
    }()

    @Test("final state: a right answer")
    func finalStateRight() {
        let (scenario, events) = Self.ending
        let grade = finalState(
            scenario, events,
            [
                "fetch": .finished, "thumbs": .skipped, "parse": .finished, "polite": .cancelled, "save": .stuck,
                "render": .stuck,
            ])
        #expect(grade.isCorrect)
        #expect(grade.scoreLine == "6 of 6 right")
        #expect(grade.explanations.isEmpty)
    }

    @Test("final state: each wrong or missing state is explained")
    func finalStateWrong() {
        let (scenario, events) = Self.ending
        let grade = finalState(
            scenario, events,
            ["fetch": .finished, "thumbs": .cancelled, "parse": .stuck, "polite": .skipped, "save": .finished])
        #expect(!grade.isCorrect)
        #expect(grade.scoreLine == "1 of 6 right")
        #expect(
            grade.explanations == [
                "thumbs: skipped, not cancelled — it was cancelled at 0.200s (by 'at 200ms cancel thumbs') before it started: "
                    + "a cancelled operation finishes without running",
                "parse: finished, not stuck — it ran and finished at 0.900s although thumbs was cancelled: "
                    + "a cancelled dependency counts as finished",
                "polite: cancelled, not skipped — it started at 0.001s and was cancelled at 0.300s (by 'at 300ms cancel polite') "
                    + "while it was executing: cancel only sets the flag; its work checks isCancelled and stopped early, "
                    + "finishing at 0.350s with isCancelled true",
                "save: stuck, not finished — it started at 0.001s but never finished: it never posted isFinished",
                "render: stuck, you gave no state — it never started: it waits for save, which never finishes",
            ])
        #expect(
            grade.text.hasPrefix(
                """
                  operation  your answer  the run
                  fetch      finished     finished   ✓
                  thumbs     cancelled    skipped    ✗
                  parse      stuck        finished   ✗
                  polite     skipped      cancelled  ✗
                  save       finished     stuck      ✗
                  render     —            stuck      ✗

                Score: 1 of 6 right.

                Why:
                  - thumbs: skipped, not cancelled — it was cancelled at 0.200s
                """))
    }

    @Test("final state: skipped in a queue that never runs it may be called stuck too")
    func skippedAndStuck() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", startsSuspended: true)], ops: [op("a", on: "q")])
        scenario.actions = [TimedAction(time: .milliseconds(100), action: .cancel(OperationID(0)))]
        var s = Script(scenario)
        s.suspended("q", true)
        s.add("a")
        s.at(0.100)
        s.emit(.action(.cancel(OperationID(0)), origin: .timed(0), ignored: nil))
        s.cancel("a")
        s.at(0.200)
        s.end(.stalled([OperationID(0): .queueSuspended(QueueID(0))]))
        #expect(finalState(scenario, s.events, ["a": .skipped]).isCorrect)
        #expect(finalState(scenario, s.events, ["a": .stuck]).isCorrect)
        let wrong = finalState(scenario, s.events, ["a": .finished])
        #expect(
            wrong.explanations == [
                "a: skipped or stuck, not finished — it was cancelled at 0.100s (by 'at 100ms cancel a') before it "
                    + "started, and it never finished (its queue q is suspended and nothing resumes it): it never ran "
                    + "and never ended, so skipped and stuck both count"
            ])
        let order = startOrder(scenario, s.events, "a")
        #expect(
            order.explanations == [
                "a never started: it was cancelled at 0.100s (by 'at 100ms cancel a') before it started, "
                    + "and it never finished: its queue q is suspended and nothing resumes it"
            ])
    }
}
