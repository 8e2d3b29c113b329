import FoundationRules
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The model's side of observed dispatch, without Foundation: a scan is
/// handed a made-up reading of the engine's state and announces exactly
/// what that reading says was dispatched, in the order the queue would
/// have; a start announces a dispatch no scan saw.
@Suite struct RunModelDispatchTests {
    typealias T = RunModelTests

    static func dispatched(_ m: RunModel) -> [String] {
        m.log.events.compactMap { e in
            if case .dispatched(let op) = e.kind { return m.scenario[operation: op].name }
            return nil
        }
    }

    @Test func aScanAnnouncesWhatTheEngineDispatchedAndNothingElse() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        for name in ["a", "b", "c"] { b.work(name, on: q, ms: 100) }
        var m = T.model(b)
        // Each add is looked at right after it, as the shell does.
        var scans: [RunModel.DispatchScan] = []
        for i in 0..<3 {
            let scan = m.add(i, real: T.ms(0))
            scans.append(scan)
            m.observeDispatches(scan, real: T.ms(1)) { $0 < 2 }
        }
        #expect(scans.map(\.newlyReady) == [[0], [1], []], "c was added with both slots taken")
        #expect(Self.dispatched(m) == ["a", "b"])
        let scan = scans[0]
        #expect(m.queues[0].dispatchedWaiting == 2 && m.queues[0].readyWaiting == 1)
        #expect(!m.stallCondition, "two dispatched will start")
        // A second scan of the same reading announces nothing again.
        m.observeDispatches(scan, real: T.ms(2)) { $0 < 2 }
        #expect(Self.dispatched(m) == ["a", "b"])
        m.begin(0, thread: 1, real: T.ms(3))
        #expect(m.queues[0].dispatchedWaiting == 1)
    }

    @Test func aStartAnnouncesTheDispatchNoScanSaw() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let before = m.log.events.count
        m.begin(0, thread: 1, real: T.ms(5))
        #expect(T.lines(m, from: before) == ["a dispatched", "a isExecuting bool(true)"])
        #expect(T.same(m.log.events[before].time, 0.005))
    }

    @Test func aCancelledOperationStartedByItsQueueWasDispatched() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.cancelBeforeStart(0, real: T.ms(1))
        let before = m.log.events.count
        m.finishAtStart(0, real: T.ms(2))
        #expect(T.lines(m, from: before).prefix(2) == ["a dispatched", "a isFinished bool(true)"])
    }

    /// The scan looks in the queue's order and stops after a few it finds
    /// still waiting: a dispatch far behind them is left to its start.
    @Test func aScanStopsAfterAFewWaitingOnes() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        for i in 0..<10 { b.work("o\(i)", on: q, ms: 100) }
        var m = T.model(b)
        for i in 0..<10 { m.add(i, real: T.ms(0)) }
        var scan = RunModel.DispatchScan()
        scan.add(queue: 0)
        var looked: [Int] = []
        m.observeDispatches(scan, real: T.ms(1)) { i in
            looked.append(i)
            return i == 9
        }
        #expect(looked == [0, 1, 2, 3], "four waiting, then it stops")
        #expect(Self.dispatched(m).isEmpty)
        m.begin(9, thread: 1, real: T.ms(2))
        #expect(Self.dispatched(m) == ["o9"])
    }

    /// Barriers first, then veryHigh … veryLow, and in a bucket the order
    /// operations were filed there; the QoS picks the bucket when the cap
    /// is not 1.
    @Test func aScanLooksInBucketOrder() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        b.work("low", on: q, ms: 100, priority: .low)
        b.work("normal", on: q, ms: 100)
        b.work("fromQoS", on: q, ms: 100, qos: .userInitiated)
        b.work("high", on: q, ms: 100, priority: .high)
        b.work("veryHigh", on: q, ms: 100, priority: .veryHigh)
        var m = T.model(b)
        m.queues[0].suspended = true
        for i in 0..<5 { m.add(i, real: T.ms(0)) }
        var scan = RunModel.DispatchScan()
        scan.add(queue: 0)
        var looked: [String] = []
        let scenario = m.scenario
        m.observeDispatches(scan, real: T.ms(1)) { i in
            looked.append(scenario.operations[i].name)
            return false
        }
        #expect(looked == ["veryHigh", "fromQoS", "high", "normal"])
    }

    @Test func operationsMadeReadyAreLookedAtWhereverTheyAre() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        let other = b.queue("other")
        let x = b.work("x", on: other, ms: 10)
        for i in 0..<6 { b.work("w\(i)", on: q, ms: 100) }
        b.work("late", on: q, ms: 100, after: [x])
        var m = T.model(b)
        for i in 0..<8 { m.add(i, real: T.ms(0)) }
        m.begin(0, thread: 1, real: T.ms(1))
        let scan = m.finish(0, real: T.ms(11))
        #expect(scan.newlyReady == [7])
        m.observeDispatches(scan, real: T.ms(12)) { $0 == 7 }
        #expect(Self.dispatched(m) == ["x", "late"])
    }

    @Test func addingToAFullQueueLooksForNothing() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        b.work("a", on: q, ms: 100)
        b.work("b", on: q, ms: 100)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.begin(0, thread: 1, real: T.ms(1))
        #expect(m.add(1, real: T.ms(2)).isEmpty)
    }

    /// Foundation's changePriority, step by step (swift-corelibs-foundation).
    @Test func priorityChangesMoveAsFoundationMovesThem() {
        var b = ScenarioBuilder()
        let serial = b.queue("serial", cap: .limit(1))
        let q = b.queue("q", cap: .limit(2))
        let s = b.work("s", on: serial, ms: 100, qos: .userInitiated)
        let a = b.work("a", on: q, ms: 100)
        b.work("c", on: q, ms: 100)
        let h = b.work("h", on: q, ms: 100, qos: .userInitiated)
        var m = T.model(b)
        for i in 0..<4 { m.add(i, real: T.ms(0)) }
        let normal = DispatchBucket.normal.rawValue
        // On a serial queue s is filed under normal; Foundation looks for it
        // under high: a change to high does nothing, to veryHigh is lost.
        #expect(Int(m.records[s.index].bucket) == normal)
        #expect(m.perform(.setPriority(s, .high), origin: .user, real: T.ms(1)) == .none)
        #expect(T.lines(m).last == "action priority s high ignored: unchanged")
        #expect(m.perform(.setPriority(s, .veryHigh), origin: .user, real: T.ms(2)) == .setPriority(s.index, .veryHigh))
        #expect(Int(m.records[s.index].bucket) == normal, "lost")
        // a set to low and back is behind c, filed after it.
        let filedFirst = m.records[a.index].bucketSeq
        _ = m.perform(.setPriority(a, .low), origin: .user, real: T.ms(3))
        _ = m.perform(.setPriority(a, .normal), origin: .user, real: T.ms(4))
        #expect(Int(m.records[a.index].bucket) == normal)
        #expect(m.records[a.index].bucketSeq > m.records[2].bucketSeq && m.records[a.index].bucketSeq > filedFirst)
        // h (QoS high, no priority): normal is a change Foundation takes,
        // though its getter answered normal before and after.
        #expect(m.perform(.setPriority(h, .normal), origin: .user, real: T.ms(5)) == .setPriority(h.index, .normal))
        #expect(Int(m.records[h.index].bucket) == normal)
    }

    /// While a chunk of adds is being handed to Foundation, a finish looks
    /// at none of them (Foundation may not have them yet); once the chunk
    /// is filed, a scan finds what was dispatched, in the queue's order,
    /// and an entry filed again meanwhile counts once.
    @Test func aChunkOfAddsIsLookedAtOnceItIsHandedOver() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        for i in 0..<4 { b.work("o\(i)", on: q, ms: 100) }
        var m = T.model(b)
        m.observeDispatches(m.add(0, real: T.ms(0)), real: T.ms(0)) { $0 == 0 }
        m.begin(0, thread: 1, real: T.ms(1))
        m.deferFiling()
        var chunk = RunModel.DispatchScan()
        for i in 1..<4 { chunk.merge(m.add(i, real: T.ms(2))) }
        let changed = m.changePriority(3, to: .high)
        #expect(changed, "o3 is filed again, ahead of the others")
        let finish = m.finish(0, real: T.ms(3))
        #expect(finish.isEmpty, "nothing of the chunk is in the queue's order yet")
        m.fileDeferred(stillDeferring: false)
        #expect(!m.dispatch.isDeferring)
        var looked: [Int] = []
        var scan = RunModel.DispatchScan()
        scan.add(queue: 0)
        m.observeDispatches(scan, real: T.ms(4)) { i in
            looked.append(i)
            return i == 3
        }
        #expect(looked == [3, 1, 2], "the high one first, each once")
        #expect(Self.dispatched(m) == ["o0", "o3"])
    }
}
