import Board
import RunEvents
import ScenarioKit
import TextKit

/// `trace --repeat N --format jsonl`: the summary as JSON Lines for
/// scripts (docs/SCENARIO-LANGUAGE.md, "Many runs"): one object per
/// expectation, one per start order listed, one per varying fact, then
/// the summary. Keys in a fixed order; every list whole except run
/// numbers (the first `RunNumbers.kept`) and start orders (the first
/// `shownOrders` by runs).
extension RepeatReport {
    package func jsonLines(_ summary: RepeatSummary) -> [UInt8] {
        let scenario = summary.scenario
        var out: [UInt8] = []
        for tally in summary.expectations {
            out.appendLiteral(#"{"kind":"expectation","expect":"#)
            JSONBytes.appendQuoted(tally.expectation.text, to: &out)
            out.append(contentsOf: Array(#","line":\#(tally.expectation.location.line),"runs":\#(summary.runs)"#.utf8))
            out.append(contentsOf: Array(#","held":\#(tally.held),"failed":\#(tally.failed.count)"#.utf8))
            out.append(contentsOf: Array(#","counted":\#(summary.countsExpectations),"failedRuns":"#.utf8))
            Self.appendNumbers(tally.failed.first, to: &out)
            out.appendLiteral(#","firstFailure":"#)
            if let why = tally.firstFailure {
                JSONBytes.appendQuoted(why, to: &out)
            } else {
                out.appendLiteral("null")
            }
            out.appendLiteral("}\n")
        }
        let orders = summary.ordersByRuns.prefix(Self.shownOrders)
        for order in orders {
            out.append(contentsOf: Array(#"{"kind":"order","runs":\#(order.runs),"firstRun":\#(order.firstRun)"#.utf8))
            out.appendLiteral(#","order":["#)
            for (i, op) in order.operations.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.appendQuoted(scenario.opName(op), to: &out)
            }
            out.appendLiteral("]}\n")
        }
        for fact in summary.varyingFacts {
            out.appendLiteral(#"{"kind":"fact""#)
            switch fact.subject {
            case .operation(let op):
                out.appendLiteral(#","operation":"#)
                JSONBytes.appendQuoted(scenario.opName(op), to: &out)
            case .queue(let q):
                out.appendLiteral(#","queue":"#)
                JSONBytes.appendQuoted(scenario.queueName(q), to: &out)
            case .run:
                break
            }
            out.append(contentsOf: Array(#","fact":"\#(fact.kind.rawValue)","values":["#.utf8))
            for (i, tally) in fact.tallies.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                let value: String
                switch tally.value {
                case .state(let state): value = "\"\(state.rawValue)\""
                case .flag(let flag): value = String(flag)
                case .count(let n): value = String(n)
                }
                out.append(contentsOf: Array(#"{"value":\#(value),"runs":\#(tally.runs)}"#.utf8))
            }
            out.appendLiteral("]}\n")
        }
        appendSummary(summary, listed: orders.count, to: &out)
        return out
    }

    private func appendSummary(_ summary: RepeatSummary, listed: Int, to out: inout [UInt8]) {
        out.appendLiteral(#"{"kind":"summary","path":"#)
        JSONBytes.appendQuoted(path, to: &out)
        let speed = ScenarioPrinter.speedText(speed)
        out.append(contentsOf: Array(#","speed":\#(speed),"planned":\#(planned),"runs":\#(summary.runs)"#.utf8))
        let passed = summary.runs - summary.failedRuns.count
        out.append(contentsOf: Array(#","passed":\#(passed),"failed":\#(summary.failedRuns.count),"failedRuns":"#.utf8))
        Self.appendNumbers(summary.failedRuns.first, to: &out)
        out.append(
            contentsOf: Array(#","completed":\#(summary.completed),"stalled":\#(summary.stalledRuns.count)"#.utf8))
        out.appendLiteral(#","stalledRuns":"#)
        Self.appendNumbers(summary.stalledRuns.first, to: &out)
        out.append(
            contentsOf: Array(
                #","unexpectedStalls":\#(summary.unexpectedStalls),"didNotEnd":\#(summary.unendedRuns.count)"#.utf8))
        out.appendLiteral(#","didNotEndRuns":"#)
        Self.appendNumbers(summary.unendedRuns.first, to: &out)
        out.appendLiteral(#","firstStall":"#)
        appendFirstStall(summary, to: &out)
        let heldAlways = summary.expectations.filter { $0.failed.count == 0 }.count
        out.append(
            contentsOf: Array(
                #","expectations":\#(summary.expectations.count),"heldEveryRun":\#(heldAlways)"#.utf8))
        out.append(contentsOf: Array(#","expectationsCounted":\#(summary.countsExpectations)"#.utf8))
        out.append(
            contentsOf: Array(
                #","orders":\#(summary.distinctOrders),"ordersListed":\#(listed),"stoppedBy":"#.utf8))
        if let stopped {
            JSONBytes.appendQuoted(stopped.signal, to: &out)
        } else {
            out.appendLiteral("null")
        }
        out.append(contentsOf: Array(#","status":\#(status(summary).code)}"#.utf8) + [UInt8(ascii: "\n")])
    }

    /// `{"run":1,"at":0.301,"stuck":[{"operation":"a","reason":"…"}],"moreStuck":0}`, or null.
    private func appendFirstStall(_ summary: RepeatSummary, to out: inout [UInt8]) {
        guard let stall = summary.firstStall else { return out.appendLiteral("null") }
        let formatter = EventFormatter(scenario: summary.scenario)
        let at = Spelling.secondsNumber(stall.time)
        out.append(contentsOf: Array(#"{"run":\#(stall.run),"at":\#(at),"stuck":["#.utf8))
        let ops = stall.stuck.keys.sorted()
        for (i, op) in ops.prefix(Self.shownStuck).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.appendLiteral(#"{"operation":"#)
            JSONBytes.appendQuoted(summary.scenario.opName(op), to: &out)
            out.appendLiteral(#","reason":"#)
            JSONBytes.appendQuoted(formatter.stuckText(stall.stuck[op]!, of: op), to: &out)
            out.appendLiteral("}")
        }
        out.append(contentsOf: Array(#"],"moreStuck":\#(max(0, ops.count - Self.shownStuck))}"#.utf8))
    }

    private static func appendNumbers(_ numbers: [Int], to out: inout [UInt8]) {
        out.append(contentsOf: Array(("[" + numbers.map(String.init).joined(separator: ",") + "]").utf8))
    }
}
