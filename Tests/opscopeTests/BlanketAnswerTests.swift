import Board
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

    /// The answers that need no thought, for `scenario`'s kind of quiz, and
    /// those read off the file.
    static func blanketAnswers(_ scenario: Scenario, kind: QuizKind) -> [(String, QuizAnswer)] {
        let ops = scenario.operations.indices.map(OperationID.init).filter { !scenario[operation: $0].isBarrier }
        let byName = ops.sorted { scenario[operation: $0].name < scenario[operation: $1].name }
        let onMain = Set(ops.filter { scenario[queue: scenario[operation: $0].queue].isMain })
        let withBlocks = Set(ops.filter { scenario[operation: $0].completion != nil })
        // The most of each queue's operations its declared cap lets run.
        let declared = { (q: QueueID) -> Int in
            let count = ops.filter { scenario[operation: $0].queue == q }.count
            if scenario[queue: q].isMain { return min(1, count) }
            guard case .limit(let n) = scenario[queue: q].cap else { return count }
            return min(n, count)
        }
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
            return [
                ("one at a time", .peak(queues.map { ($0, 1) })), ("all at once", .peak(all)),
                ("the declared caps", .peak(queues.map { ($0, declared($0)) })),
            ]
        case .mainThread:
            return [
                ("none", .mainThread([])), ("all", .mainThread(Set(ops))),
                ("the main queue's operations", .mainThread(onMain)),
            ]
        case .completions:
            let asked = scenario.quiz.map { QuizAnswerParser.askedCompletions($0, scenario) } ?? []
            return [
                ("none", .completions([])), ("all", .completions(Set(asked))),
                ("every operation with a completion block", .completions(withBlocks.intersection(asked))),
            ]
        case .columns:
            let running = QuizAnswerParser.askedQueues(scenario).map(declared).reduce(0, +)
            return Phase.columns.map { ("all \($0.rawValue)", .columns([$0: ops.count])) } + [
                (
                    "the declared caps executing, the rest ready",
                    .columns([.executing: running, .ready: ops.count - running])
                )
            ]
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
        for (name, answer) in Self.blanketAnswers(scenario, kind: quiz.kind) {
            let grade = QuizGrader.grade(recording.scenario, events: recording.events, answer: answer)
            #expect(!grade.isCorrect, "\(file): the answer '\(name)' passes its \(quiz.kind.rawValue) quiz")
        }
    }
}
