import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// A batch add in the model alone: one action, each operation's initial
/// `isReady`, one change of the queue's count; what Foundation would stop
/// the program for is refused.
@Suite struct BatchAddModelTests {
    static func builder() -> (ScenarioBuilder, [OperationID]) {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        let a = b.work("a", on: q, ms: 10)
        let c = b.work("c", on: q, ms: 10, priority: .veryHigh)
        let r = b.queue("r")
        let x = b.work("x", on: r, ms: 10)
        b.at(10, .addBatch([a, c]))
        return (b, [a, c, x])
    }

    @Test func aBatchIsOneActionThenEachAddThenOneCount() {
        let (b, ids) = Self.builder()
        var m = RunModelTests.model(b)
        let from = m.log.count
        let effect = m.perform(.addBatch([ids[0], ids[1]]), origin: .timed(0), real: RunModelTests.ms(10))
        #expect(
            RunModelTests.lines(m, from: from) == [
                "action add a, c", "a isReady bool(true)", "c isReady bool(true)", "q operationCount int(2)",
            ])
        guard case .addBatch(let members, let scan) = effect else {
            Issue.record("not a batch: \(effect)")
            return
        }
        #expect(members == [ids[0].index, ids[1].index])
        // Both may be dispatched by the call: the scan looks at both.
        #expect(scan.newlyReady == [Int32(ids[0].index), Int32(ids[1].index)])
    }

    @Test func addingAgainOrAcrossQueuesIsRefused() {
        let (b, ids) = Self.builder()
        var m = RunModelTests.model(b)
        _ = m.perform(.addBatch([ids[0], ids[1]]), origin: .timed(0), real: RunModelTests.ms(10))
        let from = m.log.count
        #expect(m.perform(.addBatch([ids[1], ids[2]]), origin: .user, real: RunModelTests.ms(11)) == .none)
        var fresh = RunModelTests.model(b)
        let freshFrom = fresh.log.count
        #expect(fresh.perform(.addBatch([ids[0], ids[2]]), origin: .user, real: RunModelTests.ms(11)) == .none)
        #expect(fresh.perform(.addBatch([ids[0], ids[0]]), origin: .user, real: RunModelTests.ms(12)) == .none)
        #expect(
            RunModelTests.lines(m, from: from) == [
                "action add c, x ignored: already added (adding an operation twice would stop the program)"
            ])
        #expect(RunModelTests.lines(fresh, from: freshFrom).count == 2)
    }
}
