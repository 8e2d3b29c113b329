import Board
import EventFixtures
import Foundation
import Grading
import RunEvents
import ScenarioKit
import Screen
import Testing

@testable import Interactive

/// A scenario opened as a question (predict mode), driven by keys, events
/// and moments by hand: nothing that gives the answer away shows before
/// it is in, the run starts on Enter, the grade comes at the run's end,
/// Enter goes to the deciding moment and `r` asks again.
@Suite struct PredictModeTests {
    /// slow is added first, fast second; fast has the higher priority on a
    /// serial queue that starts suspended.
    static let scenario = ScenarioReader.read(
        """
        title "Priority beats the order of adding"
        note "fast runs first: the queue resumes with both ready"
        queue q serial suspended
        op slow work 100ms priority low
        op fast work 100ms priority high
        at 50ms resume q
        when fast starts say "fast first"
        expect order fast, slow
        quiz "Which starts first?" answer start-order
        """
    ).scenario!

    static func model(practice: String? = nil) -> SessionModel {
        SessionModel(
            scenario: scenario,
            settings: .init(speed: 1, paused: false, lesson: true, asQuestion: true, practiceQuestion: practice),
            file: RecordingFile(path: "q.ops", source: ""), at: 0)
    }

    static func frame(_ model: SessionModel, columns: Int = 120) -> FrameInput {
        model.frameInput(
            size: Size(columns: columns, rows: 40), glyphs: .unicode, colors: false, SessionMoment(wall: 0))
    }

    static func press(_ key: Key, _ model: inout SessionModel) -> [SessionEffect] {
        model.handle(key, frame: frame(model), SessionMoment(wall: 0), date: Date(timeIntervalSince1970: 0))
    }

    static func type(_ text: String, _ model: inout SessionModel) {
        for c in text { _ = press(.character(c), &model) }
    }

    static func screen(_ model: inout SessionModel, columns: Int = 120) -> String {
        model.render(frame: frame(model, columns: columns)).lines.joined(separator: "\n")
    }

    /// The run: slow and fast added, q resumes, fast then slow.
    static func run() -> [LifecycleEvent] {
        var s = Script(scenario)
        s.suspended("q", true)
        s.add("slow")
        s.add("fast")
        s.at(0.05)
        s.suspended("q", false)
        s.start("fast", thread: 1)
        s.emit(.caption(0, paused: false))
        s.at(0.15)
        s.finish("fast")
        s.start("slow", thread: 1)
        s.at(0.25)
        s.finish("slow")
        s.end()
        return s.events
    }

    @Test func aQuestionOpensPausedWithoutLessonAndHidesWhatGivesTheAnswerAway() {
        var model = Self.model()
        #expect(model.open(at: 0) == [.newRun(speed: 1, paused: true, lesson: false)])
        let screen = Self.screen(&model)
        #expect(screen.contains("Which starts first?"))
        #expect(!screen.contains("Priority beats"), "the title")
        #expect(!screen.contains("fast runs first"), "the notes")
        #expect(!screen.contains("order fast, slow"), "the expectations")
        #expect(screen.contains("your answer: _"))
        // Each card says what the file declares of it, not "not added yet"
        // (nothing is added before the answer), and the band the timed action.
        #expect(!screen.contains("not added yet"))
        #expect(screen.components(separatedBy: "100ms").count > 2, "both cards' lengths")
        #expect(screen.contains("the file says: at 50ms: resume q"))
        // The Swift code on Ctrl-E, without the title and notes.
        _ = Self.press(.ctrl("e"), &model)
        let code = Self.screen(&model)
        #expect(code.contains("OperationQueue"))
        #expect(!code.contains("Priority beats") && !code.contains("fast runs first"))
    }

    @Test func keysTypeTheAnswerTabAddsTheSelectedCardAndEnterStartsTheRun() {
        var model = Self.model()
        _ = model.open(at: 0)
        // Letters are the answer's, not the interface's keys (s suspends, c cancels).
        Self.type("fsc", &model)
        #expect(model.prediction?.draft == "fsc")
        for _ in 0..<3 { _ = Self.press(.backspace, &model) }
        _ = Self.press(.down, &model)
        _ = Self.press(.tab, &model)
        _ = Self.press(.up, &model)
        _ = Self.press(.tab, &model)
        #expect(model.prediction?.draft == "fast, slow")
        #expect(Self.press(.enter, &model) == [.startRun])
        #expect(model.prediction?.isRunning == true)
    }

    @Test func anUnreadableAnswerSaysWhyAndStartsNothing() {
        var model = Self.model()
        _ = model.open(at: 0)
        Self.type("fats", &model)
        #expect(Self.press(.enter, &model) == [])
        #expect(Self.screen(&model).contains("no operation named 'fats' (did you mean 'fast'?)"))
    }

    @Test func theRunsEndGradesTheAnswerAndEnterGoesToTheDecidingMoment() throws {
        var model = Self.model()
        _ = model.open(at: 0)
        Self.type("slow fast", &model)
        _ = Self.press(.enter, &model)
        // The keys that change the run wait for the grade.
        _ = Self.press(.character("c"), &model)
        #expect(model.state.visibleMessage(now: 0)?.text.contains("once it is graded") == true)
        model.take(Self.run(), SessionMoment(wall: 1))
        guard case .graded(_, let grade) = model.prediction?.phase else {
            Issue.record("not graded")
            return
        }
        #expect(!grade.isCorrect)
        let screen = Self.screen(&model)
        #expect(screen.contains("Score: 1 of 2"))
        #expect(screen.contains("fast runs first"), "the notes, once the answer is in")
        // Enter: the history just after the event that decided a wrong
        // row (a start, here), that operation selected; Enter again, the
        // next wrong row's: both rows are slow's (out of place on each side).
        var visited: Set<OperationID> = []
        for _ in 0..<2 {
            _ = Self.press(.enter, &model)
            let cursor = try #require(model.state.historyCursor)
            let op = try #require(model.state.selectedOperation)
            guard case .operation(op, .isExecuting, _, .bool(true)) = model.history.events[cursor - 1].kind else {
                Issue.record("the history is not at \(Self.scenario.opName(op))'s start")
                return
            }
            visited.insert(op)
        }
        #expect(visited == [Self.scenario.operationID(named: "slow")!])
        // r: the question again, the answer kept to edit, a fresh run made.
        let again = Self.press(.character("r"), &model)
        #expect(again == [.newRun(speed: 1, paused: true, lesson: false)])
        #expect(model.prediction?.isAnswering == true)
        #expect(model.prediction?.draft == "slow fast")
        #expect(Self.screen(&model).contains("(try 2)"))
    }

    @Test func enterVisitsTheDecidingMomentsInTheRunsOrderEachOnce() throws {
        let scenario = ScenarioReader.read(
            """
            queue q serial suspended
            op a work 100ms priority low
            op b work 100ms
            op c work 100ms priority high
            at 50ms resume q
            quiz "In which order?" answer start-order
            """
        ).scenario!
        var model = SessionModel(
            scenario: scenario, settings: .init(speed: 1, paused: false, lesson: false, asQuestion: true),
            file: RecordingFile(path: "q.ops", source: ""), at: 0)
        _ = model.open(at: 0)
        Self.type("a, b, c", &model)
        _ = Self.press(.enter, &model)
        var s = Script(scenario)
        s.suspended("q", true)
        for name in ["a", "b", "c"] { s.add(name) }
        s.at(0.05)
        s.suspended("q", false)
        for (i, name) in ["c", "b", "a"].enumerated() {
            s.start(name, thread: 1)
            s.at(0.15 + 0.1 * Double(i))
            s.finish(name)
        }
        s.end()
        model.take(s.events, SessionMoment(wall: 1))
        guard case .graded(_, let grade) = model.prediction?.phase else {
            Issue.record("not graded")
            return
        }
        // The table lists a (left out of its place) before b; the run
        // started b before a: Enter follows the run, each moment once.
        let moments = Set(grade.rows.filter { !$0.right }.compactMap(\.moment)).sorted()
        #expect(moments.count >= 2)
        #expect(grade.rows.first { !$0.right }?.moment != moments.first, "the table's order is not the run's here")
        var seen: [Int] = []
        for _ in moments {
            _ = Self.press(.enter, &model)
            let cursor = try #require(model.state.historyCursor)
            seen.append(model.history.events[cursor - 1].seq)
        }
        #expect(seen == moments)
        #expect(model.state.visibleMessage(now: 0)?.text.contains("(\(moments.count) of \(moments.count))") == true)
        _ = Self.press(.enter, &model)
        let cursor = try #require(model.state.historyCursor)
        #expect(model.history.events[cursor - 1].seq == moments[0], "round again after the last")
    }

    @Test func aScenarioWithoutQuizOpensAsUsual() {
        var plain = SessionModel(
            scenario: ScenarioReader.read("op a work 1s").scenario!,
            settings: .init(speed: 1, paused: false, lesson: false, asQuestion: true),
            file: RecordingFile(path: "a.ops", source: ""), at: 0)
        #expect(plain.prediction == nil)
        _ = plain.open(at: 0)
    }

    @Test func onlyTheFirstAnswerOfALibraryQuestionIsKept() {
        var model = Self.model(practice: "05-priority.ops")
        _ = model.open(at: 0)
        Self.type("fast slow", &model)
        _ = Self.press(.enter, &model)
        model.take(Self.run(), SessionMoment(wall: 1))
        #expect(model.owedEffects() == [.keepAnswer(question: "05-priority.ops", right: true)])
        #expect(model.owedEffects() == [], "asked once")
        _ = Self.press(.character("r"), &model)
        _ = Self.press(.enter, &model)
        model.take(Self.run(), SessionMoment(wall: 2))
        #expect(model.owedEffects() == [], "a second try has seen the run")
        // Without a library file to keep it under, nothing is kept.
        var loose = Self.model()
        _ = loose.open(at: 0)
        Self.type("slow", &loose)
        _ = Self.press(.enter, &loose)
        loose.take(Self.run(), SessionMoment(wall: 1))
        #expect(loose.owedEffects() == [])
    }
}
