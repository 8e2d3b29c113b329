import Foundation
import ScenarioKit
import Synchronization
import Testing

@testable import LifecycleEngine

/// The start's handover and what a finish asks once Foundation has
/// processed it, as the model answers them: no Foundation, no threads.
/// Every model is made with the real initializer (`RunModelTests.model`).
@Suite struct RunModelHandoverTests {
    typealias T = RunModelTests

    static let worker = RunModel.ThreadIdentity(id: 7, isMain: false)

    @Test func theObjectsToMakeAreEachThenWhatItWaitsForLessThoseMadeOrFinished() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 0)
        let c = b.work("c", on: q, ms: 0)
        b.work("b", on: q, ms: 0, after: [a, c])
        var m = T.model(b)
        #expect(m.objectsToMake(for: [2]) { _ in false } == [2, 0, 1])
        #expect(m.objectsToMake(for: [2]) { $0 == 0 } == [2, 1], "a made already")
        #expect(
            m.handoverPlan(2) == RunModel.HandoverPlan(index: 2, dependencies: [0, 1], queue: 0, isBarrier: false))
        m.add(0, real: T.ms(0))
        _ = m.syncMainBegan(0, thread: Self.worker, real: T.ms(1))
        _ = m.syncMainEnded(0, real: T.ms(2))
        #expect(m.objectsToMake(for: [2]) { _ in false } == [2, 1], "a finished: let go of, or it may be")
    }

    @Test func aFinishAsksAgainOnlyToLookOrToLetGo() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let held = b.queue("held", suspended: true)
        let a = b.work("a", on: q, ms: 0)
        let c = b.work("c", on: held, ms: 0)
        b.work("b", on: q, ms: 0, after: [a, c])
        b.work("alone", on: q, ms: 0)
        var m = T.model(b)
        for i in 0..<3 { m.add(i, real: T.ms(0)) }

        _ = m.syncMainBegan(0, thread: Self.worker, real: T.ms(1))
        let aEnded = m.syncMainEnded(0, real: T.ms(2))
        #expect(aEnded == nil, "b still waits for c, and holds a: nothing to ask")

        let cancel = m.cancelled(1, real: T.ms(3)) { true }
        #expect(cancel.foundation == .underLock)
        let readied = m.syncStartFoundCancelled(1, real: T.ms(4))
        #expect(readied?.newlyReady == [2], "its finish made b ready: look")
        let cLetGo = m.foundationProcessedFinish(1)
        #expect(!cLetGo, "cancelled before it started: its dependencies may still reach it")

        m.add(3, real: T.ms(5))
        _ = m.syncMainBegan(3, thread: Self.worker, real: T.ms(6))
        let aloneEnded = m.syncMainEnded(3, real: T.ms(7))
        #expect(aloneEnded != nil, "nothing waits for it: ask, to let it go")
        let aloneLetGo = m.foundationProcessedFinish(3)
        #expect(aloneLetGo)

        _ = m.syncMainBegan(2, thread: Self.worker, real: T.ms(8))
        let bEnded = m.syncMainEnded(2, real: T.ms(9))
        #expect(bEnded != nil)
        _ = m.stopped()
        let bLetGo = m.foundationProcessedFinish(2)
        #expect(!bLetGo, "after the stop, the objects go as a whole")
    }

    @Test func theBuildsProgressIsWhatWasHandedOver() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for n in 0..<(RunModel.addsLookedAtOneByOne + 1) { b.work("w\(n)", on: q, ms: 0) }
        let total = RunModel.addsLookedAtOneByOne + 1
        var m = T.model(b)
        #expect(m.buildProgress == BuildProgress(handedOver: 0, total: total))
        let chunk = m.addChunk(real: T.ms(0))
        #expect(chunk.handovers.map(\.index) == Array(0..<RunModel.addsPerChunk))
        #expect(m.buildProgress.handedOver == 0, "announced, not handed over yet")
        let progress = m.chunkHandedOver()
        #expect(progress == BuildProgress(handedOver: RunModel.addsPerChunk, total: total))
    }
}

/// Whether a thread is the main one, asked of Foundation once per thread.
@Suite struct CurrentThreadTests {
    @Test func eachThreadAnswersAsFoundationDoesAndTheSameEachTime() {
        #expect(CurrentThread.isMain == Thread.isMainThread)
        #expect(CurrentThread.identity.id == UInt(pthread_self()))
        let answers = Mutex<[Bool]>([])
        let seen = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let first = CurrentThread.isMain
            let second = CurrentThread.isMain
            answers.withLock { $0 = [first, second, Thread.isMainThread] }
            seen.signal()
        }
        seen.wait()
        #expect(answers.withLock { $0 } == [false, false, false])
    }
}
