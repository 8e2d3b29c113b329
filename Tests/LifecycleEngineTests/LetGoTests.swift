import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The run makes each operation's Foundation object as it hands it over
/// and lets go of it once finished, when nothing of Foundation's can reach
/// it any more; the rest it keeps to the end.
@Suite struct LetGoTests {
    /// Waits until `body` holds or `seconds` passed (Foundation lets go of
    /// its own references a little after the run's last event).
    static func eventually(_ seconds: Double, _ body: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !body() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    @Test func whatNothingWaitsForIsLetGoOfAndTheRestIsKept() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let g = b.queue("g", cap: .limit(2))
        var kept: [OperationID] = []
        let long = b.work("long", on: q, ms: 2000)
        let cancelled = b.work("x", on: q, ms: 0, after: [long])
        b.at(10, .cancel(cancelled))
        let root = b.work("root", on: q, ms: 0)
        for i in 0..<100 { b.work("leaf\(i)", on: q, ms: 0, after: [root]) }
        var link = b.work("c0", on: q, ms: 0)
        for i in 1..<10 {
            kept.append(link)
            link = b.work("c\(i)", on: q, ms: 0, after: [link])
        }
        for i in 0..<100 { b.work("f\(i)", on: q, ms: 0) }
        b.async("a", on: q, ms: 0)
        b.async("a20", on: q, ms: 20)
        b.op("blocks", on: q, .blocks([.zero, .milliseconds(1)]))
        b.work("w", on: g, ms: 0)
        let barrier = b.barrier("gate", on: g)
        b.work("behind", on: g, ms: 0)
        b.work("named", on: q, ms: 0, after: [barrier])
        kept += [long, cancelled, root, barrier]
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        run.start()
        let events = await run.ended(timeout: 20)
        let stream = Stream(events: events, scenario: scenario)
        // The cancel comes 10 ms in, long before x's dependency ends; on a
        // machine slow enough (under the thread sanitizer, say) it may come
        // after x finished: then it is not cancelled, and is let go of as any other.
        if !stream.cancelled("x") { kept.removeAll { $0 == cancelled } }
        let expected = kept.map(\.index).sorted()
        #expect(Self.eventually(10) { run.heldObjects == expected }, "held \(run.heldObjects)")
        run.stop()
        #expect(stream.outcome == .completed)
        expectCleanStream(events, scenario)
    }

    /// Cancelled before its add (its object is made then), it is added
    /// cancelled: it finishes without running, its dependency still at work.
    @Test func anOperationActedOnBeforeItIsAddedIsMadeThenAndAddedAsItIs() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let first = b.async("first", on: q, ms: 2000)
        let later = b.work("later", on: q, ms: 0, after: [first])
        b.at(10, .cancel(later))
        b.at(20, .add(later))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        let kinds = s.events.map(\.kind)
        #expect(kinds.contains(.operation(later, .isCancelled, old: .bool(false), new: .bool(true))))
        #expect(kinds.contains(.operation(later, .isFinished, old: .bool(false), new: .bool(true))))
        #expect(!kinds.contains(.operation(later, .isExecuting, old: .bool(false), new: .bool(true))))
    }
}
