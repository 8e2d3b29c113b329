import Board
import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Testing

/// Two runs compared over hand-made streams: the same steps agree whatever
/// the noise around them; a step in another order, another ending, an
/// operation in one file only, a time beyond the tolerance are each said,
/// and only order and endings make the runs differ.
@Suite struct RunDiffTests {
    /// On queue `q` (cap 2): `a` and `b` at once, `c` after `a`; at 300ms
    /// the file cancels `b`.
    static func scenario(extra: [String] = [], without: Set<String> = []) -> Scenario {
        var ops = [op("a", on: "q"), op("b", on: "q"), op("c", on: "q", after: ["a"])]
        ops = ops.filter { !without.contains($0.name) } + extra.map { op($0, on: "q") }
        var scenario = makeScenario(queues: [QueueSpec(name: "q", cap: .limit(2))], ops: ops)
        if let b = scenario.operationID(named: "b") {
            scenario.actions = [TimedAction(time: .milliseconds(300), action: .cancel(b))]
        }
        return scenario
    }

    /// A run of `scenario()`: `a` and `b` start (in `order`), the cancel of
    /// `b` at 0.3s while it runs, `a` finishes at `aEnd` and `c` runs after
    /// it, `b` finishes cancelled at 0.5s. `noise` moves the adds and
    /// dispatches among the starts and numbers the threads otherwise.
    static func run(
        _ scenario: Scenario = scenario(), order: [String] = ["a", "b"], aEnd: Double = 1.0, noise: Bool = false,
        extra: [String] = []
    ) -> [LifecycleEvent] {
        var s = Script(scenario)
        s.cap("q", 2)
        let threads = noise ? [7, 3] : [1, 2]
        if noise {
            s.add("a")
            s.start(order[0], thread: threads[0])
            s.add("b")
            s.add("c", ready: false)
            for name in extra { s.add(name) }
            s.at(0.004)
            s.start(order[1], thread: threads[1])
        } else {
            s.add("a")
            s.add("b")
            s.add("c", ready: false)
            for name in extra { s.add(name) }
            s.dispatch("a")
            s.dispatch("b")
            s.start(order[0], thread: threads[0])
            s.start(order[1], thread: threads[1])
        }
        s.at(0.3)
        s.emit(.action(.cancel(s.id("b")), origin: .timed(0), ignored: nil))
        s.cancel("b")
        s.at(0.5)
        s.finish("b")
        s.completion("b", thread: threads[1])
        for name in extra { s.run(name, from: 0.5, to: 0.6) }
        s.at(aEnd)
        s.finish("a")
        s.ready("c")
        s.start("c", thread: threads[0])
        s.at(aEnd + 0.2)
        s.finish("c")
        s.end()
        return s.events
    }

    static func diff(_ a: [LifecycleEvent], _ b: [LifecycleEvent], _ scenarioB: Scenario = scenario()) -> RunDiff {
        RunDiff(a: scenario(), a, b: scenarioB, b)
    }

    @Test func theSameStreamAgrees() {
        let diff = Self.diff(Self.run(), Self.run())
        #expect(diff.divergence == nil)
        #expect(diff.operations.isEmpty)
        #expect(diff.agrees)
        #expect(
            diff.a.steps.map(\.what.phrase) == [
                "a started on a worker thread", "b started on a worker thread", "cancel b (at 300ms)",
                "b was cancelled",
                "b finished cancelled", "b's completion block ran on a worker thread", "a finished",
                "c started on a worker thread", "c finished", "the run completed",
            ])
        #expect(
            RunDiffText.summary(diff)
                == "the runs agree: the same 10 steps in the same order, and every operation ends the same way")
    }

    @Test func addsDispatchesAndThreadNumbersAreNotSteps() {
        let diff = Self.diff(Self.run(), Self.run(noise: true))
        #expect(diff.a.eventCount != diff.b.eventCount || diff.a.steps.map(\.event) != diff.b.steps.map(\.event))
        #expect(diff.divergence == nil)
        #expect(diff.operations.isEmpty, "0.004s later is within the 10ms floor")
        #expect(diff.agrees)
    }

    /// `a` and `b` start at once on a queue of cap 2, nothing orders
    /// them: which thread says so first is a race, not a difference.
    @Test func twoIndependentStartsInTheOtherOrderAreARace() {
        let diff = Self.diff(Self.run(), Self.run(order: ["b", "a"]))
        #expect(diff.divergence == nil)
        #expect(diff.races == [RunDiff.Race(index: 0, operations: ["a", "b"], time: 0)])
        #expect(diff.operations.isEmpty)
        #expect(diff.agrees)
        #expect(
            RunDiffText.summary(diff)
                == "the runs agree on what matters: the same 10 steps, in the same order but for 1 race among "
                + "independent operations (a/b at 0.000s), and every operation ends the same way")
        let text = RunDiffText.render(
            diff, a: RunLabel(path: "a.ops", source: .scenario(speed: 1)),
            b: RunLabel(path: "a.ops", source: .scenario(speed: 1)))
        #expect(text.contains("\nsteps: the same 10 steps, in the same order but for races (below) "))
        #expect(
            text.contains(
                "\nraces among independent operations (nothing in the files orders them: no dependency, barrier or "
                    + "serial queue; their steps came within 10ms of each other, in either order): a/b at 0.000s\n"))
    }

    /// Two starts in the other order are a difference when they are far
    /// apart, or when a serial queue orders them, however close.
    @Test func stepsInTheOtherOrderThatTimeOrTheFileOrdersAreADivergence() throws {
        func run(_ scenario: Scenario, _ first: String, _ second: String, apart: Double) -> [LifecycleEvent] {
            var s = Script(scenario)
            s.add("a")
            s.add("b")
            s.start(first, thread: 1)
            s.at(apart / 2)
            s.finish(first)
            s.at(apart)
            s.start(second, thread: 1)
            s.finish(second)
            s.end()
            return s.events
        }
        let pool = makeScenario(queues: [QueueSpec(name: "q")], ops: [op("a", on: "q"), op("b", on: "q")])
        let far = RunDiff(a: pool, run(pool, "a", "b", apart: 0.05), b: pool, run(pool, "b", "a", apart: 0.05))
        #expect(far.races.isEmpty)
        #expect(try #require(far.divergence).index == 0)
        #expect(!far.agrees)
        let serial = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))], ops: [op("a", on: "q"), op("b", on: "q")])
        let close = RunDiff(
            a: serial, run(serial, "a", "b", apart: 0.002), b: serial, run(serial, "b", "a", apart: 0.002))
        #expect(close.races.isEmpty, "a serial queue orders them")
        #expect(try #require(close.divergence).index == 0)
        #expect(!close.agrees)
        let closePool = RunDiff(
            a: pool, run(pool, "a", "b", apart: 0.002), b: pool, run(pool, "b", "a", apart: 0.002))
        #expect(closePool.divergence == nil && closePool.races.count == 2, "the starts race, then the finishes")
    }

    /// `up` of cap 2 against cap 3: the files' change comes first, then the
    /// step it made differ (up03 starts at once in B), and the race of
    /// `up01` and `stage` at the start only after, as a race.
    static func capRun(_ scenario: Scenario, capThree: Bool) -> [LifecycleEvent] {
        var s = Script(scenario)
        for name in ["up01", "up02", "up03", "stage"] { s.add(name) }
        if capThree {
            s.start("stage", thread: 1)
            s.start("up01", thread: 2)
            s.start("up02", thread: 3)
            s.start("up03", thread: 4)
            s.at(0.1)
            for name in ["up01", "stage", "up02", "up03"] { s.finish(name) }
        } else {
            s.start("up01", thread: 1)
            s.start("stage", thread: 2)
            s.start("up02", thread: 3)
            s.at(0.1)
            s.finish("up01")
            s.start("up03", thread: 1)
            s.finish("stage")
            s.finish("up02")
            s.at(0.2)
            s.finish("up03")
        }
        s.end()
        return s.events
    }

    static func capScenario(_ cap: Int) -> Scenario {
        makeScenario(
            queues: [QueueSpec(name: "up", cap: .limit(cap)), QueueSpec(name: "misc")],
            ops: [op("up01", on: "up"), op("up02", on: "up"), op("up03", on: "up"), op("stage", on: "misc")])
    }

    @Test func aChangedCapLeadsAndTheRaceBeforeItsStepComesAfter() throws {
        let (two, three) = (Self.capScenario(2), Self.capScenario(3))
        let diff = RunDiff(
            a: two, Self.capRun(two, capThree: false), b: three, Self.capRun(three, capThree: true))
        #expect(diff.files.named == ["up cap 2 → 3"])
        let divergence = try #require(diff.divergence)
        #expect(divergence.index == 3)
        #expect(divergence.a?.what == .finished("up01", cancelled: false))
        #expect(divergence.b?.what == .started("up03", on: .worker))
        #expect(diff.races == [RunDiff.Race(index: 0, operations: ["up01", "stage"], time: 0)])
        let summary = RunDiffText.summary(diff)
        #expect(
            summary.hasPrefix(
                "the runs differ: the files differ by 1 change (up cap 2 → 3); their steps 4 and 5 come in the "
                    + "other order (A: up01 finished first; B: up03 started on a worker thread first)"), "\(summary)")
        #expect(summary.hasSuffix("; 1 race among independent operations (up01/stage at 0.000s)"))
        let lines = RunDiffText.render(
            diff, a: RunLabel(path: "two.ops", source: .scenario(speed: 1)),
            b: RunLabel(path: "three.ops", source: .scenario(speed: 1))
        ).split(separator: "\n").map(String.init)
        #expect(lines[2] == "files: 1 change: up cap 2 → 3", "the first line after the runs names the cap")
        let steps = try #require(lines.firstIndex { $0.hasPrefix("steps: the runs part at step 4") })
        let races = try #require(lines.firstIndex { $0.hasPrefix("races among independent operations") })
        #expect(steps < races)

        let objects = try RunDiffJSON.render(
            diff, a: RunLabel(path: "two.ops", source: .scenario(speed: 1)),
            b: RunLabel(path: "three.ops", source: .scenario(speed: 1))
        ).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Array(objects.map { $0["kind"] as? String }.prefix(4)) == ["runs", "files", "divergence", "race"])
        #expect(objects[1]["named"] as? [String] == ["up cap 2 → 3"] && objects[1]["changes"] as? Int == 1)
        #expect(objects[2]["step"] as? Int == 4 && objects[2]["swap"] as? Bool == true)
        let a = try #require(objects[2]["a"] as? [String: Any])
        #expect(a["what"] as? String == "finished" && a["op"] as? String == "up01")
        #expect((a["later"] as? [String: Any])?["step"] as? Int == 5)
        #expect(objects[3]["ops"] as? [String] == ["up01", "stage"] && objects[3]["step"] as? Int == 1)
        let last = try #require(objects.last)
        #expect(last["races"] as? Int == 1 && last["file_changes"] as? Int == 1 && last["agree"] as? Bool == false)
    }

    /// In B the cancel lands before `b` starts: `b` is skipped.
    @Test func anotherEndingIsSaidWithItsStartAndFinish() throws {
        var s = Script(Self.scenario())
        s.cap("q", 2)
        s.add("a")
        s.add("b")
        s.add("c", ready: false)
        s.start("a", thread: 1)
        s.emit(.action(.cancel(s.id("b")), origin: .timed(0), ignored: nil))
        s.skip("b")
        s.completion("b", thread: 2)
        s.at(1)
        s.finish("a")
        s.start("c", thread: 1)
        s.at(1.2)
        s.finish("c")
        s.end()
        let diff = Self.diff(Self.run(), s.events)
        let divergence = try #require(diff.divergence)
        #expect(divergence.index == 1)
        #expect(divergence.a?.what == .started("b", on: .worker))
        #expect(divergence.aLaterInB == nil, "b never starts in B")
        #expect(divergence.b?.what == .action("cancel b (at 300ms)"))
        #expect(divergence.bLaterInA?.index == 2)
        #expect(!divergence.isSwap)
        #expect(
            diff.operations == [
                .init(operation: "b", aspect: .ending(.cancelled, .skipped)),
                .init(operation: "b", aspect: .start(0, nil)),
                .init(operation: "b", aspect: .finish(0.5, 0)),
            ])
        #expect(!diff.agrees)
        let text = RunDiffText.render(
            diff, a: RunLabel(path: "a.jsonl", source: .recording(scenario: "x.ops")),
            b: RunLabel(path: "x.ops", source: .scenario(speed: 2)))
        #expect(
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "A: a.jsonl, a recording of x.ops — 21 notifications, 10 steps, completed at 1.200s",
                "B: x.ops, run at speed 2 — 18 notifications, 9 steps, completed at 1.200s",
                "",
                "steps: the runs part at step 2, the step before it is the same (a step is a start, a cancel, "
                    + "a finish, a completion block, an action or the end):",
                "        seq     time  kind        queue  name  what",
                "  A       8    0.000  op          q      b     isExecuting     false → true  on thread #2",
                "  B       7    0.000  action                   cancel b  (at 300ms)",
                "  A's step (b started on a worker thread) never comes in B",
                "  B's step (cancel b (at 300ms)) comes in A at step 3, at 0.300s",
                "",
                "operations (a time differs when it is more than max(10ms, 10 % of the later time) away):",
                "  operation  what    A          B",
                "  b          ending  cancelled  skipped",
                "  b          start   0.000s     never",
                "  b          finish  0.500s     0.000s",
                "",
                "the runs differ: their steps part at step 2 (A: b started on a worker thread; B: cancel b (at "
                    + "300ms)); 1 operation ends another way; 1 finish at other times",
                "",
            ])
    }

    @Test func anOperationInOneFileOnly() throws {
        let withD = Self.scenario(extra: ["d"])
        let diff = RunDiff(a: Self.scenario(), Self.run(), b: withD, Self.run(withD, extra: ["d"]))
        #expect(diff.operations == [.init(operation: "d", aspect: .onlyIn(.b))])
        #expect(diff.divergence?.b?.what == .started("d", on: nil), "the stream did not say which thread")
        #expect(!diff.agrees)
        #expect(RunDiffText.summary(diff).hasSuffix("; 1 operation only in B's file"))
        // Compared by name: a file without `c` lists it as only in A's.
        let withoutC = Self.scenario(without: ["c"])
        var s = Script(withoutC)
        s.add("a")
        s.add("b")
        s.end()
        let other = RunDiff(a: Self.scenario(), Self.run(), b: withoutC, s.events)
        #expect(other.operations.contains(.init(operation: "c", aspect: .onlyIn(.a))))
        #expect(other.operations.contains(.init(operation: "a", aspect: .ending(.finished, .unfinished))))
    }

    @Test(
        "a time differs beyond max(10ms, 10 % of the later time)",
        arguments: [(1.0, 1.05, false), (1.0, 1.2, true), (0.6, 0.605, false), (0.6, 0.7, true)])
    func timesWithinAndBeyondTheTolerance(aEnd: Double, otherEnd: Double, differs: Bool) {
        let diff = Self.diff(Self.run(aEnd: aEnd), Self.run(aEnd: otherEnd))
        #expect(diff.divergence == nil)
        #expect(diff.agrees, "a time alone never makes the runs differ")
        let finish = RunDiff.OperationDifference(operation: "a", aspect: .finish(aEnd, otherEnd))
        #expect(diff.operations.contains(finish) == differs)
        if differs {
            #expect(RunDiffText.summary(diff).contains("only times differ:"))
        }
    }

    @Test func theToleranceGrowsWithTheSpeed() {
        let tolerance = RunDiff.Tolerance.standard
        #expect(!tolerance.differs(0, 0.010) && tolerance.differs(0, 0.011))
        #expect(!tolerance.differs(2, 2.2) && tolerance.differs(2, 2.25))
        #expect(tolerance.atSpeed(4).floor == 0.040)
        #expect(tolerance.atSpeed(0.5).floor == 0.010, "slower than 1, the floor stays")
        #expect(RunDiffText.toleranceText(tolerance.atSpeed(4)) == "max(40ms, 10 % of the later time)")
    }

    @Test func theMainThreadAgainstAWorker() throws {
        var s = Script(Self.scenario())
        s.add("a")
        s.start("a", thread: 0)
        s.end()
        var t = Script(Self.scenario())
        t.add("a")
        t.start("a", thread: 5)
        t.end()
        let diff = Self.diff(s.events, t.events)
        #expect(diff.divergence?.a?.what == .started("a", on: .main))
        #expect(diff.divergence?.b?.what == .started("a", on: .worker))
        #expect(diff.operations == [.init(operation: "a", aspect: .thread(.main, .worker))])
        #expect(!diff.agrees)
    }

    @Test func aRunCutShortPartsWhereItStops() throws {
        let whole = Self.run()
        let diff = Self.diff(whole, Array(whole.prefix(12)))
        let divergence = try #require(diff.divergence)
        #expect(divergence.b == nil && divergence.a != nil)
        #expect(divergence.index == diff.b.steps.count)
        #expect(diff.operations.contains(.init(operation: "c", aspect: .ending(.finished, .unfinished))))
    }

    @Test func stepsReadInBatchesAreTheStepsReadInOnePass() {
        let events = Self.run(noise: true)
        var steps = RunSteps(scenario: Self.scenario())
        steps.read(Array(events.prefix(5)))
        steps.read(Array(events.dropFirst(5)))
        #expect(steps.steps == RunSteps(scenario: Self.scenario(), events: events).steps)
        // What the interface keeps of a run, its history's events, is read as it is.
        var live = LiveBoard(scenario: Self.scenario())
        live.read(events)
        let diff = RunDiff(a: Self.scenario(), live.history.events, b: Self.scenario(), events)
        #expect(diff.agrees && diff.operations.isEmpty && diff.a.steps == steps.steps)
    }

    @Test func everyJSONLineIsAnObjectWithItsKind() throws {
        let diff = Self.diff(Self.run(), Self.run(order: ["b", "a"], aEnd: 1.5))
        let text = RunDiffJSON.render(
            diff, a: RunLabel(path: "a.ops", source: .scenario(speed: 1)),
            b: RunLabel(path: "b", source: .session("the run before r")))
        let objects = try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["kind"] as? String } == [
                "runs", "race", "operation", "operation", "operation", "summary",
            ])
        let race = objects[1]
        #expect(race["step"] as? Int == 1 && race["ops"] as? [String] == ["a", "b"] && race["t"] as? Double == 0)
        #expect(objects[2]["difference"] as? String == "finish")
        #expect(objects[2]["b"] as? Double == 1.5)
        #expect(objects[3]["difference"] as? String == "start" && objects[3]["op"] as? String == "c")
        let summary = objects[5]
        #expect(
            summary["agree"] as? Bool == true && summary["finishes"] as? Int == 2 && summary["starts"] as? Int == 1
                && summary["races"] as? Int == 1 && summary["file_changes"] as? Int == 0)
        let runs = objects[0]
        #expect((runs["b"] as? [String: Any])?["from"] as? String == "session")
        #expect((runs["tolerance"] as? [String: Any])?["floor"] as? Double == 0.01)
    }

    /// One pass over each run and one over the files' operations: 20,000
    /// operations compare at once. (Made by index: `Script` looks each
    /// name up.)
    @Test func aLargeRunComparesInOnePass() {
        let count = 20_000
        let scenario = makeScenario(queues: [QueueSpec(name: "q")], ops: (0..<count).map { op("o\($0)", on: "q") })
        var events: [LifecycleEvent] = []
        for i in 0..<count {
            let (op, t) = (OperationID(i), Double(i) * 0.001)
            events.append(
                LifecycleEvent(
                    seq: events.count + 1, time: t, kind: .operation(op, .isReady, old: nil, new: .bool(true))))
            events.append(
                LifecycleEvent(
                    seq: events.count + 1, time: t,
                    kind: .operation(op, .isExecuting, old: .bool(false), new: .bool(true)),
                    thread: ThreadTag(1)))
            events.append(
                LifecycleEvent(
                    seq: events.count + 1, time: t,
                    kind: .operation(op, .isFinished, old: .bool(false), new: .bool(true))))
        }
        events.append(LifecycleEvent(seq: events.count + 1, time: Double(count) * 0.001, kind: .end(.completed)))
        var other = events
        other[other.count - 2].time += 3
        let diff = RunDiff(a: scenario, events, b: scenario, other)
        #expect(diff.agrees && diff.a.steps.count == 40_001)
        #expect(
            diff.operations == [
                .init(operation: "o19999", aspect: .finish(events[events.count - 2].time, other[other.count - 2].time))
            ], "3s late at 20s is beyond 10 %")
    }
}
