import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// `QuizGrader` on hand-made event streams: the score, the table and the
/// rule named for each difference, pinned word for word.
@Suite("quiz grader")
struct QuizGraderTests {
    private func startOrder(_ scenario: Scenario, _ events: [LifecycleEvent], _ names: String...) -> QuizGrade {
        QuizGrader.grade(scenario, events: events, answer: .startOrder(names.map { scenario.operationID(named: $0)! }))
    }

    // MARK: - A dependency chain

    /// fetch 0.001–0.600, parse 0.601–0.900 (after fetch), save 0.901–1.1 (after parse).
    private static let chain: (Scenario, [LifecycleEvent]) = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "net")],
            ops: [
                op("fetch", on: "net"), op("parse", on: "net", after: ["fetch"]),
                op("save", on: "net", after: ["parse"]),
            ])
        var s = Script(scenario)
        s.add("fetch")
        s.add("parse", ready: false)
        s.add("save", ready: false)
        s.run("fetch", from: 0.001, to: 0.600)
        s.ready("parse")
        s.run("parse", from: 0.601, to: 0.900)
        s.ready("save")
        s.run("save", from: 0.901, to: 1.100)
        s.end()
        return (scenario, s.events)
    }()

    @Test("a right start order scores full marks and explains nothing")
    func chainRight() {
        let (scenario, events) = Self.chain
        let grade = startOrder(scenario, events, "fetch", "parse", "save")
        #expect(grade.isCorrect)
        #expect(grade.scoreLine == "3 of 3 in the right order")
        #expect(grade.explanations.isEmpty)
        #expect(
            grade.text == """
                  your answer  the run
                  fetch        fetch    0.001s  ✓
                  parse        parse    0.601s  ✓
                  save         save     0.901s  ✓

                Score: 3 of 3 in the right order — all right!

                """)
    }

    @Test("a dependency chain: the dependent started after its dependency, directly or through another")
    func chainWrong() {
        let (scenario, events) = Self.chain
        let grade = startOrder(scenario, events, "save", "parse", "fetch")
        #expect(!grade.isCorrect)
        #expect(grade.scoreLine == "1 of 3 in the right order")
        #expect(
            grade.explanations == [
                "parse started after fetch because it depends on fetch (it became ready only when fetch finished at 0.600s)",
                "save started after parse because it depends on parse (it became ready only when parse finished at 0.900s)",
            ])
        let skipping = startOrder(scenario, events, "fetch", "save", "parse")
        #expect(
            skipping.explanations == [
                "save started after parse because it depends on parse (it became ready only when parse finished at 0.900s)"
            ])
        let transitive = startOrder(scenario, events, "save", "fetch", "parse")
        #expect(
            transitive.explanations == [
                "save started after fetch because it depends on fetch through parse (save → parse → fetch): "
                    + "it became ready only when parse finished at 0.900s",
                "save started after parse because it depends on parse (it became ready only when parse finished at 0.900s)",
            ])
    }

    // MARK: - Priority on a suspended serial queue

    @Test("priority on a suspended serial queue: one line per wrong link, not per wrong pair")
    func priorityReversed() {
        let (scenario, events) = QuizRuns.priority
        let grade = startOrder(scenario, events, "low-one", "normal-one", "high-one", "urgent")
        #expect(grade.scoreLine == "1 of 4 in the right order")
        #expect(
            grade.explanations == [
                "urgent started before high-one: both were ready when q resumed at 0.100s, "
                    + "and urgent has the higher queuePriority (veryHigh against high)",
                "high-one started before normal-one: both were ready when urgent finished at 0.200s, freeing q's only slot, "
                    + "and high-one has the higher queuePriority (high against normal)",
                "normal-one started before low-one: both were ready when high-one finished at 0.300s, freeing q's only slot, "
                    + "and normal-one has the higher queuePriority (normal against low)",
            ])
        #expect(
            grade.text.contains("\nWhy:\n  - urgent started before high-one: both were ready when q resumed at 0.100s"))
    }

    @Test("one operation out of place is explained against each it should have followed")
    func priorityOneMisplaced() {
        let (scenario, events) = QuizRuns.priority
        let grade = startOrder(scenario, events, "urgent", "normal-one", "high-one", "low-one")
        #expect(grade.scoreLine == "3 of 4 in the right order")
        #expect(
            grade.explanations == [
                "high-one started before normal-one: both were ready when urgent finished at 0.200s, freeing q's only slot, "
                    + "and high-one has the higher queuePriority (high against normal)"
            ])
    }

    // MARK: - Equal priority: insertion order

    @Test("equal priority: the one added first goes first (file order, or the time of an add)")
    func insertionOrder() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1), startsSuspended: true)],
            ops: [op("a", on: "q"), op("b", on: "q"), op("c", on: "q")])
        scenario.actions = [
            TimedAction(time: .milliseconds(50), action: .add(OperationID(2))),
            TimedAction(time: .milliseconds(100), action: .resume(QueueID(0))),
        ]
        var s = Script(scenario)
        s.cap("q", 1)
        s.suspended("q", true)
        s.add("a")
        s.add("b")
        s.at(0.050)
        s.add("c")
        s.at(0.100)
        s.suspended("q", false)
        s.run("a", from: 0.101, to: 0.200)
        s.run("b", from: 0.201, to: 0.300)
        s.run("c", from: 0.301, to: 0.400)
        s.end()
        let grade = startOrder(scenario, s.events, "b", "a", "c")
        #expect(
            grade.explanations == [
                "a started before b: both were ready when q resumed at 0.100s; a and b have the same priority (normal): "
                    + "a was added first (file order)"
            ])
        let later = startOrder(scenario, s.events, "c", "a", "b")
        #expect(
            later.explanations == [
                "a started before c: both were ready when q resumed at 0.100s; a and c have the same priority (normal): "
                    + "a was added first (a at 0.000s, c at 0.050s)",
                "b started before c: both were ready when a finished at 0.200s, freeing q's only slot; "
                    + "b and c have the same priority (normal): b was added first (b at 0.000s, c at 0.050s)",
            ])
    }

    // MARK: - The cap

    @Test("the cap: an operation ready from the start waits while its queue is full")
    func cap() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "disk")],
            ops: [op("a", on: "net"), op("b", on: "net"), op("c", on: "net"), op("d", on: "disk")])
        scenario.actions = [TimedAction(time: .milliseconds(500), action: .add(OperationID(3)))]
        var s = Script(scenario)
        s.cap("net", 2)
        for name in ["a", "b", "c"] { s.add(name) }
        s.at(0.001)
        s.start("a")
        s.at(0.002)
        s.start("b")
        s.at(0.500)
        s.add("d")
        s.at(0.501)
        s.start("d")
        s.at(1.001)
        s.finish("a")
        s.at(1.002)
        s.start("c")
        s.at(1.100)
        s.finish("b")
        s.finish("d")
        s.at(2.002)
        s.finish("c")
        s.end()
        let grade = startOrder(scenario, s.events, "a", "b", "c", "d")
        #expect(grade.scoreLine == "3 of 4 in the right order")
        #expect(
            grade.explanations == [
                "c started after d: when d started on disk at 0.501s, c waited: its queue net was at its cap (2 running: a, b)"
            ])
        // Operations that started while d was not in its queue yet share one line.
        let early = startOrder(scenario, s.events, "d", "a", "b", "c")
        #expect(
            early.explanations == [
                "d started after a and b: d was added to disk only at 0.500s (by 'at 500ms add d'), "
                    + "when a and b had already started (at 0.001s and 0.002s)"
            ])
    }

    // MARK: - Cancellation

    /// serial q: first 0.001–0.600; skipped cancelled at 0.2 before it
    /// started (finishes at 0.601 without running); dependent (after
    /// skipped) 0.602–0.800.
    private static let cancel: (Scenario, [LifecycleEvent]) = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))],
            ops: [op("first", on: "q"), op("skipped", on: "q"), op("dependent", on: "q", after: ["skipped"])])
        scenario.actions = [TimedAction(time: .milliseconds(200), action: .cancel(OperationID(1)))]
        var s = Script(scenario)
        s.cap("q", 1)
        s.add("first")
        s.add("skipped")
        s.add("dependent", ready: false)
        s.at(0.001)
        s.start("first")
        s.at(0.200)
        s.emit(.action(.cancel(OperationID(1)), origin: .timed(0), ignored: nil))
        s.cancel("skipped")
        s.at(0.600)
        s.finish("first")
        s.at(0.601)
        s.set("skipped", .isFinished, true)
        s.ready("dependent")
        s.run("dependent", from: 0.602, to: 0.800)
        s.end()
        return (scenario, s.events)
    }()

    @Test("cancelled before it started: it never starts")
    func cancelledBeforeStart() {
        let (scenario, events) = Self.cancel
        let grade = startOrder(scenario, events, "first", "skipped", "dependent")
        #expect(!grade.isCorrect)
        #expect(grade.scoreLine == "1 of 2 (2 in the right order, less 1 for naming an operation that never started)")
        #expect(
            grade.explanations == [
                "skipped never started: it was cancelled at 0.200s (by 'at 200ms cancel skipped') before it started "
                    + "(a cancelled operation finishes without running)"
            ])
        #expect(grade.rows.map(\.yours) == ["first", "skipped", "dependent"])
        #expect(grade.rows.map(\.actual) == ["first", "—", "dependent"])
        #expect(grade.rows.map(\.note) == ["", "never started", ""])
    }

    @Test("a cancelled dependency counts as finished: its dependent starts")
    func cancelledDependency() {
        let (scenario, events) = Self.cancel
        let grade = startOrder(scenario, events, "first")
        #expect(grade.scoreLine == "1 of 2 in the right order")
        #expect(
            grade.explanations == [
                "dependent started at 0.602s although skipped was cancelled: a cancelled dependency counts as finished"
            ])
        #expect(startOrder(scenario, events, "first", "dependent").isCorrect)
    }

    @Test("a dependent started after a cancelled dependency that was still waiting for its queue")
    func waitingForCancelledDependency() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1)), QueueSpec(name: "r")],
            ops: [
                op("first", on: "q"), op("victim", on: "q"), op("next", on: "r", after: ["victim"]),
                op("other", on: "r"),
            ])
        scenario.actions = [TimedAction(time: .milliseconds(200), action: .cancel(OperationID(1)))]
        var s = Script(scenario)
        s.add("first")
        s.add("victim")
        s.add("next", ready: false)
        s.at(0.001)
        s.start("first")
        s.at(0.200)
        s.cancel("victim")
        s.at(0.300)
        s.add("other")
        s.at(0.301)
        s.start("other")
        s.at(0.600)
        s.finish("first")
        s.at(0.601)
        s.set("victim", .isFinished, true)
        s.ready("next")
        s.run("next", from: 0.602, to: 0.700)
        s.finish("other")
        s.end()
        let grade = startOrder(scenario, s.events, "first", "next", "other")
        #expect(
            grade.explanations == [
                "next started after other: next was waiting for its dependency victim, which was cancelled and finished at 0.601s "
                    + "(a cancelled dependency counts as finished); other had started at 0.301s"
            ])
    }
}
