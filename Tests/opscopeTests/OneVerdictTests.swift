import Foundation
import Grading
import RunFormats
import ScenarioKit
import Testing

/// The same answer to the same library question gets the same verdict on
/// every run: each quiz file is traced ten times (real runs, at the speed
/// `quiz` uses, up to what the file promises), and a fixed set of answers
/// is graded against every run: the answer the first run gave, for a
/// start order each of its neighbouring pairs swapped, and the blanket
/// and read-off answers. A race the engine does not order and the grader
/// does not settle would give one of them two scores.
///
/// A `columns` answer is the board at a moment of scenario time, so a run
/// that falls behind (a loaded machine hands over late, and the lateness
/// adds up round after round) moves operations across it. Those files are
/// traced at their own `speed`, the pace their moment was chosen for:
/// there, every library moment is at least 200 ms of real time from the
/// nearest change of its run on a quiet machine (measured 2026-12-05; the
/// language reference asks a file's author for that margin).
@Suite("one answer, one verdict, on every run", .serialized)
struct OneVerdictTests {
    static let runs = 10
    /// Runs of a `columns` file: slower runs, so fewer of them.
    static let columnsRuns = 4

    /// The speed a file's verdicts are held at: `quiz`'s ×4 (or the file's
    /// promise, if lower), a `columns` question at the file's own pace.
    static func speed(of scenario: Scenario) -> Double {
        if scenario.quiz?.kind == .columns { return scenario.speed ?? 1 }
        return min(4, scenario.promisedUpTo ?? 4)
    }

    /// The answers held fixed over the runs of `scenario`, from its first run.
    static func fixedAnswers(_ scenario: Scenario, first: QuizAnswer) -> [(String, QuizAnswer)] {
        var answers = [("the first run's answer", first)]
        if case .startOrder(let order) = first, order.count > 1 {
            for i in 0..<(order.count - 1) {
                var swapped = order
                swapped.swapAt(i, i + 1)
                answers.append(
                    (
                        "\(scenario.opName(order[i])) and \(scenario.opName(order[i + 1])) swapped",
                        .startOrder(swapped)
                    ))
            }
        }
        return answers + QuizAnswer.blind(for: scenario).map { ($0.name, $0.answer) }
    }

    @Test(arguments: BlanketAnswerTests.quizFiles)
    func oneVerdict(_ file: String) throws {
        let path = "scenarios/" + file
        let source = try #require(FileManager.default.contents(atPath: OpscopeBinary.packageRoot.path + "/" + path))
        let scenario = try #require(ScenarioReader.read(SourceFile(path: path, bytes: Array(source))).scenario)
        let speed = Self.speed(of: scenario)
        let runs = scenario.quiz?.kind == .columns ? Self.columnsRuns : Self.runs
        var fixed: [(String, QuizAnswer)] = []
        var verdicts: [String: (score: Int, right: Bool, run: Int)] = [:]
        for run in 1...runs {
            let result = try OpscopeBinary.run(
                ["trace", "--format", "jsonl", "--speed", String(speed), path], timeout: 120)
            #expect(result.status == 0, "\(file) run \(run): \(result.stderr)")
            let recording = try RecordingDecoder.decode(Array(result.stdout.utf8))
            if fixed.isEmpty {
                let first = try #require(QuizAnswer.observed(for: recording.scenario, events: recording.events))
                fixed = Self.fixedAnswers(recording.scenario, first: first)
                #expect(
                    QuizGrader.grade(recording.scenario, events: recording.events, answer: first, speed: speed)
                        .isCorrect,
                    "\(file): the run's own answer is not graded right")
            }
            for (name, answer) in fixed {
                let grade = QuizGrader.grade(
                    recording.scenario, events: recording.events, answer: answer, speed: speed)
                guard let seen = verdicts[name] else {
                    verdicts[name] = (grade.score, grade.isCorrect, run)
                    continue
                }
                #expect(
                    seen.score == grade.score && seen.right == grade.isCorrect,
                    "\(file): '\(name)' scored \(seen.score) in run \(seen.run) and \(grade.score) in run \(run): \(grade.text)"
                )
            }
        }
    }
}
