import Foundation
import Grading
import RunFormats
import ScenarioKit
import Testing

/// No library quiz is passed by an answer that knows nothing of its
/// scenario: every operation finished, every one cancelled, the file's
/// order, its reverse, the names in alphabetical order; for a peak, one
/// at a time or all at once; for the main thread and completion blocks,
/// none or all; for the columns at a moment, all in one column. Nor by an
/// answer read off the file without knowing a rule: the declared cap of
/// each queue (the number of its operations where it has none) for a
/// peak, and the columns it would fill; the operations written on the
/// main queue; every operation with a completion block. (A yes-or-no
/// question is always passed by one of its two answers: no library quiz
/// asks one.) Each quiz file is traced once (a real run, at the fastest
/// speed it promises up to 4) and every such answer graded against that
/// run.
@Suite("no blanket or read-off answer passes a library quiz", .serialized)
struct BlanketAnswerTests {
    static let quizFiles: [String] = {
        let folder = OpscopeBinary.packageRoot.appendingPathComponent("scenarios").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            guard name.hasSuffix(".ops"),
                let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            else { return false }
            return text.split(separator: "\n").contains { $0.hasPrefix("quiz ") }
        }.sorted()
    }()

    @Test("every library file but a few has a quiz")
    func theLibraryHasQuizzes() {
        #expect(Self.quizFiles.count >= 25)
    }

    @Test(arguments: quizFiles)
    func noBlanketOrReadOffAnswerPasses(_ file: String) throws {
        let path = "scenarios/" + file
        let source = try #require(FileManager.default.contents(atPath: OpscopeBinary.packageRoot.path + "/" + path))
        let read = ScenarioReader.read(SourceFile(path: path, bytes: Array(source)))
        let scenario = try #require(read.scenario)
        let quiz = try #require(scenario.quiz)
        #expect(quiz.kind != .together, "\(file): a yes-or-no quiz is passed by one of its two blanket answers")
        let speed = min(4, scenario.promisedUpTo ?? 4)
        let result = try OpscopeBinary.run(
            ["trace", "--format", "jsonl", "--speed", String(speed), path], timeout: 120)
        #expect(result.status == 0, "\(file): \(result.stderr)")
        let recording = try RecordingDecoder.decode(Array(result.stdout.utf8))
        for (name, answer) in QuizAnswer.blind(for: scenario) {
            let grade = QuizGrader.grade(recording.scenario, events: recording.events, answer: answer, speed: speed)
            #expect(!grade.isCorrect, "\(file): the answer '\(name)' passes its \(quiz.kind.rawValue) quiz")
        }
    }
}
