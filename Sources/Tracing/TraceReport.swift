import Board
import CommandSupport
import Grading
import RunEvents
import ScenarioKit
import TextKit

/// What a trace says after the stream: how the run ended, every wait that
/// blocked the main thread longer than 100 ms, each expectation and the
/// verdict, and the status that verdict gives.
package struct TraceReport {
    package let text: String
    package let status: ExitStatus

    /// With `countsExpectations` false (a speed faster than the file
    /// promises them), a failed expectation is shown but not counted. A
    /// stall is told by root cause (`StallCause`); `verbose` adds every
    /// stuck operation with its own reason.
    package init(
        judge: ExpectationJudge, formatter: EventFormatter, countsExpectations: Bool = true, verbose: Bool = false
    ) {
        let scenario = judge.scenario
        let facts = judge.facts
        let results = judge.results()
        let outcome = facts.outcome
        var lines: [String] = [""]
        let endTime = Spelling.secondsNumber(facts.endTime)
        switch outcome {
        case .completed:
            lines.append("run completed at \(endTime)s")
            let left = scenario.actions.count - facts.timedActionsPerformed
            if left > 0 {
                lines.append(
                    "  \(Spelling.count(left, "timed action")) came after every operation had finished: "
                        + "nothing was left for \(left == 1 ? "it" : "them") to change, and the run did not wait")
            }
        case .stalled(let stuck):
            lines.append("run stalled at \(endTime)s: nothing can progress any more")
            let causes = StallCause.group(stuck, in: scenario, context: facts.stallContext)
            lines += StallCause.reportLines(causes, in: scenario).map { "  " + $0 }
            if let wait = facts.mainThreadWaits.last, wait.returned == nil {
                lines += MainThreadWait.neverReturns(wait.action, since: wait.began, stuck: stuck, in: scenario)
                    .map { "  " + $0 }
            }
            if verbose {
                lines.append("  each stuck operation:")
                for (op, reason) in stuck.sorted(by: { $0.key < $1.key }) {
                    lines.append("    \(scenario[operation: op].name): \(formatter.stuckText(reason, of: op))")
                }
            } else {
                lines.append("  (trace --verbose adds each stuck operation with its own reason)")
            }
        case nil:
            lines.append("run did not end")
        }
        // Every wait of the main thread longer than the threshold, also
        // when every expectation held: observed, never derived.
        lines += MainThreadWaitSpan.reportLines(facts.mainThreadWaits, in: scenario, runEnd: facts.endTime)
        if !results.isEmpty {
            lines.append("expectations:")
            for result in results {
                let mark = result.held ? "✓" : "✗"
                lines.append("  \(mark) expect \(result.expectation.text) — \(result.explanation)")
            }
            let held = results.filter(\.held).count
            lines.append("\(held) of \(results.count) expectation\(results.count == 1 ? "" : "s") held")
            if !countsExpectations, let fastest = scenario.promisedUpTo {
                lines.append(
                    "  (not counted: the file promises them only up to speed \(ScenarioPrinter.speedText(fastest)))")
            }
        }
        text = lines.joined(separator: "\n") + "\n"
        let passes = TraceVerdict.passes(judge, results: results, countsExpectations: countsExpectations)
        status = passes ? .success : .failed
    }
}
