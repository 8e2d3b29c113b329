import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// The chain of what held an operation back, from hand-made streams: each
/// kind of link, and the links adding up to the start time.
@Suite struct CriticalPathTests {
    static func scenario(_ text: String) -> Scenario { ScenarioReader.read(text, path: "why.ops").scenario! }

    static func path(_ script: Script, to name: String) -> (CriticalPath, RunTimeline) {
        let timeline = RunTimeline(scenario: script.scenario, events: script.events)
        return (timeline.criticalPath(to: script.id(name))!, timeline)
    }

    static func expectTiled(_ path: CriticalPath) {
        #expect(path.steps.first?.from == 0, "\(path.steps)")
        for (a, b) in zip(path.steps, path.steps.dropFirst()) { #expect(a.to == b.from, "\(path.steps)") }
        #expect(path.steps.last?.to == path.started)
        #expect(abs(path.steps.reduce(0) { $0 + $1.cost } - path.started) < 1e-9)
    }

    /// b after a on a serial queue: a runs 100ms, then b starts.
    static func dependencyThatRan() -> Script {
        var s = Script(scenario("queue q serial\nop a work 100ms\nop b work 10ms after a\n"))
        s.add("a")
        s.add("b", ready: false)
        s.start("a", thread: 1)
        s.at(0.1)
        s.finish("a")
        s.ready("b")
        s.start("b", thread: 1)
        return s
    }

    @Test func aDependencyThatRanIsALinkAndItsFinishReleasesTheDependent() {
        let s = Self.dependencyThatRan()
        let (path, timeline) = Self.path(s, to: "b")
        #expect(
            path.steps.map(\.link) == [
                .waited(s.id("a"), until: .added(nil)), .ran(s.id("a")),
                .waited(s.id("b"), until: .prerequisite(s.id("a"))),
            ])
        Self.expectTiled(path)
        #expect(
            path.lines(in: timeline)[2]
                == "  0.100s → 0.100s     0ms  b turned ready when its dependency a finished, and q dispatched it")
        #expect(path.total() == "  the links add up to 0.100s: 0.100s, when it started")
    }

    @Test func aFullQueueLetsGoWhenASlotIsFreed() {
        var s = Script(Self.scenario("queue q serial\nop a work 200ms\nop b work 10ms\n"))
        s.add("a")
        s.add("b")
        s.start("a", thread: 1)
        s.at(0.2)
        s.finish("a")
        s.start("b", thread: 1)
        let (path, _) = Self.path(s, to: "b")
        #expect(path.steps.map(\.link).last == .waited(s.id("b"), until: .slot(s.id("a"))))
        #expect(path.steps.contains { $0.link == .ran(s.id("a")) && $0.cost == 0.2 })
        Self.expectTiled(path)
    }

    @Test func aResumeFromAnAtLineCostsTheTimeUntilThatLine() {
        var s = Script(Self.scenario("queue q suspended\nop a work 10ms\nat 500ms resume q\n"))
        s.add("a")
        s.at(0.5)
        s.emit(.action(.resume(s.qid("q")), origin: .timed(0), ignored: nil))
        s.suspended("q", false)
        s.start("a", thread: 1)
        let (path, timeline) = Self.path(s, to: "a")
        #expect(path.steps.map(\.link) == [.timedAction(0), .waited(s.id("a"), until: .resumed(.timed(0)))])
        Self.expectTiled(path)
        #expect(path.lines(in: timeline)[0].hasSuffix("the run came to 'at 500ms resume q' (line 3)"))
    }

    @Test func aStartOnTheThreadAnotherOperationGaveBackFollowsThatOperation() {
        var s = Script(Self.scenario("queue q max 4\nop hog work 300ms\nop x work 10ms\n"))
        s.add("hog")
        s.add("x")
        s.start("hog", thread: 1)
        s.dispatch("x")
        s.at(0.3)
        s.finish("hog")
        s.start("x", thread: 1)
        let (path, _) = Self.path(s, to: "x")
        #expect(
            path.steps.map(\.link).suffix(2) == [
                .ran(s.id("hog")), .waited(s.id("x"), until: .threadFreed(s.id("hog"), ThreadTag(1))),
            ])
        Self.expectTiled(path)
    }

    @Test func aLongWaitAfterTheDispatchWithNoThreadGivenBackIsAWaitForAThread() {
        var s = Script(Self.scenario("queue q\nop x work 10ms\n"))
        s.add("x")
        s.dispatch("x")
        s.at(0.05)
        s.start("x", thread: 3)
        let (path, timeline) = Self.path(s, to: "x")
        #expect(path.steps.map(\.link) == [.waited(s.id("x"), until: .added(nil)), .waited(s.id("x"), until: .thread)])
        Self.expectTiled(path)
        #expect(path.lines(in: timeline)[1].hasSuffix("x was dispatched, then waited for a worker thread to start it"))
    }

    @Test func theAnswerToDoesXWaitForYGivesThePathOrWhatXDependsOn() {
        let scenario = Self.scenario("queue q\nop a work 1ms\nop b work 1ms after a\nop c work 1ms after b\n")
        let (a, c) = (OperationID(0), OperationID(2))
        #expect(WhyAnswer.waitsFor(c, a, in: scenario) == ("yes: c waits for a through c → b → a", true))
        #expect(
            WhyAnswer.waitsFor(a, c, in: scenario)
                == (
                    "no: a does not wait for c, directly or through others; it has no dependency; it is the other way "
                        + "round: c → b → a", false
                ))
        #expect(WhyAnswer.waitsFor(OperationID(1), a, in: scenario).0.hasPrefix("yes: b waits for a directly"))
    }

    @Test func anOperationThatNeverStartedSaysWhy() {
        var s = Script(Self.scenario("queue q\nop a work 1ms\n"))
        s.add("a")
        s.cancel("a")
        s.dispatch("a")
        s.set("a", .isFinished, true)
        s.end()
        let timeline = RunTimeline(scenario: s.scenario, events: s.events)
        let (lines, started) = WhyAnswer.chain(to: s.id("a"), in: timeline)
        #expect(!started)
        #expect(
            lines == [
                "a never started: it was cancelled at 0.000s before it started and finished at 0.000s without running"
            ])
    }
}

/// On real runs of the library (the recordings kept here): every operation
/// that started has a chain, its links follow one another without a gap
/// and add up to its start time, and no link is left unexplained.
@Suite struct RecordedCriticalPathTests {
    @Test(arguments: ["01-chain", "03-cancel", "18-hundred-downloads-sync-v2", "23-suspend-resume"])
    func everyStartedOperationsChainTilesTheRunUpToItsStart(_ name: String) throws {
        let recording = try DispatchedTests.recording(name)
        let timeline = RunTimeline(scenario: recording.scenario, events: recording.events)
        var checked = 0
        for op in timeline.startOrder {
            let path = try #require(timeline.criticalPath(to: op))
            CriticalPathTests.expectTiled(path)
            for step in path.steps {
                if case .waited(_, .unexplained) = step.link { Issue.record("\(name): \(step) for \(op)") }
            }
            #expect(path.lines(in: timeline).count == path.steps.count)
            checked += 1
        }
        #expect(checked > 0)
    }
}
