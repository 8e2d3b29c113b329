import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The operations the start adds and how far it is: in file order, a
/// batch's where its first operation comes, announced then handed over,
/// never past the end.
struct StartAddsTests {
    @Test func theStartAddsInFileOrderWhatNoActionAddsOrStarts() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 1)
        let later = b.work("b", on: q, ms: 1)
        let hand = b.work("c", on: q, ms: 1)
        b.work("d", on: q, ms: 1)
        b.at(10, .add(later))
        b.at(10, .start(hand))
        var adds = StartAdds(b.scenario)
        #expect(adds.count == 2)
        #expect(Array(adds.upcoming(64)) == [0, 3])
        #expect(adds.nextOperation == 0)
        adds.announced(1)
        #expect(adds.nextOperation == 3 && Array(adds.upcoming(64)) == [3])
        adds.announced(1)
        #expect(adds.isDone && adds.nextOperation == nil && adds.upcoming(64).isEmpty)
    }

    @Test func aBatchComesWhereItsFirstOperationWouldAndIsFoundByIt() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 1)
        b.work("b", on: q, ms: 1)
        b.work("c", on: q, ms: 1)
        var scenario = b.scenario
        scenario.startBatches = [AddBatch(operations: [OperationID(2), OperationID(1)])]
        let adds = StartAdds(scenario)
        #expect(Array(adds.upcoming(64)) == [0, 2, 1])
        #expect(adds.batch(beginningWith: 2) == 0)
        #expect(adds.batch(beginningWith: 1) == nil && adds.batch(beginningWith: 0) == nil)
    }

    @Test func handingOverFollowsTheAnnouncementsAndTheProgressSaysSo() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for n in 0..<5 { b.work("op\(n)", on: q, ms: 1) }
        var adds = StartAdds(b.scenario)
        #expect(Array(adds.upcoming(2)) == [0, 1], "a chunk is at most the size asked")
        adds.announced(2)
        #expect(adds.progress == BuildProgress(handedOver: 0, total: 5), "announced, not handed over yet")
        adds.handOver()
        #expect(adds.progress == BuildProgress(handedOver: 2, total: 5))
        adds.announced(3)
        adds.handOver()
        #expect(adds.progress.isComplete && adds.handedOver == adds.next)
    }
}
