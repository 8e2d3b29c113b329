import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The order a run lets go of its operations: each after everything that
/// depends on it, so no operation's deinit ever frees another.
@Suite struct ReleaseOrderTests {
    static func position(_ order: [Int]) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    }

    @Test func aChainIsReleasedFromItsEnd() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        var previous = b.work("o0", on: q, ms: 0)
        for i in 1..<1000 { previous = b.work("o\(i)", on: q, ms: 0, after: [previous]) }
        #expect(ReleaseOrder.dependentsFirst(b.scenario) == Array((0..<1000).reversed()))
    }

    @Test func everyOperationComesOnceAndAfterItsDependents() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let r = b.queue("r")
        let top = b.work("top", on: q, ms: 0)
        let left = b.work("left", on: q, ms: 0, after: [top])
        let right = b.work("right", on: r, ms: 0, after: [top, top])
        let bottom = b.work("bottom", on: r, ms: 0, after: [left, right])
        let gate = b.barrier("gate", on: q)
        b.work("behind", on: r, ms: 0, after: [gate, bottom])
        b.work("alone", on: q, ms: 0)
        let scenario = b.scenario
        let order = ReleaseOrder.dependentsFirst(scenario)
        #expect(order.sorted() == Array(scenario.operations.indices))
        let at = Self.position(order)
        for (i, spec) in scenario.operations.enumerated() where !spec.isBarrier {
            for dep in spec.dependencies where dep.index != i {
                #expect(at[i]! < at[dep.index]!, "\(spec.name) before \(scenario.operations[dep.index].name)")
            }
        }
    }
}
