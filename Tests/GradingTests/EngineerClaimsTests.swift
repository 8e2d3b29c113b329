import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// The claims an engineer means — a bound on a peak, a dependency through
/// others, two kept apart, a completion block before a start, the main
/// thread — read from a file and judged on a hand-made run.
@Suite("expectations an engineer means")
struct EngineerClaimsTests {
    /// fetch (with a completion block) runs 0–0.2s; decode and thumb both
    /// wait for fetch and run together from 0.201s; fetch's block runs at
    /// 0.205s; show, on the main queue after thumb, runs at 0.4s, once
    /// decode is done.
    static let scenario = ScenarioReader.read(
        """
        queue net max 2
        queue ui main
        op fetch  work 200ms completion
        op decode work 200ms after fetch
        op thumb  work 100ms after fetch
        op show   on ui work 50ms after thumb
        """
    ).scenario!

    static let events: [LifecycleEvent] = {
        var s = Script(scenario)
        s.add("fetch")
        for name in ["decode", "thumb", "show"] { s.add(name, ready: false) }
        s.start("fetch", thread: 1)
        s.at(0.200)
        s.finish("fetch")
        s.ready("decode")
        s.ready("thumb")
        s.at(0.201)
        s.start("decode", thread: 1)
        s.start("thumb", thread: 2)
        s.at(0.205)
        s.completion("fetch", thread: 3)
        s.at(0.301)
        s.finish("thumb")
        s.ready("show")
        s.at(0.400)
        s.finish("decode")
        s.start("show", thread: 0)
        s.at(0.450)
        s.finish("show")
        s.end()
        return s.events
    }()

    static func judge(_ claim: String) -> (Bool, String)? {
        let read = ScenarioReader.read(
            ScenarioPrinter().source(for: scenario) + "\nexpect \(claim)\n")
        guard let scenario = read.scenario, let e = scenario.expectations.first else { return nil }
        #expect(e.text == claim, "the canonical print reads back as written")
        #expect(ScenarioPrinter.claimText(e.claim, in: scenario) == claim)
        let result = ExpectationChecker.evaluate(scenario, events: events)[0]
        return (result.held, result.explanation)
    }

    @Test(arguments: [
        ("peak net <= 2", true, "peak of net was 2, at most 2"),
        ("peak net <= 1", false, "peak of net was 2, more than 1: net's cap was 2 (declared on line 1)"),
        ("peak net >= 2", true, "peak of net was 2, at least 2"),
        ("peak ui >= 2", false, "peak of ui was 1, fewer than 2: the main queue runs one operation at a time"),
        ("show depends on fetch", true, "show depends on fetch through thumb (show → thumb → fetch)"),
        ("thumb depends on fetch", true, "thumb depends on fetch directly"),
        (
            "thumb depends on decode", false,
            "thumb does not depend on decode, directly or through others: its dependency is fetch"
        ),
        (
            "fetch depends on show", false,
            "fetch does not depend on show, directly or through others: it has no dependency"
        ),
        ("never together fetch, decode, show", true, "no two of fetch, decode and show executed at once"),
        (
            "never together decode, thumb", false,
            "decode and thumb were both executing at 0.201s: neither waits for the other, and net ran both"
        ),
        (
            "completion of fetch before show starts", true,
            "fetch's completion block ran at 0.205s, show started at 0.400s"
        ),
        (
            "completion of fetch before thumb starts", false,
            "thumb started at 0.201s, before fetch's completion block ran at 0.205s: thumb waits for fetch to finish, "
                + "not for its completion block"
        ),
        (
            "completion of decode before show starts", false,
            "decode has no completion block (add 'completion' to its line)"
        ),
        ("show on main", true, "show: it ran on the main thread"),
        ("thumb on main", false, "thumb: it ran on thread #2, not the main thread (net is not the main queue)"),
        ("show off main", false, "show: it ran on the main thread (its queue is OperationQueue.main)"),
    ])
    func judged(_ claim: String, _ held: Bool, _ explanation: String) throws {
        let (wasHeld, said) = try #require(Self.judge(claim))
        #expect(wasHeld == held)
        #expect(said == explanation)
    }

    @Test(arguments: [
        ("peak default < 2", "1:14 error: unexpected character '<'"),
        ("fetch depends decode", "1:15 error: expected 'on' after 'depends', found 'decode'"),
        ("never together fetch", "1:1 error: 'never together' needs at least two operations"),
        ("completion of fetch before show", "1:32 error: expected 'starts' after 'show'"),
        ("completion of fetch before fetch starts", "1:28 error: 'fetch' appears twice in 'completion of'"),
        ("fetch on mian", "1:1 error: unknown claim 'fetch'"),
    ])
    func refused(_ claim: String, _ first: String) {
        let read = ScenarioReader.read("op fetch work 1s\nop show work 1s\nexpect \(claim)")
        #expect(read.scenario == nil)
        let said = read.diagnostics.first.map {
            "\($0.location.line - 2):\($0.location.column - 7) \($0.severity.rawValue): \($0.message)"
        }
        #expect(said == first)
    }

    /// A failure gives the rule: a cancelled dependency counts as finished;
    /// an operation that does not depend on another need not wait for it.
    @Test func aFailureGivesTheRule() {
        let scenario = ScenarioReader.read(
            """
            op fetch   work 300ms
            op profile work 100ms after fetch
            op thumb   work 100ms after fetch
            op decode  work 300ms after fetch
            expect skipped profile
            expect decode before thumb
            """
        ).scenario!
        var s = Script(scenario)
        s.add("fetch")
        for name in ["profile", "thumb", "decode"] { s.add(name, ready: false) }
        s.start("fetch", thread: 1)
        s.at(0.1)
        s.cancel("fetch")
        s.at(0.2)
        s.finish("fetch")
        for name in ["profile", "thumb", "decode"] { s.ready(name) }
        s.at(0.21)
        s.start("profile", thread: 1)
        s.start("thumb", thread: 2)
        s.at(0.31)
        s.finish("profile")
        s.finish("thumb")
        s.start("decode", thread: 1)
        s.at(0.61)
        s.finish("decode")
        s.end()
        let results = ExpectationChecker.evaluate(scenario, events: s.events)
        #expect(
            results.map(\.explanation) == [
                "profile started at 0.210s and was never cancelled; it ran although fetch was cancelled: a cancelled "
                    + "dependency counts as finished, and cancelling one does not cancel what depends on it",
                "thumb started at 0.210s, before decode finished at 0.610s: thumb does not depend on decode (its "
                    + "dependency is fetch)",
            ])
    }
}
