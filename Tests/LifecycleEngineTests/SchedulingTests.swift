import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// Priority, FIFO, the cap, suspension and QoS, as the real engine decides them.
@Suite(.serialized) struct SchedulingTests {
    @Test(arguments: 0..<20) func prioritiesOrderStartsOnASerialSuspendedQueue(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1), suspended: true)
        b.work("low", on: q, ms: 10, priority: .low)
        b.work("veryHigh", on: q, ms: 10, priority: .veryHigh)
        b.work("normal", on: q, ms: 10)
        b.work("high", on: q, ms: 10, priority: .high)
        b.work("veryLow", on: q, ms: 10, priority: .veryLow)
        b.at(50, .resume(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["veryHigh", "high", "normal", "low", "veryLow"])
        #expect(try #require(s.actionSeq(0)) < #require(s.started("veryHigh")))
    }

    @Test(arguments: 0..<20) func equalPrioritiesStartInInsertionOrder(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1), suspended: true)
        for n in 0..<6 { b.work("w\(n)", on: q, ms: 5) }
        b.at(20, .resume(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == (0..<6).map { "w\($0)" })
    }

    @Test(arguments: 0..<20) func capIsRespectedAndRaisedAtRunTime(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        // Long operations and a late raise (0.1 s real at ×20): the first two
        // have surely started before it.
        for n in 0..<6 { b.async("a\(n)", on: q, ms: 4000) }
        b.at(2000, .setCap(q, .limit(3)))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        let raise = try #require(s.actionSeq(0))
        // Before the raise, never more than 2; after it, 3 at once.
        var now = 0
        var peakBefore = 0
        var peakAfter = 0
        for e in s.events {
            if case .operation(_, .isExecuting, _, .bool(let v)) = e.kind {
                now += v ? 1 : -1
                if e.seq < raise { peakBefore = max(peakBefore, now) } else { peakAfter = max(peakAfter, now) }
            }
        }
        #expect(peakBefore == 2)
        #expect(peakAfter == 3)
        // The announcement of the change precedes the starts it releases.
        let capEvent = s.events.firstIndex {
            if case .queue(_, .maxConcurrentOperationCount, .int(2), .int(3)) = $0.kind { return true }
            return false
        }
        #expect(capEvent != nil)
    }

    @Test(arguments: 0..<20) func suspensionHoldsStartsAndResumeReleasesThem(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        b.async("first", on: q, ms: 50)
        b.async("second", on: q, ms: 300)
        let third = b.async("third", on: q, ms: 50)
        let fourth = b.async("fourth", on: q, ms: 50)
        b.at(100, .suspend(q))
        // Added while the queue is suspended: ready, yet held until resume.
        b.at(200, .add(third))
        b.at(200, .add(fourth))
        b.at(500, .resume(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        let resume = try #require(s.actionSeq(3))
        // first and second were dispatched before the suspension (when they
        // were added), so they run whenever a thread takes them; third and
        // fourth start only after the resume.
        #expect(s.started("first") != nil && s.started("second") != nil)
        #expect(try #require(s.started("third")) > resume)
        #expect(try #require(s.started("fourth")) > resume)
        #expect(try #require(s.time("third", .isExecuting)) >= 0.5)
        #expect(try #require(s.time("fourth", .isExecuting)) >= 0.5)
    }

    @Test(arguments: 0..<20) func qosPicksThePriorityBucketOnANonSerialQueue(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2), suspended: true)
        b.async("u1", on: q, ms: 50, qos: .utility)
        b.async("u2", on: q, ms: 50, qos: .utility)
        b.async("i1", on: q, ms: 50, qos: .userInitiated)
        b.async("i2", on: q, ms: 50, qos: .userInitiated)
        b.at(20, .resume(q))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(Set(s.startOrder.prefix(2)) == ["i1", "i2"])
        #expect(s.peak("q") == 2)
    }

    @Test(arguments: 0..<20) func blocksRunOneAfterAnotherOnOneThread(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.op("b", on: q, .blocks([.milliseconds(40), .milliseconds(20), .milliseconds(0)]))
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        var phases: [(Int, BlockPhase)] = []
        var threads = Set<ThreadTag>()
        for e in s.events {
            if case .block(_, let index, let phase, let thread) = e.kind {
                phases.append((index, phase))
                threads.insert(thread)
                #expect(try e.seq > #require(s.started("b")) && e.seq < #require(s.finished("b")))
            }
        }
        #expect(
            phases.map { "\($0.0)\($0.1)" } == [
                "0started", "0returned", "1started", "1returned", "2started", "2returned",
            ])
        #expect(threads.count == 1)
        #expect(threads.first?.isMain == false)
    }
}
