import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// `main()` of a `work` operation as one step (`syncMainRan`): with no work
/// to simulate, off the main thread, it begins and ends under one lock, and
/// the run lets go of the object there when nothing waits for it and
/// nothing is to be looked at (`letsGoAtFinish`). No Foundation, no threads.
@Suite struct RunModelSyncMainTests {
    typealias T = RunModelTests

    static let worker = RunModel.ThreadIdentity(id: 7, isMain: false)
    static let main = RunModel.ThreadIdentity(id: 1, isMain: true)

    /// The keys announced for operation `i`, in order.
    static func keys(_ m: RunModel, _ i: Int) -> [String] {
        m.log.events.compactMap { event in
            guard case .operation(let id, let key, _, let new) = event.kind, id == OperationID(i) else { return nil }
            return "\(key) \(new)"
        }
    }

    @Test func noWorkOffTheMainThreadBeginsAndEndsInOneStepAndIsLetGoOfWhenNothingWaits() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("alone", on: q, ms: 0)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        let step = m.syncMainRan(0, thread: Self.worker, endsAtOnce: true, real: T.ms(1))
        #expect(step.ended)
        #expect(step.letsGo, "nothing waits for it, nothing to look at")
        #expect(step.scan == nil, "so nothing is asked after Foundation's start() returns")
        #expect(m.records[0].phase == .finished)
        let keys = Self.keys(m, 0)
        #expect(keys.suffix(3) == ["isExecuting bool(true)", "isExecuting bool(false)", "isFinished bool(true)"])
    }

    @Test func oneOthersWaitForEndsAtOnceButIsKeptAndItsDependentLookedAt() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 0)
        b.work("b", on: q, ms: 0, after: [a])
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        let step = m.syncMainRan(0, thread: Self.worker, endsAtOnce: true, real: T.ms(1))
        #expect(step.ended)
        #expect(!step.letsGo, "b holds it")
        #expect(step.scan?.newlyReady == [1], "its finish made b ready: look")
    }

    @Test func workToSimulateOrTheMainThreadEndsInAStepOfItsOwn() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("long", on: q, ms: 50)
        b.work("quick", on: q, ms: 0)
        var m = T.model(b)
        m.add(0, real: T.ms(0))
        m.add(1, real: T.ms(0))
        let long = m.syncMainRan(0, thread: Self.worker, endsAtOnce: true, real: T.ms(1))
        #expect(!long.ended && long.work.simulates && m.records[0].phase == .executing)
        let onMain = m.syncMainRan(1, thread: Self.main, endsAtOnce: false, real: T.ms(2))
        #expect(!onMain.ended && !onMain.letsGo && m.records[1].phase == .executing)
        var scan = m.syncMainEnded(1, real: T.ms(3))
        #expect(m.letsGoAtFinish(1, scan: &scan), "its own end lets go of it in the same way")
        #expect(scan == nil)
    }
}
