import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// Whether the main dispatch queue is serviced while tests run.
func mainQueueIsServiced() async -> Bool {
    await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
        let once = Once()
        DispatchQueue.main.async { once.run { c.resume(returning: true) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { once.run { c.resume(returning: false) } }
    }
}

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    func run(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if !done {
            done = true
            body()
        }
    }
}

@Suite(.serialized) struct MainQueueTests {
    @Test func mainQueueActionsAreIgnoredWithAReason() async {
        var b = ScenarioBuilder()
        let ui = b.queue("ui", main: true)
        b.at(0, .suspend(ui))
        b.at(0, .setCap(ui, .limit(3)))
        b.at(0, .cancelAll(ui))
        let scenario = b.scenario
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        run.start()
        let events = await run.ended(timeout: 10)
        run.stop()
        let reasons = events.compactMap { e -> ActionRefusal? in
            if case .action(_, _, let why) = e.kind { return why }
            return nil
        }
        #expect(
            reasons == [
                .mainQueueIgnores(.isSuspended), .mainQueueIgnores(.maxConcurrentOperationCount),
                .mainQueueIgnores(.cancelAllOperations),
            ])
        #expect(reasons.allSatisfy { $0.text.hasPrefix("OperationQueue.main ignores") })
        #expect(
            !events.contains {
                if case .queue(_, .isSuspended, _, _) = $0.kind { return true }
                return false
            })
    }

    /// The main queue is serviced under `swift test` here (checked first:
    /// if it were not, the test fails, it does not pass unseen).
    @Test(arguments: 0..<20) func mainQueueOperationsRunOnTheMainThreadOneAtATime(_ round: Int) async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let ui = b.queue("ui", main: true)
        let bg = b.queue("bg")
        let a = b.work("a", on: bg, ms: 20)
        b.work("m1", on: ui, ms: 20, after: [a])
        b.op("m2", on: ui, .blocks([.milliseconds(10), .milliseconds(10)]))
        b.async("m3", on: ui, ms: 20)
        let s = await runChecked(b)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.peak("ui") == 1)
        let threads = s.events.compactMap { e -> ThreadTag? in
            if case .block(_, _, _, let thread) = e.kind { return thread }
            return nil
        }
        // Under `swift test` on Linux the main queue IS serviced, but not by
        // the process's main thread (Thread.isMainThread is false even on
        // the MainActor), so ThreadTag.main cannot be asserted here: that is
        // left to the process-level tests (opscope serves the main queue
        // from the main thread's run loop). One thread, and the same one
        // the main actor runs on:
        #expect(threads.count == 4 && Set(threads).count == 1)
        let mainActorIsMainThread = await MainActor.run { Thread.isMainThread }
        #expect(threads.allSatisfy(\.isMain) == mainActorIsMainThread)
        #expect(try #require(s.started("m1")) > #require(s.finished("a")))
    }

    /// The main queue dispatches one operation at a time: the next only
    /// once the one before has finished.
    @Test func theMainQueueDispatchesOneAtATime() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let ui = b.queue("ui", main: true)
        for i in 1...3 { b.work("m\(i)", on: ui, ms: 50) }
        let s = await runChecked(b, speed: 4)
        #expect(
            DispatchTests.dispatchesAndStarts(s) == [
                "m1 dispatched", "m1 started", "m2 dispatched", "m2 started", "m3 dispatched", "m3 started",
            ])
        #expect(try #require(s.finished("m1")) < #require(DispatchTests.dispatchSeq(s, "m2")))
    }
}
