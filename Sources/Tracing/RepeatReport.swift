import Board
import CommandSupport
import RunEvents
import ScenarioKit
import TextKit

/// What `trace --repeat` writes once its runs are over: the summary as
/// text (`text`) or as JSON Lines (`jsonLines`, RepeatReport+JSON.swift),
/// and the status it ends with.
package struct RepeatReport: Sendable {
    /// Start orders listed, at most (most runs first).
    package static let shownOrders = 10
    /// Varying facts listed in the text, at most (jsonl lists them all).
    package static let shownFacts = 20
    /// Run numbers given in the text for one list (jsonl gives
    /// `RunNumbers.kept`).
    static let shownRunNumbers = 5
    /// Operations written for one start order in the text.
    static let shownNames = 12
    /// Reasons given for the first stall in the text (jsonl: the first
    /// `shownStuck` operations).
    static let shownStallGroups = 5
    static let shownStuck = 10

    package var path: String
    package var speed: Double
    /// The runs asked for (`--repeat N`).
    package var planned: Int
    /// The signal that stopped the runs before the last, if one did:
    /// its name (`SIGINT`) and the status it ends the trace with.
    package var stopped: (signal: String, status: ExitStatus)?

    package init(path: String, speed: Double, planned: Int) {
        self.path = path
        self.speed = speed
        self.planned = planned
    }

    /// 0 when every run passed, 1 when one did not; 128 + the signal's
    /// number when a signal stopped the runs.
    package func status(_ summary: RepeatSummary) -> ExitStatus {
        if let stopped { return stopped.status }
        return summary.runs > 0 && summary.allPassed ? .success : .failed
    }

    // MARK: - Text

    package func text(_ summary: RepeatSummary) -> String {
        let scenario = summary.scenario
        var lines = [
            "\(Spelling.count(summary.runs, "run")) of \(TerminalText.escaped(path)) at speed \(ScenarioPrinter.speedText(speed)): "
                + outcomes(summary)
        ]
        if summary.runs == 0, let stopped {
            lines.append("stopped by \(stopped.signal) before the first of \(Spelling.count(planned, "run")) ended")
            return lines.joined(separator: "\n") + "\n"
        }
        if let stall = summary.firstStall {
            let groups = EventFormatter(scenario: scenario).stuckGroups(stall.stuck, waiting: false)
            lines.append("  the first stall, in run \(stall.run) at \(Spelling.seconds(stall.time)):")
            for group in groups.prefix(Self.shownStallGroups) { lines.append("    \(group.names): \(group.reason)") }
            if groups.count > Self.shownStallGroups {
                lines.append("    … and \(Spelling.count(groups.count - Self.shownStallGroups, "more reason"))")
            }
        }
        if !summary.expectations.isEmpty {
            lines.append("expectations:")
            for tally in summary.expectations {
                let mark = tally.failed.count == 0 ? "✓" : "✗"
                var line = "  \(mark) expect \(tally.expectation.text) — held \(tally.held) of \(summary.runs)"
                if let why = tally.firstFailure {
                    line += "; failed in \(runList(tally.failed)) (in run \(tally.failed.first[0]): \(why))"
                }
                lines.append(line)
            }
            if !summary.countsExpectations, let fastest = scenario.promisedUpTo {
                lines.append(
                    "  (not counted: the file promises them only up to speed \(ScenarioPrinter.speedText(fastest)))")
            }
        }
        lines += orderLines(summary)
        lines += factLines(summary)
        let heldAlways = summary.expectations.filter { $0.failed.count == 0 }.count
        var verdict = "\(summary.runs - summary.failedRuns.count) of \(Spelling.count(summary.runs, "run")) passed"
        if !summary.expectations.isEmpty {
            verdict +=
                "; \(heldAlways) of \(Spelling.count(summary.expectations.count, "expectation")) held in every run"
        }
        lines.append(verdict)
        if let stopped {
            lines.append(
                "stopped by \(stopped.signal) after \(summary.runs) of \(Spelling.count(planned, "run")): the summary is "
                    + "of \(summary.runs == 1 ? "that one" : "those \(summary.runs)")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `18 completed; 2 stalled (runs 4 and 11), 1 of them on an operation
    /// no 'expect stuck' names`.
    private func outcomes(_ summary: RepeatSummary) -> String {
        var parts: [String] = []
        if summary.completed > 0 { parts.append("\(summary.completed) completed") }
        let stalled = summary.stalledRuns.count
        if stalled > 0 {
            var part = "\(stalled) stalled (\(runList(summary.stalledRuns)))"
            let unexpected = summary.unexpectedStalls
            if unexpected > 0 {
                let which = unexpected < stalled ? "\(unexpected) of them " : stalled == 1 ? "" : "each "
                part += ", \(which)on an operation no 'expect stuck' names"
            }
            parts.append(part)
        }
        if summary.unendedRuns.count > 0 {
            parts.append("\(summary.unendedRuns.count) did not end (\(runList(summary.unendedRuns)))")
        }
        return parts.isEmpty ? "no run ended" : parts.joined(separator: "; ")
    }

    /// `run 4`, `runs 4 and 11`, `runs 3, 9, 14, 15, 20, …`.
    func runList(_ numbers: RunNumbers) -> String {
        let shown = numbers.first.prefix(Self.shownRunNumbers).map(String.init)
        let noun = numbers.count == 1 ? "run" : "runs"
        if numbers.count > shown.count { return "\(noun) " + shown.joined(separator: ", ") + ", …" }
        return "\(noun) " + Spelling.list(shown)
    }

    private func orderLines(_ summary: RepeatSummary) -> [String] {
        let scenario = summary.scenario
        let sorted = summary.ordersByRuns
        let shown = sorted.prefix(Self.shownOrders)
        guard let reference = shown.first else { return [] }
        var lines = [
            summary.distinctOrders == 1
                ? "start order: the same in every run"
                : "start orders: \(summary.distinctOrders) distinct"
        ]
        let width = shown.map { Spelling.count($0.runs, "run").count }.max() ?? 0
        for order in shown {
            let runs = Spelling.count(order.runs, "run")
            let pad = String(repeating: " ", count: width - runs.count)
            var line = "  \(pad)\(runs)  " + names(order.operations, reference: reference.operations, scenario)
            if summary.distinctOrders > 1 { line += "  (first in run \(order.firstRun))" }
            lines.append(line)
        }
        let moreOrders = summary.distinctOrders - shown.count
        if moreOrders > 0 {
            let moreRuns = sorted.dropFirst(shown.count).reduce(0) { $0 + $1.runs } + summary.runsOfOrdersNotKept
            lines.append("  … and \(Spelling.count(moreOrders, "more order")) in \(Spelling.count(moreRuns, "run"))")
        }
        return lines
    }

    /// The operations of an order, at most `shownNames` of them; an order
    /// other than the reference begins where it leaves the reference.
    private func names(_ order: [OperationID], reference: [OperationID], _ scenario: Scenario) -> String {
        guard !order.isEmpty else { return "(none started)" }
        var start = 0
        if order != reference, order.count > Self.shownNames {
            start = zip(order, reference).prefix { $0 == $1 }.count
        }
        let end = min(order.count, start + Self.shownNames)
        var text = start == 1 ? "(the first as above) " : start > 1 ? "(the first \(start) as above) " : ""
        text += order[start..<end].map(scenario.opName).joined(separator: ", ")
        if end < order.count { text += ", … (\(order.count - end) more)" }
        return text
    }

    private func factLines(_ summary: RepeatSummary) -> [String] {
        let facts = summary.varyingFacts
        let byOperation = Dictionary(
            facts.compactMap { fact -> (OperationID, VaryingFact)? in
                guard case .operation(let op) = fact.subject, fact.kind == .finalState else { return nil }
                return (op, fact)
            }, uniquingKeysWith: { first, _ in first })
        // Whether it started says nothing more when it finished, was
        // cancelled or was skipped in every run: only a stuck one may have.
        let told = facts.filter { fact in
            guard case .operation(let op) = fact.subject, fact.kind == .started, let ending = byOperation[op] else {
                return true
            }
            return ending.tallies.contains { $0.value == .state(.stuck) }
        }
        guard !told.isEmpty else {
            return summary.runs > 1
                ? [
                    "no other fact varied across runs (how each operation ended, whether it started, each queue's "
                        + "peak, the number of threads)"
                ] : []
        }
        var lines = ["varied across runs:"]
        for fact in told.prefix(Self.shownFacts) { lines.append("  " + text(fact, summary.scenario)) }
        if told.count > Self.shownFacts {
            lines.append("  … and \(told.count - Self.shownFacts) more (--format jsonl lists them all)")
        }
        return lines
    }

    /// `a: finished in 18 runs, cancelled in 2`.
    func text(_ fact: VaryingFact, _ scenario: Scenario) -> String {
        let subject: String
        switch fact.subject {
        case .operation(let op): subject = scenario.opName(op)
        case .queue(let q): subject = "peak of \(scenario.queueName(q))"
        case .run: subject = "threads that ran operations"
        }
        if fact.kind == .started {
            let started = fact.tallies.first { $0.value == .flag(true) }?.runs ?? 0
            let runs = fact.tallies.reduce(0) { $0 + $1.runs }
            return "\(subject): started in \(started) of \(Spelling.count(runs, "run"))"
        }
        let values = fact.tallies.enumerated().map { i, tally in
            let value: String
            switch tally.value {
            case .state(let state): value = state.rawValue
            case .flag(let flag): value = flag ? "started" : "never started"
            case .count(let n): value = String(n)
            }
            return i == 0 ? "\(value) in \(Spelling.count(tally.runs, "run"))" : "\(value) in \(tally.runs)"
        }
        return "\(subject): " + values.joined(separator: ", ")
    }
}
