import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The run's lock and the Foundation calls made while holding it.
@Suite struct EngineLockTests {
    /// Ownership is the calling thread's: another thread sees the lock as
    /// not its own (and in debug builds the shell's assertions rely on it).
    /// Synchronous on purpose: an async test may resume on another thread
    /// after an `await`, and a lock is released by the thread that took it.
    @Test func theLockKnowsWhichThreadHoldsIt() {
        let lock = EngineLock()
        lock.lock()
        lock.assertHeld()
        let seen = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            lock.assertNotHeld()
            seen.signal()
        }
        seen.wait()
        lock.unlock()
        lock.assertNotHeld()
        #expect(lock.withLock { 42 } == 42)
    }

    /// Every Foundation call the shell makes under its lock, many times
    /// over, from the scheduler and from another thread at once: a cancel
    /// before start (some lose the start window), the cancel of executing
    /// asynchronous operations that finish at once, suspensions and cap
    /// changes. Had one of them called back into the run on its thread,
    /// the lock's debug check would trap, and had it waited for a lock of
    /// Foundation's held by a thread waiting for the run's, the run would
    /// not end: every run ends, with a clean stream.
    @Test(arguments: 0..<6) func foundationCallsUnderTheLockNeverWaitForTheRun(_ round: Int) async {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        let other = b.queue("other", cap: .limit(3))
        var targets: [OperationID] = []
        for i in 0..<24 {
            targets.append(b.work("w\(i)", on: q, ms: 5 + i % 3))
            targets.append(b.async("a\(i)", on: other, ms: 10))
        }
        for step in 0..<12 {
            let at = 2 + step * 3
            b.at(at, step.isMultiple(of: 2) ? .suspend(q) : .resume(q))
            b.at(at + 1, .setCap(other, .limit(1 + step % 3)))
            b.at(at + 2, .cancel(targets[(step * 5 + round) % targets.count]))
        }
        b.at(60, .resume(q))
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 4))
        run.start()
        let ids = targets
        let canceller = Thread {
            for k in stride(from: round, to: ids.count, by: 3) {
                _ = run.perform(.cancel(ids[k]))
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        canceller.start()
        let events = await run.ended(timeout: 30)
        run.stop()
        #expect(Stream(events: events, scenario: scenario).outcome == .completed)
        expectCleanStream(events, scenario)
    }
}
