import Board
import CommandSupport
import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Testing
import Tracing

/// `trace --repeat`'s summary folded from hand-made runs: the counts, the
/// start orders, the facts that varied, the stalls, and the report in
/// text and JSON Lines, without the engine.
@Suite struct RepeatSummaryTests {
    static let race = scenario(
        """
        queue q max 2
        op a work 10ms
        op b work 10ms
        expect order a, b
        expect finished b

        """)

    static func scenario(_ text: String) -> Scenario {
        ScenarioReader.read(text, path: "race.ops").scenario!
    }

    /// A completed run of `race`: the operations start in `order` (on
    /// threads 1, 2, … when `together`, else one after the other on
    /// thread 1); `skipped` are cancelled before they start.
    static func run(
        _ order: [String], together: Bool = true, skipped: [String] = [], scenario: Scenario = race,
        end: RunOutcome = .completed
    ) -> RepeatRunReader {
        var s = Script(scenario)
        for op in scenario.operations { s.add(op.name) }
        for name in skipped { s.skip(name) }
        for (i, name) in order.enumerated() {
            s.at(Double(i) * 0.01)
            s.start(name, thread: together ? i + 1 : 1)
            if !together { s.finish(name) }
        }
        if together { for name in order { s.finish(name) } }
        s.end(end)
        var reader = RepeatRunReader(scenario: scenario)
        reader.read(s.events)
        return reader
    }

    static func fold(_ runs: [RepeatRunReader], scenario: Scenario = race, counts: Bool = true) -> RepeatSummary {
        var summary = RepeatSummary(scenario: scenario, countsExpectations: counts)
        for run in runs { summary.add(run) }
        return summary
    }

    static let report = RepeatReport(path: "race.ops", speed: 1, planned: 5)

    @Test func identicalRunsHoldEveryTimeWithOneStartOrder() {
        let summary = Self.fold(Array(repeating: Self.run(["a", "b"]), count: 4))
        #expect(summary.runs == 4)
        #expect(summary.allPassed)
        #expect(summary.expectations.map(\.held) == [4, 4])
        #expect(summary.orders == [StartOrder(operations: [OperationID(0), OperationID(1)], runs: 4, firstRun: 1)])
        #expect(summary.varyingFacts.isEmpty)
        let text = Self.report.text(summary)
        #expect(text.hasPrefix("4 runs of race.ops at speed 1: 4 completed\nexpectations:\n"))
        #expect(text.contains("  ✓ expect order a, b — held 4 of 4\n"))
        #expect(text.contains("start order: the same in every run\n  4 runs  a, b\n"))
        #expect(text.contains("no other fact varied across runs"))
        #expect(text.hasSuffix("4 of 4 runs passed; 2 of 2 expectations held in every run\n"))
        #expect(Self.report.status(summary) == .success)
    }

    @Test func aSometimesFailingExpectationIsCountedAndFailsTheRepeat() {
        let runs = [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"], ["a", "b"]].map { Self.run($0) }
        let summary = Self.fold(runs)
        let order = summary.expectations[0]
        #expect(order.held == 3)
        #expect(order.failed.count == 2)
        #expect(order.held + order.failed.count == summary.runs)
        #expect(order.failed.first == [2, 4])
        #expect(order.firstFailure?.hasPrefix("started in another order: b at") == true)
        #expect(summary.expectations[1].held == 5)
        #expect(summary.failedRuns.first == [2, 4])
        #expect(!summary.allPassed)
        #expect(summary.ordersByRuns.map(\.runs) == [3, 2])
        #expect(summary.ordersByRuns.map(\.firstRun) == [1, 2])
        let text = Self.report.text(summary)
        #expect(text.contains("  ✗ expect order a, b — held 3 of 5; failed in runs 2 and 4 (in run 2: started in "))
        #expect(
            text.contains(
                "start orders: 2 distinct\n  3 runs  a, b  (first in run 1)\n  2 runs  b, a  (first in run 2)\n"))
        #expect(text.hasSuffix("3 of 5 runs passed; 1 of 2 expectations held in every run\n"))
        #expect(Self.report.status(summary) == .failed)
    }

    @Test func factsThatVariedAreListedWithTheRunsOfEachValue() {
        // b is skipped in one run; the runs one after another have a peak
        // of 1 and one thread.
        let runs = [
            Self.run(["a", "b"]), Self.run(["a"], skipped: ["b"]), Self.run(["a", "b"], together: false),
        ]
        let facts = Self.fold(runs).varyingFacts
        let b = OperationID(1)
        #expect(
            facts.first { $0.subject == .operation(b) && $0.kind == .finalState }?.tallies == [
                .init(value: .state(.finished), runs: 2), .init(value: .state(.skipped), runs: 1),
            ])
        #expect(
            facts.first { $0.subject == .operation(b) && $0.kind == .started }?.tallies == [
                .init(value: .flag(true), runs: 2), .init(value: .flag(false), runs: 1),
            ])
        #expect(
            facts.first { $0.subject == .queue(QueueID(0)) }?.tallies == [
                .init(value: .count(1), runs: 2), .init(value: .count(2), runs: 1),
            ])
        #expect(facts.first { $0.subject == .run }?.kind == .threads)
        let text = Self.report.text(Self.fold(runs))
        #expect(text.contains("varied across runs:\n  b: finished in 2 runs, skipped in 1\n"))
        // That b started follows from how it ended: not said again.
        #expect(!text.contains("b: started in"))
        #expect(text.contains("  peak of q: 1 in 2 runs, 2 in 1\n"))
        #expect(text.contains("  threads that ran operations: "))
    }

    @Test func stallsAreCountedPerRunAndJudgedAsASingleTraceJudgesThem() {
        let stuck = Self.scenario(
            """
            queue q suspended
            op a work 10ms
            expect stuck a

            """)
        let stall = RunOutcome.stalled([OperationID(0): .queueSuspended(QueueID(0))])
        let expected = Self.fold([Self.run([], scenario: stuck, end: stall)], scenario: stuck)
        #expect(expected.stalledRuns.count == 1 && expected.unexpectedStalls == 0)
        #expect(expected.allPassed, "the file expects a to be stuck")
        let text = Self.report.text(expected)
        #expect(text.hasPrefix("1 run of race.ops at speed 1: 1 stalled (run 1)\n  the first stall, in run 1 at "))
        #expect(text.contains("    a: its queue q is suspended and nothing resumes it\n"))

        let bare = Self.scenario("queue q suspended\nop a work 10ms\n")
        let unexpected = Self.fold(
            [Self.run([], scenario: bare, end: stall), Self.run([], scenario: bare, end: stall)], scenario: bare)
        #expect(unexpected.unexpectedStalls == 2)
        #expect(!unexpected.allPassed)
        #expect(
            Self.report.text(unexpected).hasPrefix(
                "2 runs of race.ops at speed 1: 2 stalled (runs 1 and 2), each on an operation no 'expect stuck' names"
            ))
    }

    @Test func aRunThatDidNotEndFailsIt() {
        var s = Script(Self.race)
        s.add("a")
        s.start("a", thread: 1)
        var reader = RepeatRunReader(scenario: Self.race)
        reader.read(s.events)
        let summary = Self.fold([Self.run(["a", "b"]), reader])
        #expect(summary.unendedRuns.first == [2])
        #expect(summary.failedRuns.first == [2])
        #expect(
            Self.report.text(summary).hasPrefix("2 runs of race.ops at speed 1: 1 completed; 1 did not end (run 2)\n"))
    }

    @Test func expectationsNotCountedAreReportedButDoNotFail() {
        let summary = Self.fold([Self.run(["b", "a"])], counts: false)
        #expect(summary.expectations[0].failed.count == 1)
        #expect(summary.allPassed)
        #expect(Self.report.text(summary).contains("(not counted: the file promises them only up to speed") == false)
        let promised = Self.scenario(
            "speed 1 up to 2\nqueue q max 2\nop a work 10ms\nop b work 10ms\nexpect order a, b\n")
        var folded = RepeatSummary(scenario: promised, countsExpectations: false)
        folded.add(Self.run(["b", "a"], scenario: promised))
        #expect(folded.allPassed)
        #expect(Self.report.text(folded).contains("  (not counted: the file promises them only up to speed 2)\n"))
    }

    @Test func aSignalEndsWithItsStatusAndSaysWhatTheSummaryIsOf() {
        var report = Self.report
        report.stopped = ("SIGINT", .stopped(signal: 2))
        let none = RepeatSummary(scenario: Self.race)
        #expect(
            report.text(none)
                == "0 runs of race.ops at speed 1: no run ended\nstopped by SIGINT before the first of 5 runs ended\n")
        let two = Self.fold([Self.run(["a", "b"]), Self.run(["a", "b"])])
        #expect(report.text(two).hasSuffix("\nstopped by SIGINT after 2 of 5 runs: the summary is of those 2\n"))
        #expect(report.status(two) == .stopped(signal: 2))
        let json = String(decoding: report.jsonLines(two), as: UTF8.self)
        #expect(json.hasSuffix(#""stoppedBy":"SIGINT","status":130}"# + "\n"))
    }

    @Test func ordersPastTheBudgetAreCountedButNotKept() {
        var summary = RepeatSummary(scenario: Self.race, keptOrderOperations: 2)
        for order in [["a", "b"], ["b", "a"], ["b", "a"], ["a"]] { summary.add(Self.run(order)) }
        #expect(summary.orders.count == 1)
        #expect(summary.distinctOrders == 3)
        #expect(summary.ordersNotKept == 2)
        #expect(summary.runsOfOrdersNotKept == 3)
        #expect(Self.report.text(summary).contains("  … and 2 more orders in 3 runs\n"))
    }

    @Test func aLongOrderIsShownFromWhereItLeavesTheCommonOne() {
        let names = (0..<20).map { "o\($0)" }
        let long = Self.scenario(
            "queue q max 20\n" + names.map { "op \($0) work 10ms\n" }.joined() + "expect finished o0\n")
        var swapped = names
        swapped.swapAt(14, 15)
        let summary = Self.fold(
            [Self.run(names, scenario: long), Self.run(names, scenario: long), Self.run(swapped, scenario: long)],
            scenario: long)
        let text = Self.report.text(summary)
        #expect(
            text.contains("  2 runs  o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, … (8 more)  (first in run 1)\n"))
        #expect(text.contains("   1 run  (the first 14 as above) o15, o14, o16, o17, o18, o19  (first in run 3)\n"))
    }

    @Test func theJSONLinesSummaryHasAnObjectPerExpectationOrderAndFactThenTheSummary() throws {
        let runs = [Self.run(["a", "b"]), Self.run(["b", "a"]), Self.run(["a"], skipped: ["b"])]
        let summary = Self.fold(runs)
        var report = Self.report
        report.planned = 3
        let lines = String(decoding: report.jsonLines(summary), as: UTF8.self).split(separator: "\n")
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(
            objects.map { $0["kind"] as? String } == [
                "expectation", "expectation", "order", "order", "order", "fact", "fact", "fact", "fact", "summary",
            ])
        let order = objects[0]
        #expect(order["expect"] as? String == "order a, b")
        #expect(order["line"] as? Int == 4)
        #expect(order["runs"] as? Int == 3)
        #expect(order["held"] as? Int == 1 && order["failed"] as? Int == 2)
        #expect(order["failedRuns"] as? [Int] == [2, 3])
        #expect(order["counted"] as? Bool == true)
        #expect((order["firstFailure"] as? String)?.hasPrefix("started in another order") == true)
        // b was skipped in the third run: it did not finish.
        #expect(objects[1]["failedRuns"] as? [Int] == [3])
        #expect(objects[2]["order"] as? [String] == ["a", "b"])
        #expect(objects[2]["runs"] as? Int == 1 && objects[2]["firstRun"] as? Int == 1)
        let ending = objects[5]
        #expect(ending["operation"] as? String == "b" && ending["fact"] as? String == "finalState")
        let values = try #require(ending["values"] as? [[String: Any]])
        #expect(values.map { $0["value"] as? String } == ["finished", "skipped"])
        #expect(values.map { $0["runs"] as? Int } == [2, 1])
        #expect(objects[6]["fact"] as? String == "started")
        #expect(objects[7]["queue"] as? String == "q" && objects[7]["fact"] as? String == "peak")
        #expect(objects[8]["fact"] as? String == "threads" && objects[8]["operation"] == nil)
        let last = objects[9]
        #expect(last["path"] as? String == "race.ops")
        #expect(last["speed"] as? Int == 1)
        #expect(last["planned"] as? Int == 3 && last["runs"] as? Int == 3)
        #expect(last["passed"] as? Int == 1 && last["failed"] as? Int == 2)
        #expect(last["completed"] as? Int == 3 && last["stalled"] as? Int == 0 && last["didNotEnd"] as? Int == 0)
        #expect(last["firstStall"] is NSNull)
        #expect(last["expectations"] as? Int == 2 && last["heldEveryRun"] as? Int == 0)
        #expect(last["orders"] as? Int == 3 && last["ordersListed"] as? Int == 3)
        #expect(last["stoppedBy"] is NSNull)
        #expect(last["status"] as? Int == 1)
    }
}
