import Foundation
import LifecycleEngine
import ScenarioKit
import Testing

@Suite(.serialized) struct SmokeTests {
    @Test(arguments: 0..<20) func workAndAsyncOperationsComplete(_ round: Int) {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        let a = b.work("a", on: q, ms: 100)
        let c = b.async("c", on: q, ms: 100, after: [a])
        b.work("d", on: q, ms: 0, after: [c])
        b.work("e", on: q, ms: 0)
        let s = runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.finished("a")! < s.started("c")!)
        #expect(s.finished("c")! < s.started("d")!)
    }
}
