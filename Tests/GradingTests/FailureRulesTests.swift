import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// A failed expectation gives the rule that decided, in the words the quiz
/// uses (`RuleWords`), from the compact facts a trace keeps: each run here
/// is written by hand, so every sentence is pinned exactly.
@Suite("a failed expectation gives the rule")
struct FailureRulesTests {
    static func read(_ text: String) -> Scenario { ScenarioReader.read(text).scenario! }

    static func explanations(_ scenario: Scenario, _ events: [LifecycleEvent]) -> [String] {
        ExpectationChecker.evaluate(scenario, events: events).map(\.explanation)
    }

    /// `s` emits an `at` line's action (its index in the file) and then its effect.
    static func timed(_ s: inout Script, _ index: Int, _ effect: (inout Script) -> Void) {
        s.emit(.action(s.scenario.actions[index].action, origin: .timed(index), ignored: nil))
        effect(&s)
    }

    @Test func aCancelledDependencyCountsAsFinished() {
        let scenario = Self.read(
            """
            queue q max 2
            op fetch work 300ms
            op early work 100ms
            op parse work 100ms after fetch
            at 100ms cancel fetch
            expect order parse, early
            """)
        var s = Script(scenario)
        s.add("fetch")
        s.add("early")
        s.add("parse", ready: false)
        s.start("fetch", thread: 1)
        s.at(0.01)
        s.start("early", thread: 2)
        s.at(0.1)
        Self.timed(&s, 0) { $0.cancel("fetch") }
        s.at(0.15)
        s.finish("fetch")
        s.ready("parse")
        s.at(0.16)
        s.start("parse", thread: 1)
        s.at(0.3)
        s.finish("early")
        s.finish("parse")
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: early at 0.010s, parse at 0.160s; early started before parse: parse was "
                    + "waiting for its dependency fetch, which was cancelled and finished at 0.150s (a cancelled "
                    + "dependency counts as finished)"
            ])
    }

    @Test func aMissingDependencyIsNamed() {
        let scenario = Self.read(
            """
            op fetch3  work 100ms
            op decode3 work 300ms after fetch3 completion
            op thumb3  work 100ms after fetch3
            expect decode3 before thumb3
            expect completion of decode3 before thumb3 starts
            """)
        var s = Script(scenario)
        s.add("fetch3")
        s.add("decode3", ready: false)
        s.add("thumb3", ready: false)
        s.start("fetch3", thread: 1)
        s.at(0.1)
        s.finish("fetch3")
        s.ready("decode3")
        s.ready("thumb3")
        s.start("decode3", thread: 1)
        s.start("thumb3", thread: 2)
        s.at(0.2)
        s.finish("thumb3")
        s.at(0.4)
        s.finish("decode3")
        s.completion("decode3")
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "thumb3 started at 0.100s, before decode3 finished at 0.400s: thumb3 does not depend on decode3 (its "
                    + "dependency is fetch3)",
                "thumb3 started at 0.100s, before decode3's completion block ran at 0.400s: thumb3 does not depend on "
                    + "decode3 (its dependency is fetch3)",
            ])
    }

    /// One slot; the higher priority goes first, whatever the file order.
    @Test func thePriorityBucketDecided() {
        let scenario = Self.read(
            """
            queue lane max 1
            op first on lane work 100ms
            op lo    on lane work 100ms priority low
            op hi    on lane work 100ms priority high
            expect order first, lo, hi
            """)
        var s = Script(scenario)
        for name in ["first", "lo", "hi"] { s.add(name) }
        s.run("first", from: 0, to: 0.1)
        s.run("hi", from: 0.1, to: 0.2)
        s.run("lo", from: 0.2, to: 0.3)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: first at 0.000s, hi at 0.100s, lo at 0.200s; hi started before lo: both "
                    + "were ready at 0.000s, and hi has the higher queuePriority (high against low; hi's is on line 4; lo's is "
                    + "on line 3); lane's cap was 1 (declared on line 1), so one ran at a time"
            ])
    }

    /// On a queue whose cap is 1 a QoS sets no priority: the file order decides.
    @Test func theQoSIsIgnoredAtACapOf1() {
        let scenario = Self.read(
            """
            queue serial max 1
            op first on serial work 100ms
            op bg    on serial work 100ms qos background
            op ui    on serial work 100ms qos userInitiated
            expect order first, ui, bg
            """)
        var s = Script(scenario)
        for name in ["first", "bg", "ui"] { s.add(name) }
        s.run("first", from: 0, to: 0.1)
        s.run("bg", from: 0.1, to: 0.2)
        s.run("ui", from: 0.2, to: 0.3)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: first at 0.000s, bg at 0.100s, ui at 0.200s; bg started before ui: both "
                    + "were ready at 0.000s; bg and ui have the same priority (normal): bg was added first (file "
                    + "order); the QoS of bg and ui did not set a priority: the queue's cap was 1 when they were added "
                    + "(this Foundation turns QoS into priority only when no priority is set and the cap is not 1); "
                    + "serial's cap was 1 (declared on line 1), so one ran at a time"
            ])
    }

    /// A cap an action set kept the peak down; the declared cap let it up.
    @Test func theCapDecided() {
        let scenario = Self.read(
            """
            queue net max 3
            op a on net work 100ms
            op b on net work 100ms
            at 0ms max net 1
            expect peak net 2
            expect peak net <= 0
            """)
        var s = Script(scenario)
        Self.timed(&s, 0) { $0.cap("net", 1, old: 3) }
        s.add("a")
        s.add("b")
        s.run("a", from: 0, to: 0.1)
        s.run("b", from: 0.1, to: 0.2)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "peak of net was 1, not 2: net's cap was 1 (set at 0.000s by 'at 0ms max net 1', line 4)",
                "peak of net was 1, more than 0: net's cap was 1 (set at 0.000s by 'at 0ms max net 1', line 4)",
            ])
    }

    /// The cap in force while the operations ran, and the line that set
    /// it, not the cap the run ended with: the system's default of the
    /// queue line, then an `at` line that lowered it too late.
    @Test func aCapLoweredTooLateNamesBothLines() {
        let scenario = Self.read(
            """
            queue uploads
            op u1 on uploads work 200ms
            op u2 on uploads work 200ms
            op u3 on uploads work 200ms
            at 20ms max uploads 2
            expect peak uploads <= 2
            """)
        var s = Script(scenario)
        for name in ["u1", "u2", "u3"] { s.add(name) }
        for (i, name) in ["u1", "u2", "u3"].enumerated() { s.start(name, thread: i + 1) }
        s.at(0.02)
        Self.timed(&s, 0) { $0.cap("uploads", 2) }
        s.at(0.2)
        for name in ["u1", "u2", "u3"] { s.finish(name) }
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "peak of uploads was 3, more than 2: uploads' cap was the system's default (declared on line 1) while "
                    + "its operations ran; it became 2 only at 0.020s (by 'at 20ms max uploads 2', line 5)"
            ])
    }

    /// A priority an `at` line set, and one the file's line gave, each
    /// named where it is written.
    @Test func aPriorityNamesTheLineThatSetIt() {
        let scenario = Self.read(
            """
            queue lane max 1
            op first on lane work 100ms
            op fetch on lane work 100ms priority high
            op slow  on lane work 100ms
            at 0ms priority slow veryHigh
            expect order first, fetch, slow
            """)
        var s = Script(scenario)
        Self.timed(&s, 0) { $0.priority("slow", .veryHigh) }
        for name in ["first", "fetch", "slow"] { s.add(name) }
        s.run("first", from: 0, to: 0.1)
        s.run("slow", from: 0.1, to: 0.2)
        s.run("fetch", from: 0.2, to: 0.3)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: first at 0.000s, slow at 0.100s, fetch at 0.200s; slow started before "
                    + "fetch: both were ready at 0.000s, and slow has the higher queuePriority (veryHigh against high; "
                    + "slow's was set at 0.000s by 'at 0ms priority slow veryHigh', line 5; fetch's is on line 3); "
                    + "lane's cap was 1 (declared on line 1), so one ran at a time"
            ])
    }

    /// A queue declared suspended says where.
    @Test func aSuspensionFromTheStartNamesTheQueueLine() {
        let scenario = Self.read(
            """
            queue held suspended
            queue free
            op x on held work 100ms
            op y on free work 100ms
            at 500ms resume held
            expect order x, y
            """)
        var s = Script(scenario)
        s.add("x")
        s.add("y")
        s.run("y", from: 0.01, to: 0.11)
        s.at(0.5)
        Self.timed(&s, 0) { $0.suspended("held", false) }
        s.run("x", from: 0.5, to: 0.6)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: y at 0.010s, x at 0.500s; y started before x: x was ready, but its queue "
                    + "held was suspended from the start (declared on line 1) to 0.500s (by 'at 500ms resume held', line 5)"
            ])
    }

    @Test func theSuspensionHeld() {
        let scenario = Self.read(
            """
            queue held
            queue free
            op x on held work 100ms
            op y on free work 100ms
            at 0ms suspend held
            at 500ms resume held
            expect order x, y
            """)
        var s = Script(scenario)
        Self.timed(&s, 0) { $0.suspended("held", true) }
        s.add("x")
        s.add("y")
        s.run("y", from: 0.01, to: 0.11)
        s.at(0.5)
        Self.timed(&s, 1) { $0.suspended("held", false) }
        s.run("x", from: 0.5, to: 0.6)
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "started in another order: y at 0.010s, x at 0.500s; y started before x: x was ready, but its queue "
                    + "held was suspended from 0.000s (by 'at 0ms suspend held', line 5) to 0.500s (by 'at 500ms resume held', "
                    + "line 6)"
            ])
    }

    @Test func aCancelNamesWhatAskedForIt() {
        let scenario = Self.read(
            """
            op up work 1s
            at 200ms cancel up
            expect finished up
            expect skipped up
            """)
        var s = Script(scenario)
        s.add("up")
        s.start("up", thread: 1)
        s.at(0.2)
        Self.timed(&s, 0) { $0.cancel("up") }
        s.at(0.25)
        s.finish("up")
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "up was cancelled at 0.200s (by 'at 200ms cancel up', line 2) while it was executing (it finished at "
                    + "0.250s)",
                "up started at 0.000s, before the cancel at 0.200s (by 'at 200ms cancel up', line 2): cancel on an "
                    + "executing operation only sets the flag",
            ])
    }

    /// The facts keep rules only for the operations the claims name and
    /// their dependencies, not for every operation.
    @Test func rulesAreKeptOnlyForNamedOperations() {
        let scenario = Self.read(
            """
            op a work 1s
            op b work 1s after a
            op c work 1s
            expect order b, c
            """)
        let facts = RunFacts.forExpectations(of: scenario)
        let ids = ["a", "b", "c"].map { scenario.operationID(named: $0)! }
        #expect(ids.map { facts.rules(of: $0) != nil } == [true, true, true])
        let other = RunFacts.forExpectations(of: Self.read("op a work 1s\nop b work 1s\nexpect finished b"))
        #expect(other.rules(of: OperationID(0)) == nil)
        #expect(RunFacts(scenario: scenario).rules(of: ids[0]) == nil)
    }

    @Test func twoOperationsTogetherSayWhatDidNotKeepThemApart() {
        let scenario = Self.read(
            """
            queue store max 3
            queue ui max 2
            barrier migrate on store work 300ms
            op badge on ui work 100ms
            op list on ui work 100ms
            expect never together migrate, badge
            expect never together badge, list
            """)
        var s = Script(scenario)
        s.add("migrate")
        s.add("badge")
        s.add("list")
        s.start("migrate", thread: 1)
        s.start("badge", thread: 2)
        s.start("list", thread: 3)
        s.at(0.1)
        s.finish("badge")
        s.finish("list")
        s.at(0.3)
        s.finish("migrate")
        s.end()
        #expect(
            Self.explanations(scenario, s.events) == [
                "migrate and badge were both executing at 0.000s: migrate is a barrier of store and badge is on ui: a "
                    + "barrier keeps out only the operations of its own queue",
                "badge and list were both executing at 0.000s: neither waits for the other, and ui ran both",
            ])
    }
}
