import Foundation
import Grading
import Practice
import RunFormats
import ScenarioKit
import Testing

/// Every library quiz is graded, whatever its run does (lesson 30's
/// deadlocks the main thread): answered right and wrong through `quiz`,
/// through `practice`, and on the board in tmux, each within a bound, and
/// the practice record is written for every answer.
@Suite("every library quiz grades, right and wrong, everywhere", .serialized)
struct EveryQuizGradesTests {
    struct Asked: Sendable {
        var file: String
        var right: String
        var wrong: String
    }

    /// Each quiz file's right answer (the one a real run at the file's
    /// speed gave: the one-verdict test holds it to every run) and a wrong one (a blind
    /// answer: none passes).
    static let asked: [Asked] = BlanketAnswerTests.quizFiles.compactMap { file in
        let path = "scenarios/" + file
        guard let source = FileManager.default.contents(atPath: OpscopeBinary.packageRoot.path + "/" + path),
            let scenario = ScenarioReader.read(SourceFile(path: path, bytes: Array(source))).scenario,
            // At the file's own speed, as the quiz runs it: a question at a
            // moment (columns at 900ms) keeps its margins only there.
            let trace = try? OpscopeBinary.run(["trace", "--format", "jsonl", path], timeout: 120),
            let recording = try? RecordingDecoder.decode(Array(trace.stdout.utf8)),
            let right = QuizAnswer.observed(for: recording.scenario, events: recording.events),
            let wrong = QuizAnswer.blind(for: scenario).first?.answer
        else { return nil }
        return Asked(file: file, right: right.text(in: scenario), wrong: wrong.text(in: scenario))
    }

    /// The most a question may take, answered and graded, anywhere.
    static let bound = 30.0
    /// Lesson 30's, whose run deadlocks the main thread: graded within 10 s.
    static func bound(for file: String) -> Double { file.hasPrefix("30-") ? 10 : bound }

    @Test("the library's quizzes can all be asked")
    func allAsked() {
        #expect(Self.asked.count == BlanketAnswerTests.quizFiles.count)
    }

    @Test("through quiz: the right answer exits 0, a wrong one 1, each within the bound")
    func throughQuiz() throws {
        for question in Self.asked {
            for (answer, status) in [(question.right, Int32(0)), (question.wrong, 1)] {
                let result = try OpscopeBinary.run(
                    ["quiz", "scenarios/" + question.file, "--answer", answer], timeout: Self.bound(for: question.file))
                #expect(result.status == status, "\(question.file) '\(answer)': \(result.stdout)\(result.stderr)")
                #expect(result.stdout.contains("\nScore: "), "\(question.file): no grade")
            }
        }
    }

    @Test("through practice: every quiz asked in turn, right then (afresh) wrong; each answer kept")
    func throughPractice() throws {
        let count = Self.asked.count
        for right in [true, false] {
            try PracticeCommandTests.withData { data in
                let input = Self.asked.map { (right ? $0.right : $0.wrong) + "\n\n" }.joined()
                let result = try data.run(
                    ["--count", String(count)], input: input, timeout: Self.bound * Double(count))
                #expect(result.status == (right ? 0 : 1), "\(result.stdout)\(result.stderr)")
                let record = data.record
                for question in Self.asked {
                    let entry = record[.library(file: question.file)]
                    #expect(entry?.answers == 1, "\(question.file): not kept")
                    #expect(entry?.streak == (right ? 1 : 0), "\(question.file): kept as \(String(describing: entry))")
                }
            }
        }
    }

    @Test("on the board (practice on a terminal): each quiz wrong, then again right, graded and kept")
    func onTheBoard() throws {
        let data = try PracticeCommandTests.Data()
        defer { data.remove() }
        let tmux = try TmuxSession(
            // At each file's own speed: a question at a moment is graded
            // where its margins are (at x4 they are a quarter as wide).
            ["practice", "--count", String(Self.asked.count)], columns: 80, rows: 24,
            environment: ["XDG_DATA_HOME": data.root.path])
        for question in Self.asked {
            try tmux.waitFor(text: "your answer: _", timeout: Self.bound)
            try tmux.send(question.wrong)
            try tmux.send("Enter")
            let wrong = try tmux.waitFor(text: "graded:", timeout: Self.bound(for: question.file))
            #expect(!wrong.contains("all right"), "\(question.file): '\(question.wrong)' passed")
            try tmux.waitFor(text: "kept (missed)", timeout: Self.bound)
            if question.file.hasPrefix("30-") {
                // Its main thread is lost for good: q goes on in a new opscope.
                try tmux.send("q")
                continue
            }
            try tmux.send("r")
            try tmux.waitFor("\(question.file) asked again", timeout: Self.bound) {
                $0.contains("your answer starts it") && !$0.contains("graded:")
            }
            try tmux.send("C-u")
            try tmux.waitFor(text: "your answer: _", timeout: Self.bound)
            try tmux.send(question.right)
            try tmux.send("Enter")
            try tmux.waitFor("\(question.file) graded all right", timeout: Self.bound) {
                $0.contains("graded:") && $0.contains("all right")
            }
            try tmux.send("q")
        }
        try tmux.waitFor(text: "[exit ", timeout: Self.bound)
        try tmux.waitFor(text: "[terminal restored]")
        let record = data.record
        for question in Self.asked {
            #expect(record[.library(file: question.file)]?.answers == 1, "\(question.file): not kept")
        }
        // Lesson 30, right, on the board of its own.
        let thirty = try #require(Self.asked.first { $0.file.hasPrefix("30-") })
        let quiz = try TmuxSession(
            ["quiz", "scenarios/" + thirty.file, "--speed", "4"], columns: 80, rows: 24,
            environment: ["XDG_DATA_HOME": data.root.path])
        try quiz.waitFor(text: "your answer: _")
        try quiz.send(thirty.right)
        try quiz.send("Enter")
        try quiz.waitFor("30 graded all right", timeout: Self.bound(for: thirty.file)) {
            $0.contains("graded:") && $0.contains("all right")
        }
        try quiz.send("q")
        try quiz.waitFor(text: "[terminal restored]", timeout: Self.bound)
    }
}
