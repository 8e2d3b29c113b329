import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The run's table of declared dependencies: what Foundation records for
/// each `after`, both ways, in the order the run releases dependents.
@Suite struct DependencyGraphTests {
    static func rows(_ graph: DependencyGraph) -> (waits: [[Int32]], dependents: [[Int32]]) {
        let all = 0..<graph.operationCount
        return (all.map { Array(graph.dependencies(of: $0)) }, all.map { Array(graph.dependents(of: $0)) })
    }

    @Test func eachWaitIsRecordedOnceBothWaysAndDependentsComeInIndexOrder() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let top = b.work("top", on: q, ms: 0)
        let late = OperationID(4)
        b.work("twice", on: q, ms: 0, after: [late, top, top])
        b.work("itself", on: q, ms: 0, after: [OperationID(2), top])
        b.work("alone", on: q, ms: 0)
        b.work("late", on: q, ms: 0, after: [top])
        let graph = DependencyGraph(b.scenario)
        let (waits, dependents) = Self.rows(graph)
        #expect(waits == [[], [4, 0], [0], [], [0]])
        #expect(dependents == [[1, 2, 4], [], [], [], [1]])
        #expect(graph.hasDependents(0) && !graph.hasDependents(3))
    }

    @Test func aBarrierWaitsForNoNameAndCanBeWaitedFor() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let w = b.work("w", on: q, ms: 0)
        let gate = b.op("gate", on: q, .barrier(.zero), after: [w])
        b.work("behind", on: q, ms: 0, after: [gate])
        let (waits, dependents) = Self.rows(DependencyGraph(b.scenario))
        #expect(waits == [[], [], [1]])
        #expect(dependents == [[], [2], []])
    }

    @Test func aLongFanInIsDeduplicatedPastTheShortLook() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let sources = (0..<40).map { b.work("s\($0)", on: q, ms: 0) }
        b.work("sink", on: q, ms: 0, after: sources + sources.reversed())
        let graph = DependencyGraph(b.scenario)
        #expect(Array(graph.dependencies(of: 40)) == (0..<40).map(Int32.init))
        #expect((0..<40).allSatisfy { Array(graph.dependents(of: $0)) == [40] })
    }
}
