import ScenarioKit
import Testing

@testable import LifecycleEngine

/// What a scenario fixes about each operation, read once.
struct OperationFactsTests {
    @Test func eachOperationsKindQueueAndWorkAreRead() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let r = b.queue("r")
        let a = b.work("a", on: q, ms: 100)
        b.async("b", on: r, ms: 250, after: [a], ignoresCancel: true)
        b.barrier("c", on: q, ms: 30)
        b.op("d", on: r, .blocks([.milliseconds(10), .milliseconds(40)]))
        let facts = OperationFacts(b.scenario)
        #expect(facts.count == 4)
        #expect(facts.kinds == [.work, .async, .barrier, .blocks])
        #expect(facts.queueOf == [0, 1, 0, 1])
        #expect(facts.durations == [0.1, 0.25, 0.03, 0.05], "a blocks operation's, all its blocks'")
        #expect(facts.ignoresCancel == [false, true, false, false])
        #expect(Array(facts.graph.dependencies(of: 1)) == [0])
        #expect(facts.graph.hasDependents(0) && !facts.graph.hasDependents(1))
    }

    @Test func aBarriersCompletionAndAWorkOperationsNeverFinishingDoNotCount() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.op("a", on: q, .work(.milliseconds(1)), completion: [], neverFinishes: true)
        b.op("b", on: q, .async(.milliseconds(1)), completion: [], neverFinishes: true)
        b.op("c", on: q, .barrier(.milliseconds(1)), completion: [])
        let facts = OperationFacts(b.scenario)
        #expect(facts.hasCompletion == [true, true, false])
        #expect(facts.neverFinishes == [false, true, false], "only an asynchronous one can leave its finish out")
    }

    @Test func onlyAnOperationAStartActionNamesIsStartedByHand() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 1)
        let c = b.work("c", on: q, ms: 1)
        let none = OperationFacts(b.scenario)
        #expect(!none.isByHand(0) && !none.isByHand(1))
        b.at(10, .start(c))
        let some = OperationFacts(b.scenario)
        #expect(!some.isByHand(0) && some.isByHand(1))
    }
}
