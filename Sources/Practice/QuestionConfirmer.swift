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
    /// Why the runs could not be made here at all (a question on the main
    /// queue, asked where the main thread cannot serve it); nil when they
    /// were made.
    public var unavailable: String?
    public var isConfirmed: Bool { failures.isEmpty && unavailable == nil }
}

/// Runs a generated question on Foundation's real queues, in this process,
/// and holds every run to the answer its construction predicts.
public enum QuestionConfirmer {
    /// Runs `question` `runs` times at its `confirmSpeed` and checks each
    /// run.
    ///
    /// A question that needs no main thread is run `runs` times at once,
    /// each on a thread of its own: running them together shakes their
    /// timing, and an answer that depended on it would tend to show.
    ///
    /// One on the main queue (or with a call the main thread makes) is run
    /// as `trace` and `quiz` run one: on the main thread, which serves the
    /// main queue meanwhile, so its operations really are
    /// `OperationQueue.main`'s on the main thread. The runs come one after
    /// another (they would share that queue). That takes the main thread
    /// free to serve: called on another thread, or from inside a block the
    /// main queue runs (which holds it), the runs are not made and
    /// `unavailable` says why.
    public static func confirm(_ question: GeneratedQuestion, runs: Int = 3, timeout: Double = 30) -> Confirmation {
        if question.needsMainThread {
            guard MainQueueService.isAvailable() else {
                return Confirmation(runs: runs, failures: [], unavailable: MainQueueService.unavailable)
            }
            var failures: [String] = []
            for index in 0..<runs {
                let events = MainQueueService.run(
                    question.scenario, options: RunOptions(speed: question.confirmSpeed), timeout: timeout)
                if let verdict = check(question, events: events) { failures.append("run \(index + 1): \(verdict)") }
            }
            return Confirmation(runs: runs, failures: failures)
        }
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

    /// The first run of `confirm` that did not give the answer, or nil when
    /// all did: what `QuestionGenerator.generate(level:seed:confirm:)`
    /// wants. Throws when the runs cannot be made here, rather than pass
    /// over the question for another (the same level and seed would then
    /// make a different one elsewhere).
    public static func firstFailure(
        _ question: GeneratedQuestion, runs: Int = 3
    ) throws(GenerationError) -> String? {
        let confirmation = confirm(question, runs: runs)
        if let why = confirmation.unavailable {
            throw .cannotConfirmHere(level: question.level, seed: question.seed, why: why)
        }
        return confirmation.failures.first
    }

    /// Why the run of `events` does not give `question`'s answer, or nil
    /// when it does: the same facts, and the grader calls the answer right.
    public static func check(_ question: GeneratedQuestion, events: [LifecycleEvent]) -> String? {
        if let difference = question.prediction.difference(from: events, of: question.scenario) {
            return difference
        }
        guard let answer = question.parsedAnswer else { return "its answer cannot be read" }
        let grade = QuizGrader.grade(question.scenario, events: events, answer: answer, speed: question.confirmSpeed)
        return grade.isCorrect ? nil : "the grader does not accept its answer (\(grade.scoreLine))"
    }
}

/// Runs of a scenario with a main queue, made on the main thread while it
/// serves the main dispatch queue through its run loop (as
/// `MainThread.serve` does for `trace` and `quiz`): `dispatchMain()` would
/// drain the main queue on another thread on Linux.
enum MainQueueService {
    static let unavailable =
        "its operations need the main queue, and the main thread is not free to serve it here (this is not the main "
        + "thread, or it is inside a block the main queue runs)"

    /// The main thread is free to serve the main queue: this is the main
    /// thread, and a block sent to the main queue runs while it serves it
    /// (from inside a main-queue block, its run loop would not run it).
    static func isAvailable() -> Bool {
        guard Thread.isMainThread else { return false }
        let served = Flag()
        DispatchQueue.main.async { served.set() }
        let deadline = Date(timeIntervalSinceNow: 0.1)
        while !served.isSet && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        return served.isSet
    }

    /// One run, to its end or `timeout` real seconds, on the main thread
    /// (`isAvailable()` said it may): the whole stream.
    static func run(_ scenario: Scenario, options: RunOptions, timeout: Double) -> [LifecycleEvent] {
        precondition(Thread.isMainThread, "only the main thread serves the main queue")
        let run = ScenarioRun(scenario: scenario, options: options)
        run.start()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !run.hasEnded && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        let events = run.events
        run.stop()
        return events
    }
}

/// A flag set from another thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
