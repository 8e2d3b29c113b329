import Testing

@testable import LifecycleEngine

/// The waits barriers add: kept both ways, in the order they came, the
/// dependents' side taken once at the finish and the waits' side kept.
struct BarrierWaitsTests {
    @Test func aBarrierWaitsForWhatCameBeforeItAndEachKnowsItsWaiter() {
        var waits = BarrierWaits()
        waits.barrier(5, waitsFor: [1, 3])
        #expect(waits.waits(of: 5) == [1, 3])
        #expect(waits.dependents(of: 1) == [5] && waits.dependents(of: 3) == [5])
        #expect(waits.waits(of: 1).isEmpty)
    }

    @Test func aBarrierWithNothingBeforeItRecordsNothing() {
        var waits = BarrierWaits()
        waits.barrier(2, waitsFor: [])
        #expect(waits.waits(of: 2).isEmpty)
        #expect(waits.finished(2) == nil)
    }

    @Test func operationsBehindABarrierWaitForItInTheOrderTheyCame() {
        var waits = BarrierWaits()
        waits.barrier(0, waitsFor: [])
        waits.operation(3, waitsFor: 0)
        waits.operation(1, waitsFor: 0)
        waits.operation(3, waitsFor: 2)
        #expect(waits.dependents(of: 0) == [3, 1])
        #expect(waits.waits(of: 3) == [0, 2])
    }

    @Test func aFinishTakesItsDependentsOnceAndKeepsTheWaits() {
        var waits = BarrierWaits()
        waits.barrier(4, waitsFor: [1])
        waits.operation(6, waitsFor: 4)
        #expect(waits.finished(1) == [4])
        #expect(waits.finished(1) == nil, "taken once")
        #expect(waits.waits(of: 4) == [1], "what it waited for stays, for the stuck reasons")
        #expect(waits.finished(4) == [6])
        #expect(waits.finished(9) == nil)
    }
}
