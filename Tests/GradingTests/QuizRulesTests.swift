import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Grading

/// The explanations say what held at the moment in question and give each
/// rule once: the cap as it was then, a cancel-all that came before an
/// add, a suspension that cancels nothing, a name left out.
@Suite("quiz explanations: true at their moment, each rule once")
struct QuizRulesTests {
    @Test("a rule in parentheses is given where it first shows, and a clause said before is not said again")
    func rulesOnce() {
        let rule = "this Foundation turns QoS into priority only when no priority is set and the cap is not 1"
        let said = QuizExplainer.withoutRepeats([
            "a started before b: both were ready; QoS utility filed b under low priority (\(rule))",
            "a started before c: both were ready; QoS background filed c under veryLow priority (\(rule))",
            "d started before b: both were ready; QoS utility filed b under low priority (\(rule))",
        ])
        #expect(
            said == [
                "a started before b: both were ready; QoS utility filed b under low priority (\(rule))",
                "a started before c: both were ready; QoS background filed c under veryLow priority",
                "d started before b: both were ready",
            ])
    }

    /// Lesson 13's: a QoS that filed one and a QoS that did not, in one sentence.
    @Test("a rule two clauses of one sentence lean on is given once, in the first")
    func ruleOnceInOneSentence() {
        let rule = "this Foundation turns QoS into priority only when no priority is set and the cap is not 1"
        let said = QuizExplainer.withoutRepeats([
            "ui started before late-ui: both were ready; QoS userInteractive filed ui under veryHigh priority "
                + "(\(rule)); the QoS of late-ui did not set a priority: the cap was 1 when it was added (\(rule))"
        ])
        #expect(
            said == [
                "ui started before late-ui: both were ready; QoS userInteractive filed ui under veryHigh priority "
                    + "(\(rule)); the QoS of late-ui did not set a priority: the cap was 1 when it was added"
            ])
    }

    @Test("a clause is cut at '; ' only outside parentheses, and a sentence keeps its first clause")
    func clauses() {
        #expect(QuizExplainer.topLevelClauses("x (a; b); y") == ["x (a; b)", "y"])
        #expect(QuizExplainer.withoutRepeats(["same", "same"]) == ["same", "same"])
    }

    @Test("the slot a finish frees is counted by the cap at that moment, not the declared one")
    func capAtTheMoment() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(2))], ops: [op("a", on: "q"), op("b", on: "q"), op("c", on: "q")])
        var s = Script(scenario)
        s.cap("q", 2)
        s.suspended("q", true)
        s.add("a")
        s.add("b")
        s.add("c")
        s.at(0.050)
        s.cap("q", 1, old: 2)
        s.at(0.100)
        s.suspended("q", false)
        s.run("a", from: 0.101, to: 0.200)
        s.run("b", from: 0.201, to: 0.300)
        s.run("c", from: 0.301, to: 0.400)
        s.end()
        let grade = QuizGrader.grade(
            scenario, events: s.events, answer: .startOrder(["a", "c", "b"].map { s.id($0) }))
        #expect(grade.explanations.count == 1)
        let text = grade.explanations.joined()
        #expect(text.contains("freeing q's only slot"), "\(text)")
        #expect(!text.contains("cap 2"), "\(text)")
    }

    /// d1 runs; a cancel-all at 0.300s cancels it; late is added at 1s
    /// and runs to the end.
    private static let cancelAllThenAdd: (Scenario, [LifecycleEvent]) = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net")], ops: [op("d1", on: "net"), op("late", on: "net")], addedLater: ["late"])
        let net = scenario.queueID(named: "net")!
        scenario.actions.insert(TimedAction(time: .milliseconds(300), action: .cancelAll(net)), at: 0)
        var s = Script(scenario)
        s.add("d1")
        s.at(0.001)
        s.start("d1")
        s.at(0.300)
        s.emit(.action(.cancelAll(net), origin: .timed(0), ignored: nil))
        s.cancel("d1")
        s.at(0.400)
        s.finish("d1")
        s.at(1.000)
        s.emit(.action(.add(s.id("late")), origin: .timed(1), ignored: nil))
        s.add("late")
        s.run("late", from: 1.001, to: 1.300)
        s.end()
        return (scenario, s.events)
    }()

    @Test("an operation added after a cancel-all finishes: the cancel-all touched only what was in the queue")
    func cancelAllTouchesOnlyWhatIsThere() {
        let (scenario, events) = Self.cancelAllThenAdd
        let grade = QuizGrader.grade(
            scenario, events: events, answer: .finalState([(scenario.operationID(named: "late")!, .cancelled)]))
        let text = grade.explanations.joined(separator: "\n")
        #expect(
            text.contains(
                "the cancel-all of net at 0.300s (by 'at 300ms cancel-all net') cancelled only the operations in the "
                    + "queue at that moment; late was added at 1.000s, after it"),
            "\(text)")
        #expect(!text.contains("nothing cancelled it"))
    }

    @Test("suspending a queue cancels nothing, said once for all the operations it held back")
    func suspendCancelsNothing() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))], ops: [op("a", on: "q"), op("b", on: "q"), op("c", on: "q")])
        let q = scenario.queueID(named: "q")!
        scenario.actions = [
            TimedAction(time: .milliseconds(50), action: .suspend(q)),
            TimedAction(time: .milliseconds(500), action: .resume(q)),
        ]
        var s = Script(scenario)
        s.cap("q", 1)
        s.add("a")
        s.add("b")
        s.add("c")
        s.at(0.001)
        s.start("a")
        s.at(0.050)
        s.emit(.action(.suspend(q), origin: .timed(0), ignored: nil))
        s.suspended("q", true)
        s.at(0.100)
        s.finish("a")
        s.at(0.500)
        s.emit(.action(.resume(q), origin: .timed(1), ignored: nil))
        s.suspended("q", false)
        s.run("b", from: 0.501, to: 0.600)
        s.run("c", from: 0.601, to: 0.700)
        s.end()
        let grade = QuizGrader.grade(
            scenario, events: s.events,
            answer: .finalState([(s.id("a"), .cancelled), (s.id("b"), .skipped), (s.id("c"), .skipped)]))
        #expect(grade.explanations.count == 3)
        let rule = "suspending q at 0.050s (by 'at 50ms suspend q') cancels nothing"
        #expect(grade.explanations.filter { $0.contains(rule) }.count == 1, "\(grade.explanations)")
        #expect(grade.explanations[0].contains("a had started at 0.001s, before it"))
        #expect(grade.explanations[1].contains("b started at 0.501s, after the resume at 0.500s"))
        #expect(grade.explanations[2].contains("c started at 0.601s, after the resume at 0.500s"))
    }

    @Test("a name left out of a start order is given with what let it start then")
    func leftOut() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q")], ops: [op("fetch", on: "q"), op("parse", on: "q", after: ["fetch"])])
        var s = Script(scenario)
        s.add("fetch")
        s.add("parse", ready: false)
        s.run("fetch", from: 0.001, to: 0.600)
        s.ready("parse")
        s.run("parse", from: 0.601, to: 0.900)
        s.end()
        let grade = QuizGrader.grade(scenario, events: s.events, answer: .startOrder([s.id("fetch")]))
        #expect(
            grade.explanations == [
                "parse started at 0.601s, once its dependency fetch finished at 0.600s; every operation that starts "
                    + "has its place in the order, and you left it out"
            ])
    }
}
