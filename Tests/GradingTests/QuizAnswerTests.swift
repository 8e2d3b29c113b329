import Board
import EventFixtures
import Grading
import ScenarioKit
import Testing

/// Reading answers (`QuizAnswerParser`) and the scenario sheet (`QuizSheet`).
@Suite("quiz answers and sheet")
struct QuizAnswerTests {
    private static let scenario: Scenario = {
        var scenario = makeScenario(
            queues: [
                QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "disk", cap: .limit(1)),
                QueueSpec(name: "ui", isMain: true), QueueSpec(name: "q", startsSuspended: true),
            ],
            ops: [
                op("fetch", on: "net", work: 1.2, priority: .high, qos: .userInitiated),
                op("thumbs", on: "net", body: .blocks(Array(repeating: .milliseconds(300), count: 3))),
                op("parse", on: "net", work: 0.4, after: ["fetch"]),
                op("save", on: "disk", work: 0.3, after: ["parse", "thumbs"]),
                op("render", on: "ui", body: .async(.seconds(2))),
                op("late", on: "q", work: 0.1),
            ])
        scenario.operations[2].completion = []
        scenario.operations[3].ignoresCancel = true
        scenario.operations[4].completion = [.cancelAll(QueueID(0))]
        scenario.actions = [
            TimedAction(time: .milliseconds(200), action: .cancel(OperationID(1))),
            TimedAction(time: .milliseconds(500), action: .add(OperationID(5))),
            TimedAction(time: .seconds(1), action: .resume(QueueID(3))),
        ]
        scenario.title = "Download, parse, save"
        scenario.notes = ["a note that gives the answer away"]
        scenario.quiz = Quiz(question: "How does each one end?", kind: .finalState)
        return scenario
    }()

    private func id(_ name: String) -> OperationID { Self.scenario.operationID(named: name)! }

    private func parse(_ text: String, _ kind: QuizKind) -> Result<QuizAnswer, QuizAnswerError> {
        QuizAnswerParser.parse(text, kind: kind, scenario: Self.scenario)
    }

    @Test("start-order: names separated by commas, spaces or both")
    func startOrder() {
        #expect(
            parse("fetch, parse save,render", .startOrder)
                == .success(.startOrder([id("fetch"), id("parse"), id("save"), id("render")])))
        #expect(parse("  fetch\n", .startOrder) == .success(.startOrder([id("fetch")])))
    }

    @Test("start-order: every problem is reported, with the nearest name")
    func startOrderErrors() {
        #expect(
            parse("fecth, net, Parse, fetch, zzz, fetch", .startOrder)
                == .failure(
                    QuizAnswerError([
                        "no operation named 'fecth' (did you mean 'fetch'?)",
                        "'net' is a queue, not an operation",
                        "no operation named 'Parse' (did you mean 'parse'?)",
                        "no operation named 'zzz'",
                        "'fetch' is named twice: an operation starts at most once",
                    ])))
        #expect(
            parse(" , ", .startOrder)
                == .failure(QuizAnswerError(["the answer is empty: name the operations in the order they start"])))
    }

    @Test("final-state: NAME STATE pairs, by commas or lines; states in any case")
    func finalState() {
        let answer = parse("fetch finished, thumbs: Skipped\nparse cancelled\n\nsave stuck", .finalState)
        #expect(
            answer
                == .success(
                    .finalState([
                        (id("fetch"), .finished), (id("thumbs"), .skipped), (id("parse"), .cancelled),
                        (id("save"), .stuck),
                    ])))
    }

    @Test("final-state: every problem is reported")
    func finalStateErrors() {
        #expect(
            parse("fetch finishd, thumbs, parse finished save stuck, nope stuck, fetch stuck", .finalState)
                == .failure(
                    QuizAnswerError([
                        "unknown state 'finishd' (did you mean 'finished'?): a state is finished, cancelled, skipped or stuck",
                        "'thumbs' needs a state: finished, cancelled, skipped or stuck",
                        "'parse finished save stuck' is not 'NAME STATE': separate the operations with commas or newlines",
                        "no operation named 'nope'",
                    ])))
        #expect(
            parse("fetch stuck, fetch finished", .finalState)
                == .failure(QuizAnswerError(["'fetch' is given a state twice"])))
        #expect(
            parse("\n", .finalState)
                == .failure(
                    QuizAnswerError(["the answer is empty: give each operation a state, like 'fetch finished'"])))
    }

    @Test("the sheet: queues, operations in insertion order, timed actions, the question; no title, no notes")
    func sheet() {
        #expect(
            QuizSheet.text(for: Self.scenario) == """
                Queues:
                  net: cap 2
                  disk: serial
                  ui: the main queue (serial, runs on the main thread)
                  q: no cap (the system decides), suspended at the start

                Operations, in the order they are added:
                  fetch on net: work 1.2s, priority high, qos userInitiated
                  thumbs on net: 3 execution blocks of 300ms
                  parse on net: work 400ms, after fetch, completion block
                  save on disk: work 300ms, after parse, thumbs, ignores cancel
                  render on ui: async 2s, completion block that does 'cancel-all net'
                  late on q: work 100ms, added at 500ms

                Timed actions:
                  at 200ms: cancel thumbs
                  at 500ms: add late
                  at 1s: resume q

                Question: How does each one end?

                """)
    }
}
