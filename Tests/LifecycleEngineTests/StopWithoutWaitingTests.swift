import Foundation
import RunEvents
import ScenarioKit
import Synchronization
import Testing

@testable import LifecycleEngine

/// A run replaced by another (a restart, a save of a watched file) stops
/// without the caller waiting: a start still adding a large file ends
/// after its chunk, and everything of the run is let go of once Foundation
/// is done with it, however far it had come.
@Suite struct StopWithoutWaitingTests {
    /// `count` operations of `ms` each on one queue of `cap`.
    static func flat(_ count: Int, ms: Int, cap: ConcurrencyCap = .systemDefault) -> Scenario {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: cap)
        for i in 0..<count { b.work("o\(i)", on: q, ms: ms) }
        return b.scenario
    }

    /// Holds a run weakly, to see it freed.
    final class Weak: @unchecked Sendable {
        weak var core: RunCore?
        init(_ core: RunCore) { self.core = core }
    }

    /// A stop that comes while the start is still adding ends the adds
    /// after their chunk: the start returns with most of the file never
    /// handed over, and the stop did not wait for the rest.
    @Test func aStopDuringTheAddsEndsThemAfterTheirChunk() {
        let run = ScenarioRun(scenario: Self.flat(300_000, ms: 1000), options: RunOptions(speed: 1))
        let started = Mutex(false)
        let returned = Mutex<BuildProgress?>(nil)
        let starter = Thread {
            run.start(reportingEvery: 0) { _ in started.withLock { $0 = true } }
            returned.withLock { $0 = run.buildProgress }
        }
        starter.start()
        #expect(LetGoTests.eventually(30) { started.withLock { $0 } }, "the adds began")
        run.stop()
        #expect(LetGoTests.eventually(10) { returned.withLock { $0 } != nil }, "the start returned")
        let progress = returned.withLock { $0 }
        #expect(
            (progress?.handedOver ?? .max) < 300_000,
            "the start stopped adding: \(String(describing: progress))")
        #expect(run.hasEnded)
    }

    /// `stopInBackground` returns at once, and the run, with its objects,
    /// its model and its events, is freed once the thread that stops it
    /// is done: nothing of it stays once the caller lets go.
    @Test func aRunStoppedInTheBackgroundIsFreedWhileItsWorkWasStillGoing() throws {
        // Long work on a cap of 2: most of it waits in the queue, two are
        // executing, when the run is let go of.
        let scenario = Self.flat(2_000, ms: 60_000, cap: .limit(2))
        var run: ScenarioRun? = ScenarioRun(scenario: scenario, options: RunOptions(speed: 1))
        run?.start()
        #expect(LetGoTests.eventually(10) { run?.events.contains { $0.kind.isExecutingTrue } == true })
        let weak = Weak(try #require(run).core)
        let clock = ContinuousClock()
        let asked = clock.now
        run?.stopInBackground()
        let took = clock.now - asked
        run = nil
        #expect(took < .seconds(1), "the caller does not wait for the stop: \(took)")
        #expect(LetGoTests.eventually(30) { weak.core == nil }, "the run is freed")
    }

    /// Before the stop learnt to wait for Foundation's drain, a run stopped
    /// with operations left kept every object (and so its core) for good.
    @Test func aStoppedRunLetsGoOfItsObjectsOnceFoundationIsDone() async {
        #expect(await mainQueueIsServiced())
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        let main = b.queue("ui", main: true)
        let first = b.work("first", on: q, ms: 30_000)
        for i in 0..<50 { b.work("w\(i)", on: q, ms: 10, after: i == 0 ? [first] : []) }
        b.async("a", on: q, ms: 30_000)
        b.work("m", on: main, ms: 10, after: [first])
        let run = ScenarioRun(scenario: b.scenario, options: RunOptions(speed: 1))
        run.start()
        #expect(LetGoTests.eventually(10) { run.events.contains { $0.kind.isExecutingTrue } })
        run.stop()
        // The main queue's operation finishes on the main thread, which
        // the test runner serves (`mainQueueIsServiced`).
        #expect(LetGoTests.eventually(20) { run.heldObjects.isEmpty }, "held \(run.heldObjects.count) objects")
    }
}

extension LifecycleEvent.Kind {
    /// An operation's `isExecuting` turning true.
    fileprivate var isExecutingTrue: Bool {
        if case .operation(_, .isExecuting, _, .bool(true)) = self { return true }
        return false
    }
}
