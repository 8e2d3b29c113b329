import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// `QuizGrader` on hand-made event streams where QoS and threads decide
/// the start order, pinned word for word.
@Suite("quiz grader: QoS and threads")
struct QuizGraderThreadTests {
    private func startOrder(_ scenario: Scenario, _ events: [LifecycleEvent], _ names: String...) -> QuizGrade {
        QuizGrader.grade(scenario, events: events, answer: .startOrder(names.map { scenario.operationID(named: $0)! }))
    }

    // MARK: - QoS becomes priority

    /// q cap 2: b1, b2 run from the start; c (no QoS) and i1 (QoS
    /// userInitiated, no priority) wait; when b1 finishes, i1 goes first.
    @Test("QoS picks the bucket when no priority is set and the cap is not 1")
    func qosBucket() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(2))],
            ops: [op("b1", on: "q"), op("b2", on: "q"), op("c", on: "q"), op("i1", on: "q", qos: .userInitiated)])
        var s = Script(scenario)
        s.cap("q", 2)
        for name in ["b1", "b2", "c", "i1"] { s.add(name) }
        s.at(0.001)
        s.start("b1")
        s.at(0.002)
        s.start("b2")
        s.at(1.000)
        s.finish("b1")
        s.at(1.001)
        s.start("i1")
        s.at(1.200)
        s.finish("b2")
        s.at(1.201)
        s.start("c")
        s.at(2.000)
        s.finish("i1")
        s.finish("c")
        s.end()
        let grade = startOrder(scenario, s.events, "b1", "b2", "c", "i1")
        #expect(grade.scoreLine == "3 of 4 in the right order")
        #expect(
            grade.explanations == [
                "i1 started before c: both were ready when b1 finished at 1.000s, freeing a slot of q (cap 2), "
                    + "and i1 is filed under the higher priority (high against normal); QoS userInitiated filed i1 under high priority "
                    + "(this Foundation turns QoS into priority only when no priority is set and the cap is not 1)"
            ])
    }

    @Test("on a serial queue QoS picks no bucket: insertion order decides")
    func qosIgnoredOnSerialQueue() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))],
            ops: [op("a", on: "q"), op("b", on: "q"), op("fast", on: "q", qos: .userInteractive)])
        var s = Script(scenario)
        s.cap("q", 1)
        for name in ["a", "b", "fast"] { s.add(name) }
        s.run("a", from: 0.001, to: 1.000)
        s.run("b", from: 1.001, to: 2.000)
        s.run("fast", from: 2.001, to: 3.000)
        s.end()
        let grade = startOrder(scenario, s.events, "a", "fast", "b")
        #expect(
            grade.explanations == [
                "b started before fast: both were ready when a finished at 1.000s, freeing q's only slot; "
                    + "b and fast have the same priority (normal): b was added first (file order); "
                    + "the QoS of fast did not set a priority: the queue's cap was 1 when it was added "
                    + "(this Foundation turns QoS into priority only when no priority is set and the cap is not 1)"
            ])
    }

    // MARK: - Threads

    @Test("dispatched but waiting for a worker thread; starts together are a tie")
    func threads() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(4)), QueueSpec(name: "r")],
            ops: [op("s1", on: "q"), op("s2", on: "q"), op("s3", on: "q"), op("a", on: "r", body: .async(.seconds(1)))])
        scenario.actions = [TimedAction(time: .milliseconds(500), action: .add(OperationID(3)))]
        var s = Script(scenario)
        s.cap("q", 4)
        for name in ["s1", "s2", "s3"] {
            s.add(name)
            s.dispatch(name)
        }
        s.at(0.001)
        s.start("s1")
        s.at(0.002)
        s.start("s2")
        s.at(0.500)
        s.add("a")
        s.dispatch("a")
        s.at(0.501)
        s.start("a")
        s.at(4.000)
        s.start("s3")
        s.at(5.000)
        s.finish("s1")
        s.finish("s2")
        s.finish("s3")
        s.finish("a")
        s.end()
        let grade = startOrder(scenario, s.events, "s2", "s1", "s3", "a")
        #expect(grade.scoreLine == "3 of 4 in the right order")
        #expect(grade.rows.map(\.yours) == ["s2", "s1", "s3", "a", "—"])
        #expect(grade.rows.map(\.actual) == ["s2", "s1", "—", "a", "s3"])
        #expect(
            grade.explanations == [
                "s3 started after a: when a started on r at 0.501s, s3 waited: it was dispatched at 0.000s but waited for a "
                    + "worker thread (synchronous work holds a thread; the pool grows about one thread a second)"
            ])
        #expect(
            grade.notes == [
                "s2 and s1 started together (within 50ms): all were ready and nothing held one back, "
                    + "so which thread announces isExecuting first is a race; either order counts as right"
            ])
        #expect(startOrder(scenario, s.events, "s2", "s1", "a", "s3").isCorrect)
        #expect(startOrder(scenario, s.events, "s1", "s2", "a", "s3").notes.isEmpty)
    }

    /// Two operations dispatched at once whose threads announced them 120 ms
    /// of the run's time apart: a tie at ×4 (30 ms of real time), not at ×1.
    @Test("the window of a tie is real time: 50 ms, whatever the speed")
    func tieWindowIsRealTime() throws {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(2))], ops: [op("d1", on: "q"), op("d2", on: "q")])
        var s = Script(scenario)
        s.cap("q", 2)
        for name in ["d1", "d2"] {
            s.add(name)
            s.dispatch(name)
        }
        s.at(0.001)
        s.start("d1")
        s.at(0.121)
        s.start("d2")
        s.at(1.000)
        s.finish("d1")
        s.finish("d2")
        s.end()
        let swapped = QuizAnswer.startOrder([
            try #require(scenario.operationID(named: "d2")), try #require(scenario.operationID(named: "d1")),
        ])
        #expect(!QuizGrader.grade(scenario, events: s.events, answer: swapped).isCorrect, "120 ms apart at ×1")
        let atFour = QuizGrader.grade(scenario, events: s.events, answer: swapped, speed: 4)
        #expect(atFour.isCorrect, "30 ms of real time apart at ×4")
        #expect(
            atFour.notes == [
                "d2 and d1 started together (within 50ms of real time (200ms of the run's at ×4)): all were ready and "
                    + "nothing held one back, so which thread announces isExecuting first is a race; either order "
                    + "counts as right"
            ])
        #expect(!QuizGrader.grade(scenario, events: s.events, answer: swapped, speed: 0.5).isCorrect)
    }

    @Test("operations dispatched up to the cap go first although they wait for a thread")
    func dispatchedUpToTheCap() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(4))],
            ops: [
                op("s1", on: "q"), op("s2", on: "q"), op("s3", on: "q"), op("s4", on: "q"),
                op("i1", on: "q", qos: .userInitiated),
            ])
        var s = Script(scenario)
        s.cap("q", 4)
        for name in ["s1", "s2", "s3", "s4", "i1"] {
            s.add(name)
            if name != "i1" { s.dispatch(name) }
        }
        s.at(0.001)
        s.start("s1")
        s.at(0.002)
        s.start("s2")
        s.at(1.000)
        s.start("s3")
        s.at(2.000)
        s.start("s4")
        s.at(3.000)
        s.finish("s1")
        s.dispatch("i1")
        s.at(3.001)
        s.start("i1")
        s.at(5.000)
        s.finish("s2")
        s.finish("s3")
        s.finish("s4")
        s.finish("i1")
        s.end()
        let grade = startOrder(scenario, s.events, "s1", "s2", "i1", "s3", "s4")
        #expect(
            grade.explanations == [
                "s3 and s4 started before i1: when i1 was added at 0.000s, q had already dispatched s1, s2, s3 and s4, "
                    + "as many as its cap (4): dispatched operations count against the cap while they wait for a worker thread "
                    + "(synchronous work holds a thread; the pool grows about one thread a second), so i1 had to wait for one "
                    + "of them to finish; QoS userInitiated filed i1 under high priority "
                    + "(this Foundation turns QoS into priority only when no priority is set and the cap is not 1)"
            ])
    }
}
