import Foundation
import Grading
import RunFormats
import ScenarioKit
import Testing

/// No library quiz is passed by an answer that knows nothing of its
/// scenario: every operation finished, every one cancelled, the file's
/// order, its reverse, the names in alphabetical order; for a peak, one
/// at a time or all at once; for the main thread and completion blocks,
/// none or all. (A yes-or-no question is always passed by one of its two
/// answers: no library quiz asks one.) Each quiz
/// file is traced once (a real run, at the fastest speed it promises up
/// to 4) and every blanket answer graded against that run.
@Suite("no blanket answer passes a library quiz", .serialized)
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

    /// The answers that need no thought, for `scenario`'s kind of quiz.
    static func blanketAnswers(_ scenario: Scenario, kind: QuizKind) -> [(String, QuizAnswer)] {
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        let byName = ops.sorted { scenario[operation: $0].name < scenario[operation: $1].name }
        switch kind {
        case .startOrder:
            return [
                ("the file's order", .startOrder(ops)), ("its reverse", .startOrder(ops.reversed())),
                ("alphabetical", .startOrder(byName)),
            ]
        case .finalState:
            return [
                ("all finished", .finalState(ops.map { ($0, .finished) })),
                ("all cancelled", .finalState(ops.map { ($0, .cancelled) })),
            ]
        case .counts:
            return [
                ("all finished", .counts([.finished: ops.count])), ("all cancelled", .counts([.cancelled: ops.count])),
            ]
        case .peak:
            let queues = QuizAnswerParser.askedQueues(scenario)
            let all = queues.map { q in (q, ops.filter { scenario[operation: $0].queue == q }.count) }
            return [("one at a time", .peak(queues.map { ($0, 1) })), ("all at once", .peak(all))]
        case .mainThread:
            return [("none", .mainThread([])), ("all", .mainThread(Set(ops)))]
        case .completions:
            let asked = scenario.quiz.map { QuizAnswerParser.askedCompletions($0, scenario) } ?? []
            return [("none", .completions([])), ("all", .completions(Set(asked)))]
        case .together:
            // Either yes or no is right: the test refuses the kind itself.
            return []
        }
    }

    @Test("every library file but a few has a quiz")
    func theLibraryHasQuizzes() {
        #expect(Self.quizFiles.count >= 25)
    }

    @Test(arguments: quizFiles)
    func noBlanketAnswerPasses(_ file: String) throws {
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
        for (name, answer) in Self.blanketAnswers(scenario, kind: quiz.kind) {
            let grade = QuizGrader.grade(recording.scenario, events: recording.events, answer: answer)
            #expect(!grade.isCorrect, "\(file): the blanket answer '\(name)' passes its \(quiz.kind.rawValue) quiz")
        }
    }
}
