import Testing

@testable import LifecycleEngine

/// Where a run files each queue's ready operations: a new sequence for
/// every filing, the queues kept apart, and what is filed during a
/// deferral held until it is filed, and then only what is still waiting.
struct DispatchFilingTests {
    static func entry(_ f: inout DispatchFiling, _ op: Int) -> UInt64 {
        DispatchOrder.entry(sequence: f.nextSequence(), operation: op)
    }

    /// Every entry of `bucket` in queue `q`, in the order a scan takes them.
    static func drain(_ f: inout DispatchFiling, queue q: Int, bucket: Int) -> [Int] {
        var ops: [Int] = []
        while let e = f.takeFirst(queue: q, bucket: bucket) { ops.append(DispatchOrder.operation(e)) }
        return ops
    }

    @Test func sequencesOnlyGrow() {
        var f = DispatchFiling(queues: 1)
        let given = (0..<5).map { _ in f.nextSequence() }
        #expect(given == [1, 2, 3, 4, 5])
        #expect(f.lastSequence == 5)
    }

    @Test func eachQueueKeepsItsOwnOrderInFilingOrder() {
        var f = DispatchFiling(queues: 2)
        for op in [4, 2, 7] { f.file(Self.entry(&f, op), bucket: 3, queue: op == 7 ? 1 : 0) }
        #expect(!f.isEmpty(queue: 0) && !f.isEmpty(queue: 1))
        #expect(Self.drain(&f, queue: 0, bucket: 3) == [4, 2], "filed first, taken first")
        #expect(Self.drain(&f, queue: 1, bucket: 3) == [7])
        #expect(f.isEmpty(queue: 0) && f.isEmpty(queue: 1))
    }

    @Test func anEntryPutBackKeepsItsPlace() {
        var f = DispatchFiling(queues: 1)
        for op in [1, 2, 3] { f.file(Self.entry(&f, op), bucket: 0, queue: 0) }
        let first = f.takeFirst(queue: 0, bucket: 0)!
        f.putBack(first, bucket: 0, queue: 0)
        #expect(Self.drain(&f, queue: 0, bucket: 0) == [1, 2, 3])
    }

    @Test func whatIsFiledDuringADeferralWaitsForFileDeferred() {
        var f = DispatchFiling(queues: 1)
        f.deferFiling()
        #expect(f.isDeferring)
        for op in [1, 2, 3] { f.file(Self.entry(&f, op), bucket: 3, queue: 0) }
        #expect(f.isEmpty(queue: 0), "a scan meanwhile sees none of them")
        f.fileDeferred(stillDeferring: false) { $0 == 2 ? nil : 0 }
        #expect(!f.isDeferring)
        #expect(Self.drain(&f, queue: 0, bucket: 3) == [1, 3], "one no longer waiting is left out")
    }

    @Test func aDeferralGoesOnWhenAskedAndStartsEmptyAgain() {
        var f = DispatchFiling(queues: 1)
        f.deferFiling()
        f.file(Self.entry(&f, 1), bucket: 3, queue: 0)
        f.fileDeferred(stillDeferring: true) { _ in 0 }
        #expect(f.isDeferring)
        f.file(Self.entry(&f, 2), bucket: 3, queue: 0)
        #expect(Self.drain(&f, queue: 0, bucket: 3) == [1], "the second waits for the next handover")
        f.fileDeferred(stillDeferring: false) { _ in 0 }
        #expect(Self.drain(&f, queue: 0, bucket: 3) == [2], "filed once, not twice")
    }

    @Test func fileDeferredWithoutADeferralDoesNothing() {
        var f = DispatchFiling(queues: 1)
        var asked = false
        f.fileDeferred(stillDeferring: true) { _ in
            asked = true
            return 0
        }
        #expect(!asked && !f.isDeferring)
    }
}
