import Board
import CommandSupport
import Dispatch
import Foundation
import Grading
import Interactive
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen
import TextKit

/// Runs the scenario, then grades the answer and returns the status.
@MainActor
enum QuizSession {
    static func run(
        scenario: Scenario, answer: QuizAnswer, speed: Double, trailer: String,
        recordRun: (@Sendable () -> [LifecycleEvent])? = nil, mainThreadLost: @escaping @Sendable (ExitStatus) -> Never
    ) -> ExitStatus {
        // A signal ends it as it ends the wait for the answer.
        let end = CommandEnd(stoppedBy: .process)
        if let recordRun {
            Thread.detachNewThread {
                let events = recordRun()
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard !end.hasEnded else { return }
                        end.end(
                            report(
                                scenario: scenario, answer: answer, events: events, speed: speed, timedOutAfter: nil,
                                trailer: trailer))
                    }
                }
            }
            return MainThread.serve(until: end)
        }
        let standIn = MainThreadStandIn()
        // A run ends by itself (completed or stalled); the limit only
        // guards against a run that never reports its end.
        let run = MainQueueRun.start(
            scenario, speed: speed, timeLimit: timeLimit(scenario, speed: speed), standIn: standIn
        ) { events, limit in
            end.end(
                report(
                    scenario: scenario, answer: answer, events: events, speed: speed, timedOutAfter: limit,
                    trailer: trailer))
        }
        standIn.setDuty(
            MainThreadStandIn.asIfOnMain {
                run.drainNow()
                // Ended while a wait holds the main thread: the run ends in a
                // wait only when nothing can end it, so the thread never
                // comes back to return the status (the grade is written). A
                // signal ends the process from here (there is no grade).
                if let status = end.status {
                    if case .stopped = status { Opscope.endWithoutMainThread(status) }
                    mainThreadLost(status)
                }
            })
        return MainThread.serve(until: end)
    }

    /// Real seconds: the last action's time plus all the work done one
    /// piece after another, at the run's speed, plus 30 s for threads.
    static func timeLimit(_ scenario: Scenario, speed: Double) -> Double {
        let work = scenario.operations.reduce(0) { $0 + $1.body.totalDuration.seconds }
        let actions = scenario.actions.last?.time.seconds ?? 0
        return (work + actions) / speed + 30
    }

    /// Not on the main actor: it runs on the stand-in's thread when the
    /// run ended in a wait that holds the main thread (Swift checks the
    /// isolation of a main-actor closure where it runs).
    nonisolated private static func report(
        scenario: Scenario, answer: QuizAnswer, events: [LifecycleEvent], speed: Double, timedOutAfter limit: Double?,
        trailer: String
    ) -> ExitStatus {
        var out = ""
        let end = Spelling.secondsNumber(events.last?.time ?? 0)
        switch events.last?.kind {
        case .end(.completed):
            out += "The run completed at \(end)s.\n\n"
        case .end(.stalled):
            out += "The run stalled at \(end)s: nothing could progress any more.\n\n"
        default:
            out += "The run did not end within \(Int(limit ?? 0)) s; graded on what happened until \(end)s.\n\n"
        }
        let grade = QuizGrader.grade(scenario, events: events, answer: answer, speed: speed)
        out += grade.text
        if scenario.title != nil || !scenario.notes.isEmpty {
            out += "\nAbout this scenario" + (scenario.title.map { ": " + $0 } ?? "") + "\n"
            out += scenario.notes.map { "  " + $0 + "\n" }.joined()
        }
        QuizOutput.write(out + trailer)
        return grade.isCorrect ? .success : .failed
    }
}
