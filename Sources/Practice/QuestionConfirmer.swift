import Dispatch
import Foundation
import Grading
import LifecycleEngine
import RunEvents
import ScenarioKit
import Synchronization

/// What the confirming runs of a generated question gave.
public struct Confirmation: Sendable {
    public var runs: Int
    /// One line per run that did not give the predicted answer.
    public var failures: [String]
    public var isConfirmed: Bool { failures.isEmpty }
}

/// Runs a generated question on Foundation's real queues, in this process,
/// and holds every run to the answer its construction predicts.
public enum QuestionConfirmer {
    /// Runs `question` `runs` times at once (each on a thread of its own,
    /// at the question's `confirmSpeed`) and checks each run. Running them
    /// together shakes their timing: an answer that depended on it would
    /// tend to show. Never for a scenario with a `main` queue (the
    /// generator makes none).
    public static func confirm(_ question: GeneratedQuestion, runs: Int = 3, timeout: Double = 30) -> Confirmation {
        let verdicts = Mutex<[String?]>(Array(repeating: nil, count: runs))
        let group = DispatchGroup()
        for index in 0..<runs {
            group.enter()
            let thread = Thread {
                let options = RunOptions(speed: question.confirmSpeed)
                let events = ScenarioRun.run(question.scenario, options: options, timeout: timeout)
                let verdict = check(question, events: events)
                verdicts.withLock { $0[index] = verdict }
                group.leave()
            }
            thread.name = "opscope confirm \(index + 1)"
            thread.start()
        }
        group.wait()
        let failures = verdicts.withLock { $0 }.enumerated().compactMap { index, verdict in
            verdict.map { "run \(index + 1): \($0)" }
        }
        return Confirmation(runs: runs, failures: failures)
    }

    /// Why the run of `events` does not give `question`'s answer, or nil
    /// when it does: the same facts, and the grader calls the answer right.
    public static func check(_ question: GeneratedQuestion, events: [LifecycleEvent]) -> String? {
        if let difference = question.prediction.difference(from: events, of: question.scenario) {
            return difference
        }
        guard let answer = question.parsedAnswer else { return "its answer cannot be read" }
        let grade = QuizGrader.grade(question.scenario, events: events, answer: answer)
        return grade.isCorrect ? nil : "the grader does not accept its answer (\(grade.scoreLine))"
    }
}
