import Board
import RunEvents
import ScenarioKit
import TextKit

/// The claims an engineer means: a dependency declared through others, two
/// operations kept apart, a completion block before a start, the thread.
extension ExpectationChecker {
    /// From the file's `after` clauses: the path, or what A waits for instead.
    static func dependsOn(_ a: OperationID, _ b: OperationID, _ scenario: Scenario) -> (Bool, String) {
        let (nameA, nameB) = (scenario.opName(a), scenario.opName(b))
        if let path = scenario.dependencyPath(from: a, to: b) {
            guard path.count > 2 else { return (true, "\(nameA) depends on \(nameB) directly") }
            let via = scenario.opNames(Array(path[1..<(path.count - 1)]))
            return (
                true,
                "\(nameA) depends on \(nameB) through \(via) (" + path.map(scenario.opName).joined(separator: " → ")
                    + ")"
            )
        }
        return (
            false,
            "\(nameA) does not depend on \(nameB), directly or through others: \(RuleWords.dependencies(of: a, in: scenario))"
        )
    }

    /// Each pair watched by the facts (`RunFacts.forExpectations`).
    static func neverTogether(_ ids: [OperationID], _ scenario: Scenario, _ history: RunFacts) -> (Bool, String) {
        for (i, a) in ids.enumerated() {
            for b in ids[(i + 1)...] {
                if let moment = history.overlap(of: [a, b])?.moment {
                    return (
                        false,
                        "\(scenario.opName(a)) and \(scenario.opName(b)) were both executing at \(time(moment))"
                            + RuleWords.together(a, b, in: scenario)
                    )
                }
            }
        }
        let names = scenario.opNames(ids)
        return (true, ids.count == 2 ? "\(names) never executed at once" : "no two of \(names) executed at once")
    }

    static func completionBefore(
        _ a: OperationID, _ b: OperationID, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let (nameA, nameB) = (scenario.opName(a), scenario.opName(b))
        guard scenario[operation: a].completion != nil else {
            return (false, "\(nameA) has no completion block (add 'completion' to its line)")
        }
        guard let ran = history[a].completionRan else {
            let finished = history[a].finished == nil ? ": \(nameA) never finished" : ""
            return (false, "\(Spelling.possessive(nameA)) completion block never ran\(finished)")
        }
        guard let started = history[b].started else {
            return (
                false, "\(Spelling.possessive(nameA)) completion block ran at \(time(ran)), and \(nameB) never started"
            )
        }
        if ran.seq < started.seq {
            return (
                true,
                "\(Spelling.possessive(nameA)) completion block ran at \(time(ran)), \(nameB) started at \(time(started))"
            )
        }
        let waits =
            scenario.dependencyPath(from: b, to: a) != nil
            ? ": \(nameB) waits for \(nameA) to finish, not for its completion block" : notWaiting(b, for: a, scenario)
        return (
            false,
            "\(nameB) started at \(time(started)), before \(Spelling.possessive(nameA)) completion block ran at \(time(ran))\(waits)"
        )
    }

    static func onMain(_ op: OperationID, _ on: Bool, _ scenario: Scenario, _ history: RunFacts) -> (Bool, String) {
        let name = scenario.opName(op)
        guard let thread = history[op].thread else { return (false, "\(name) never started") }
        let verb = scenario[operation: op].body.isAsync ? "its start() ran" : "it ran"
        let place = thread.isMain ? "on the main thread" : "on thread \(thread), not the main thread"
        let queue = scenario[queue: scenario[operation: op].queue]
        let why =
            thread.isMain == on
            ? ""
            : scenario.startedByHand.contains(op)
                ? " (it is in no queue: the main thread started it by hand)"
                : queue.isMain ? " (its queue is OperationQueue.main)" : " (\(queue.name) is not the main queue)"
        return (thread.isMain == on, "\(name): \(verb) \(place)\(why)")
    }

    /// The main thread's waits as it announced them (`MainThreadWaitSpan`):
    /// the first that lasted longer than `limit`, or never returned,
    /// fails the claim, named with its `at` line.
    static func mainNeverBlocked(over limit: Duration, _ scenario: Scenario, _ history: RunFacts) -> (Bool, String) {
        let end = history.endTime
        let waits = history.mainThreadWaits
        let within = Spelling.duration(limit)
        guard !waits.isEmpty else { return (true, "the main thread never waited") }
        if let over = waits.first(where: { $0.returned == nil || $0.seconds(until: end) > limit.seconds }) {
            return (false, "the main thread was \(over.text(in: scenario, runEnd: end))")
        }
        let longest = waits.max { $0.seconds(until: end) < $1.seconds(until: end) }!
        return (
            true,
            "the main thread's longest wait was \(Spelling.duration(seconds: longest.seconds(until: end))) from "
                + "\(Spelling.seconds(longest.began)), for \(longest.target(in: scenario)): within \(within)"
        )
    }

    /// `OP finished by T`: its `isFinished`, not cancelled, at T at the
    /// latest (scenario time, the trace's clock). A late finish says when
    /// it became ready (and for which dependency), started and finished.
    static func finishedBy(
        _ op: OperationID, _ deadline: Duration, _ scenario: Scenario, _ history: RunFacts
    ) -> (Bool, String) {
        let name = scenario.opName(op)
        let by = Spelling.duration(deadline)
        let facts = history[op]
        guard let finished = facts.finished else {
            return (false, "\(name) never finished" + stallClause(op, scenario, history))
        }
        if facts.cancelledWhenFinished, let c = facts.cancelled {
            return (
                false,
                "\(name) was cancelled at \(time(c))\(cancelCause(op, scenario, history)) (it finished at "
                    + "\(time(finished)))"
            )
        }
        // Judged to the millisecond, as the trace prints the time.
        guard (finished.time * 1000).rounded() > (deadline.seconds * 1000).rounded() else {
            return (true, "\(name) finished at \(time(finished)), by \(by)")
        }
        var story: [String] = []
        if let ready = facts.ready {
            let waited = lastDependency(of: op, before: ready.seq, scenario, history).map {
                " (when \(scenario.opName($0.0)), its last dependency to finish, finished)"
            }
            story.append("it became ready at \(time(ready))\(waited ?? "")")
        }
        if let started = facts.started {
            story.append("started at \(time(started))")
            story.append("ran \(Spelling.duration(seconds: finished.time - started.time))")
        }
        let tail = story.isEmpty ? "" : ": " + Spelling.list(story)
        return (false, "\(name) finished at \(time(finished)), after \(by)\(tail)")
    }
}
