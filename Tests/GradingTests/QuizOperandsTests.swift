import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// The questions about named operations — `completions [before OP]` and
/// `together A, B` — read from a file, answered as people type and graded
/// against hand-made runs.
@Suite("quiz kinds: completions, together")
struct QuizOperandsTests {
    private static func read(_ text: String) -> Scenario {
        ScenarioReader.read(SourceFile(path: "test.ops", text: text)).scenario!
    }

    /// fetch finishes at 0.3s; parse (after fetch) starts at 0.301s;
    /// fetch's completion block runs at 0.4s; log's at 0.2s; stuck never
    /// finishes, so its block never runs.
    private static func handOff(_ quiz: String) -> (Scenario, [LifecycleEvent]) {
        let scenario = read(
            """
            queue net max 2
            op fetch work 300ms completion
            op log   work 200ms completion
            op parse work 100ms after fetch
            op stuck async 1s never-finishes completion
            quiz "Q" answer \(quiz)
            """)
        var s = Script(scenario)
        s.add("fetch")
        s.add("log")
        s.add("parse", ready: false)
        s.add("stuck")
        s.at(0.001)
        s.start("fetch", thread: 1)
        s.start("log", thread: 2)
        s.at(0.200)
        s.finish("log")
        s.completion("log", thread: 3)
        s.start("stuck", thread: 2)
        s.at(0.300)
        s.finish("fetch")
        s.ready("parse")
        s.at(0.301)
        s.start("parse", thread: 1)
        s.at(0.400)
        s.completion("fetch", thread: 3)
        s.finish("parse")
        s.end(.stalled([s.id("stuck"): .neverPostedFinish]))
        return (scenario, s.events)
    }

    private static func grade(_ run: (Scenario, [LifecycleEvent]), _ text: String) throws -> QuizGrade {
        let answer = try QuizAnswerParser.parse(text, kind: #require(run.0.quiz).kind, scenario: run.0).get()
        return QuizGrader.grade(run.0, events: run.1, answer: answer)
    }

    @Test("the canonical print and the sheet keep the operands")
    func printed() {
        let before = Self.handOff("completions before parse").0
        #expect(ScenarioPrinter().source(for: before).contains(#"quiz "Q" answer completions before parse"#))
        #expect(
            QuizSheet.text(for: before).contains(
                "(completion blocks of fetch, log and stuck: which run before parse starts?)"))
        let together = Self.handOff("together fetch, log").0
        #expect(ScenarioPrinter().source(for: together).contains(#"quiz "Q" answer together fetch, log"#))
        #expect(
            together.quiz?.operands == [together.operationID(named: "fetch")!, together.operationID(named: "log")!])
    }

    @Test("completions: a block runs once its operation finishes, never for one that does not")
    func completionsRun() throws {
        let run = Self.handOff("completions")
        #expect(try Self.grade(run, "fetch, log").isCorrect)
        let wrong = try Self.grade(run, "fetch stuck")
        #expect(wrong.scoreLine == "1 of 3 right")
        #expect(
            wrong.explanations == [
                "log's completion block ran at 0.200s: a completion block runs after its operation finishes (log "
                    + "finished at 0.200s), cancelled or not",
                "stuck's completion block never ran: a completion block runs once its operation is finished, and "
                    + "stuck never finished (it never posted isFinished)",
            ])
    }

    @Test("completions before OP: a dependent does not wait for the completion block")
    func completionsBefore() throws {
        let run = Self.handOff("completions before parse")
        #expect(try Self.grade(run, "log").isCorrect)
        let wrong = try Self.grade(run, "fetch, log")
        #expect(!wrong.isCorrect)
        #expect(
            wrong.explanations == [
                "fetch's completion block ran at 0.400s, after parse started at 0.301s: a completion block runs after "
                    + "its operation finishes (fetch finished at 0.300s), cancelled or not; parse waits for fetch to "
                    + "finish, not for its completion block, which is separate work on a thread of the pool"
            ])
        #expect(wrong.rows.map(\.actual) == ["after", "before", "never ran"])
    }

    @Test("completions: names without a block, the asked operation and an empty answer are refused")
    func completionsErrors() {
        let scenario = Self.handOff("completions before parse").0
        guard case .failure(let error) = QuizAnswerParser.parse("parse, fecth", kind: .completions, scenario: scenario)
        else {
            Issue.record("read")
            return
        }
        #expect(
            error.messages == [
                "no operation named 'fecth' (did you mean 'fetch'?)",
                "'parse' is the operation the question is about, not one of the blocks asked about",
            ])
        guard case .failure(let none) = QuizAnswerParser.parse(" ", kind: .completions, scenario: scenario) else {
            Issue.record("read")
            return
        }
        #expect(none.messages.count == 1)
        #expect((try? QuizAnswerParser.parse("none", kind: .completions, scenario: scenario).get()) == .completions([]))
    }

    @Test("together: yes when both were executing at one moment, with the moment")
    func together() throws {
        let run = Self.handOff("together fetch, log")
        #expect(try Self.grade(run, "Yes").isCorrect)
        let wrong = try Self.grade(run, "n")
        #expect(
            wrong.explanations == [
                "fetch (from 0.001s) and log (from 0.001s) were both executing at 0.001s: nothing kept them apart; "
                    + "net's cap was 2 then, room for both"
            ])
    }

    @Test("together: no, because of a dependency, said with the rule")
    func apart() throws {
        let run = Self.handOff("together parse, fetch")
        #expect(try Self.grade(run, "no").isCorrect)
        let wrong = try Self.grade(run, "yes")
        #expect(wrong.rows.map(\.actual) == ["no"])
        #expect(wrong.explanations.count == 1)
        #expect(wrong.explanations[0].hasPrefix("parse started after fetch because it depends on fetch"))
        guard case .failure(let error) = QuizAnswerParser.parse("maybe", kind: .together, scenario: run.0) else {
            Issue.record("read")
            return
        }
        #expect(error.messages == ["'maybe' is not yes or no: type yes or no"])
    }
}
