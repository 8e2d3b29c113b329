import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// The critical path said in one sentence (the link that cost the most,
/// named as the run had it), its links grouped by cause with those of no
/// wait folded, and the work of finding it linear in the run.
@Suite struct CriticalPathSummaryTests {
    static func scenario(_ text: String) -> Scenario { CriticalPathTests.scenario(text) }

    static func path(_ script: Script, to name: String) -> (CriticalPath, RunTimeline) {
        CriticalPathTests.path(script, to: name)
    }

    @Test func aDependencyThatRanLongIsTheCause() {
        let (path, timeline) = Self.path(CriticalPathTests.dependencyThatRan(), to: "b")
        #expect(path.summary(in: timeline) == "b started at 0.100s: it waited for a, which ran 100ms on q")
    }

    @Test func aSlotWaitNamesTheQueueItsCapAndWhoHeldTheSlots() {
        var s = Script(
            Self.scenario(
                """
                queue net max 2
                op img1 work 400ms
                op img2 work 500ms
                op img4 work 10ms
                op merge work 1ms after img4

                """))
        s.add("img1")
        s.add("img2")
        s.add("img4")
        s.add("merge", ready: false)
        s.start("img1", thread: 1)
        s.start("img2", thread: 2)
        s.at(0.4)
        s.finish("img1")
        s.start("img4", thread: 1)
        s.at(0.41)
        s.finish("img4")
        s.ready("merge")
        s.start("merge", thread: 1)
        let (path, timeline) = Self.path(s, to: "merge")
        #expect(
            path.summary(in: timeline)
                == "merge started at 0.410s: it waited for img4, which waited 400ms for a slot of net (cap 2), "
                + "held by img1 and img2")
    }

    @Test func aSuspensionNamesTheLineThatResumedTheQueue() {
        var s = Script(Self.scenario("queue q suspended\nop a work 10ms\nat 500ms resume q\n"))
        s.add("a")
        s.at(0.5)
        s.emit(.action(.resume(s.qid("q")), origin: .timed(0), ignored: nil))
        s.suspended("q", false)
        s.start("a", thread: 1)
        let (path, timeline) = Self.path(s, to: "a")
        #expect(
            path.summary(in: timeline)
                == "a started at 0.500s: it waited 500ms while q was suspended, until 'at 500ms resume q' (line 3) "
                + "resumed it")
    }

    @Test func aMainQueueOperationDispatchedThenWaitingIsAWaitForTheMainThread() {
        var s = Script(Self.scenario("queue ui main\nop badge work 10ms\n"))
        s.add("badge")
        s.dispatch("badge")
        s.at(0.3)
        s.start("badge", thread: 0)
        let (path, timeline) = Self.path(s, to: "badge")
        #expect(
            path.summary(in: timeline)
                == "badge started at 0.300s: it was dispatched, then waited 300ms for the main thread")
        #expect(path.groups(in: s.scenario).map(\.cause) == [.added, .mainThread])
    }

    @Test func aChainOfSeveralNamesTheFirstAndTheOneThatCostAndCountsThoseBetween() {
        var s = Script(
            Self.scenario(
                """
                queue q serial
                op a work 300ms
                op b work 0ms after a
                op c work 0ms after b
                op d work 0ms after c
                op e work 0ms after d

                """))
        s.add("a")
        for name in ["b", "c", "d", "e"] { s.add(name, ready: false) }
        s.start("a", thread: 1)
        s.at(0.3)
        s.finish("a")
        for (name, next) in [("b", "c"), ("c", "d"), ("d", "e")] {
            s.ready(name)
            s.start(name, thread: 1)
            s.finish(name)
            _ = next
        }
        s.ready("e")
        s.start("e", thread: 1)
        let (path, timeline) = Self.path(s, to: "e")
        #expect(
            path.summary(in: timeline)
                == "e started at 0.300s: it waited for d, which waited through 2 others for a, which ran 300ms on q")
        // Grouped: a added as the run began (one link, not folded), then
        // the dependencies: a's run, six links of no wait folded, and the last
        // (what let e go) shown.
        let groups = path.groups(in: s.scenario)
        #expect(groups.map(\.cause) == [.added, .dependency])
        #expect(groups.map(\.steps.count) == [1, 8])
        let lines = path.groupedLines(in: timeline)
        #expect(
            lines == [
                "  waiting to be added: 0ms, 1 link",
                "    0.000s → 0.000s     0ms  a was added to q as the run began, and dispatched",
                "  waiting for dependencies to finish: 300ms, 8 links",
                "    0.000s → 0.300s   300ms  a ran on q, and what follows waited for it",
                "    … 6 links of no wait",
                "    0.300s → 0.300s     0ms  e turned ready when its dependency d finished, and q dispatched it",
            ], "\(lines)")
    }

    @Test func nothingHeldItBackWhenEveryLinkCostNothing() {
        var s = Script(Self.scenario("queue q\nop a work 10ms\n"))
        s.add("a")
        s.start("a", thread: 1)
        let (path, timeline) = Self.path(s, to: "a")
        #expect(
            path.summary(in: timeline)
                == "a started at 0.000s: nothing held it back (every link of its chain cost under 1ms)")
    }

    /// A serial chain of `count` operations, each started as the one
    /// before finished.
    static func chain(_ count: Int) -> Script {
        var text = "queue q serial\n"
        for i in 0..<count { text += "op o\(i) work 1ms" + (i > 0 ? " after o\(i - 1)" : "") + "\n" }
        var s = Script(scenario(text))
        for i in 0..<count { s.add("o\(i)", ready: i == 0) }
        for i in 0..<count {
            if i > 0 { s.ready("o\(i)") }
            s.start("o\(i)", thread: 1)
            s.at(Double(i + 1) * 0.001)
            s.finish("o\(i)")
        }
        return s
    }

    /// What finding the chain looks at grows with the run, not with its
    /// square: each link reads only the moments of its own wait (the
    /// quadratic `why` read every moment of the queue for each link).
    @Test func theWorkOfFindingTheChainGrowsLinearlyWithTheRun() throws {
        var works: [Int] = []
        for count in [500, 2_000] {
            let s = Self.chain(count)
            let timeline = RunTimeline(scenario: s.scenario, events: s.events, keepsBoards: false)
            var work = CriticalPathWork()
            let path = try #require(timeline.criticalPath(to: OperationID(count - 1), work: &work))
            #expect(path.steps.count == 2 * count - 1)
            #expect(work.inspected <= 3 * count, "\(work.inspected) looked at for \(count) operations")
            works.append(work.inspected)
        }
        // Four times the operations: about four times the work, far from sixteen.
        #expect(works[1] <= works[0] * 5, "\(works)")
    }
    /// `count` operations with no dependency on a serial queue, all added
    /// as the run began: each let go by the slot the one before freed.
    static func queued(_ count: Int) -> Script {
        var text = "queue q serial\n"
        for i in 0..<count { text += "op o\(i) work 1ms\n" }
        var s = Script(scenario(text))
        for i in 0..<count { s.add("o\(i)") }
        for i in 0..<count {
            s.start("o\(i)", thread: 1)
            s.at(Double(i + 1) * 0.001)
            s.finish("o\(i)")
        }
        return s
    }

    /// The same through the queue's slots: each link finds the slot that
    /// let it go from its own dispatch back, not from the queue's first
    /// moment; and the sentence names the queue and who held its slot.
    @Test func theWorkThroughSlotsGrowsLinearlyToo() throws {
        var works: [Int] = []
        for count in [500, 2_000] {
            let s = Self.queued(count)
            let timeline = RunTimeline(scenario: s.scenario, events: s.events, keepsBoards: false)
            var work = CriticalPathWork()
            let path = try #require(timeline.criticalPath(to: OperationID(count - 1), work: &work))
            #expect(path.steps.last?.link == .waited(OperationID(count - 1), until: .slot(OperationID(count - 2))))
            #expect(work.inspected <= 3 * count, "\(work.inspected) looked at for \(count) operations")
            works.append(work.inspected)
            if count == 500 {
                #expect(
                    path.summary(in: timeline)
                        == "o499 started at 0.499s: it waited 499ms for a slot of q (serial), held in turn by o0, o1, "
                        + "o2 and 496 more")
            }
        }
        #expect(works[1] <= works[0] * 5, "\(works)")
    }
}
