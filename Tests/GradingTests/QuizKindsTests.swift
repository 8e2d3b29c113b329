import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// The answers that are counts or sets — peak, counts, main-thread — read
/// as people type them and graded against hand-made runs.
@Suite("quiz kinds: peak, counts, main-thread")
struct QuizKindsTests {
    /// net (cap 2): a, b, c; a and b run together, then c. ui (main): show.
    private static let run: (Scenario, [LifecycleEvent]) = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "ui", isMain: true)],
            ops: [op("a", on: "net"), op("b", on: "net"), op("c", on: "net"), op("show", on: "ui", after: ["c"])])
        var s = Script(scenario)
        s.cap("net", 2)
        s.add("a")
        s.add("b")
        s.add("c")
        s.add("show", ready: false)
        s.at(0.001)
        s.start("a", thread: 1)
        s.start("b", thread: 2)
        s.at(0.300)
        s.finish("a")
        s.finish("b")
        s.at(0.301)
        s.cancel("c")
        s.skip("c")
        s.ready("show")
        s.at(0.302)
        s.start("show", thread: 0)
        s.at(0.400)
        s.finish("show")
        s.end()
        return (scenario, s.events)
    }()

    private func parse(_ text: String, _ kind: QuizKind) -> Result<QuizAnswer, QuizAnswerError> {
        QuizAnswerParser.parse(text, kind: kind, scenario: Self.run.0)
    }

    private func grade(_ text: String, _ kind: QuizKind) throws -> QuizGrade {
        let answer = try parse(text, kind).get()
        return QuizGrader.grade(Self.run.0, events: Self.run.1, answer: answer)
    }

    @Test("peak: QUEUE N pairs; the cap at the moment explains a wrong number")
    func peak() throws {
        let right = try grade("net 2, ui: 1", .peak)
        #expect(right.isCorrect)
        let wrong = try grade("net 3\nui 1", .peak)
        #expect(!wrong.isCorrect)
        #expect(wrong.scoreLine == "1 of 2 right")
        #expect(
            wrong.explanations == [
                "net: 2 at most, not 3 — a and b were executing at once at 0.001s, as many as its cap (2) then"
            ])
        #expect(wrong.text.hasPrefix("  queue  your answer  the run\n  net    3            2        ✗"))
        let left = try grade("net 2", .peak)
        #expect(
            left.explanations == [
                "ui: 1 at most, you gave no number — the main queue runs one operation at a time, on the main thread"
            ])
    }

    @Test("peak: a misspelt queue, an operation for a queue, a missing or negative number are each named")
    func peakErrors() {
        guard case .failure(let error) = parse("nte 2, a 1, ui, net -1", .peak) else {
            Issue.record("read")
            return
        }
        #expect(
            error.messages == [
                "no queue named 'nte' (did you mean 'net'?)",
                "'a' is an operation, not a queue: a peak is given per queue",
                "'ui' needs a number: how many of its operations execute at once, at most",
                "'-1' is not a count: give a whole number, 0 or more",
            ])
    }

    @Test("counts: STATE N in either order, a state left out is 0, each wrong count explained by an example")
    func counts() throws {
        #expect(try grade("3 finished, skipped 1", .counts).isCorrect)
        // Only what the answer gave or the run had is asked: cancelled and
        // stuck, zero on both sides, are no free points.
        let wrong = try grade("finished 4", .counts)
        #expect(wrong.score == 0)
        #expect(wrong.total == 2)
        #expect(wrong.rows.map(\.label) == ["finished", "skipped"])
        #expect(try grade("finished 3, skipped 1, stuck 0", .counts).total == 3)
        #expect(
            wrong.explanations == [
                "finished: 3, not 4 — a, b and show; a: it ran and finished at 0.300s, and nothing cancelled it",
                "skipped: 1, not 0 — c: it was cancelled at 0.301s before it started: a cancelled operation "
                    + "finishes without running",
            ])
        guard case .failure(let error) = parse("finishd 3, skipped", .counts) else {
            Issue.record("read")
            return
        }
        #expect(
            error.messages == [
                "unknown state 'finishd' (did you mean 'finished'?): a state is finished, cancelled, skipped or stuck",
                "'skipped' is not 'STATE N': one state and its count, separated from the next by a comma",
            ])
    }

    @Test("main-thread: names or 'none'; the main queue's operations run on the main thread, others on the pool")
    func mainThread() throws {
        #expect(try grade("show", .mainThread).isCorrect)
        let none = try grade("none", .mainThread)
        #expect(
            none.explanations == [
                "show: it ran on the main thread: its queue ui is OperationQueue.main, which runs its operations "
                    + "there, one at a time"
            ])
        let wrong = try grade("a, show", .mainThread)
        #expect(
            wrong.explanations == [
                "a: it ran on thread #1, not the main thread: net is not the main queue, and an operation queue "
                    + "other than OperationQueue.main runs its operations on threads of the pool"
            ])
        #expect(wrong.rows.map(\.actual) == ["thread #1", "thread #2", "never ran", "main"])
    }

    @Test("columns at a moment: COLUMN N; a wrong count names who was there and what held the first back")
    func columns() throws {
        var scenario = Self.run.0
        scenario.quiz = Quiz(question: "How many in each column at 200ms?", kind: .columns, moment: .milliseconds(200))
        func grade(_ text: String) throws -> QuizGrade {
            let answer = try QuizAnswerParser.parse(text, kind: .columns, scenario: scenario).get()
            return QuizGrader.grade(scenario, events: Self.run.1, answer: answer)
        }
        #expect(try grade("executing 2, ready 1, pending 1").isCorrect)
        #expect(try grade("2 executing, 1 ready, 1 pending, finished 0").isCorrect)
        let wrong = try grade("executing 3, pending 1")
        #expect(wrong.rows.map(\.label) == ["pending", "ready", "executing"])
        #expect(wrong.scoreLine == "1 of 3 right")
        #expect(
            wrong.explanations == [
                "ready: 1 at 0.200s, you gave none — c; c was ready, but its queue net was at its cap (2) "
                    + "(a and b executing)",
                "executing: 2 at 0.200s, not 3 — a and b; a was executing since 0.001s: it had not finished yet",
            ])
        // At 0.350s: c was cancelled before it started, show runs.
        scenario.quiz?.moment = .milliseconds(350)
        let later = try grade("finished 2, cancelled 1, executing 1")
        #expect(later.isCorrect)
        let none = try grade("finished 2, executing 1, ready 1")
        #expect(
            none.explanations == [
                "ready: none at 0.350s, not 1 — no operation was ready then",
                "cancelled: 1 at 0.350s, you gave none — c; c was cancelled at 0.301s before it started and had "
                    + "finished at 0.301s",
            ])
        guard case .failure(let error) = QuizAnswerParser.parse("runing 2, ready", kind: .columns, scenario: scenario)
        else {
            Issue.record("read")
            return
        }
        #expect(
            error.messages == [
                "unknown column 'runing': a column is pending, ready, executing, finished or cancelled",
                "'ready' is not 'COLUMN N': one column and its count, separated from the next by a comma",
            ])
    }

    @Test(
        "a barrier is never asked about: naming one is refused, whatever the kind",
        arguments: [QuizKind.startOrder, .finalState, .mainThread])
    func barrierRefused(_ kind: QuizKind) {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q")],
            ops: [op("a", on: "q"), op("bar", on: "q", after: ["a"], body: .barrier(.zero)), op("b", on: "q")])
        let text = kind == .finalState ? "a finished, bar finished, b finished" : "a, bar, b"
        guard case .failure(let error) = QuizAnswerParser.parse(text, kind: kind, scenario: scenario) else {
            Issue.record("a barrier was read")
            return
        }
        #expect(
            error.messages == ["'bar' is a barrier: the question asks about the operations, not their queue's barriers"]
        )
    }

    @Test("which kinds take one line, and which read up to an empty line")
    func oneLine() {
        #expect(
            QuizKind.allCases.filter(QuizAnswerParser.takesOneLine) == [
                .startOrder, .counts, .mainThread, .completions, .together, .columns,
            ])
    }
}
