import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// swift-corelibs-foundation's own `TestOperationQueue`
/// (Tests/Foundation/TestOperationQueue.swift), the cases the language
/// can hold, written as scenarios and run on the real engine through
/// opscope's run. Each test is named for the case it comes from and
/// asserts what that case asserts (an order Foundation promises, an
/// ending), never a time. Left out: the cases about `OperationQueue.current`,
/// `underlyingQueue`, a custom `isReady`, the main queue's identity, an
/// operation's `dependencies` array, a queue's deallocation and a cancel
/// of an operation in no queue that nothing starts (the language has none:
/// an operation is added or started by hand).
@Suite(.serialized) struct FoundationQueueTestsTranslated {
    /// `test_OperationCount`: a queue counts the operations it holds: 1
    /// with op1, 0 once it finished, 2 with op2 and op3 added after. Here
    /// each count the queue announces is what was added less what
    /// finished, whatever the threads' timing; and it ends at 0.
    @Test("test_OperationCount", arguments: 0..<5) func operationCount(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue q
                op op1 on q blocks 1 x 10ms
                op op2 on q blocks 1 x 500ms
                op op3 on q blocks 1 x 500ms
                at 1s add op2
                at 1s add op3
                """)
        #expect(s.outcome == RunOutcome.completed)
        var added = 0
        var finished = 0
        var counts: [Int] = []
        for e in s.events {
            switch e.kind {
            case .operation(_, .isReady, nil, _): added += 1
            case .operation(_, .isFinished, _, .bool(true)): finished += 1
            case .queue(_, .operationCount, _, .int(let n)):
                #expect(n == added - finished, "seq \(e.seq): \(n) counted, \(added) added, \(finished) finished")
                counts.append(n)
            default: break
            }
        }
        #expect(counts.first == 1)
        #expect(counts.last == 0)
    }

    /// `test_OperationPriorities`: four operations (normal, low, veryHigh,
    /// veryLow) in one `addOperations` call on a serial queue run veryHigh,
    /// normal, low, veryLow.
    @Test("test_OperationPriorities", arguments: 0..<10) func operationPriorities(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial
                op operation1 on queue blocks 1 x 5ms priority normal
                op operation2 on queue blocks 1 x 5ms priority low
                op operation3 on queue blocks 1 x 5ms priority veryHigh
                op operation4 on queue blocks 1 x 5ms priority veryLow
                add operation1, operation2, operation3, operation4
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["operation3", "operation1", "operation2", "operation4"])
    }

    /// `test_isExecutingWorks`: an operation is executing while its block
    /// runs, and not once it finished.
    @Test("test_isExecutingWorks") func isExecutingWorks() async throws {
        let s = try await runChecked(source: "queue queue\nop op on queue blocks 1 x 10ms\n")
        let started = try #require(s.started("op"))
        let block = try #require(
            s.events.first { if case .block(_, 0, .started, _) = $0.kind { true } else { false } })
        let stopped = try #require(s.seq("op", .isExecuting, false))
        #expect(started < block.seq)
        #expect(block.seq < stopped)
        #expect(try #require(s.finished("op")) > stopped)
    }

    /// `test_AsyncOperation`: an asynchronous operation started by hand is
    /// executing, then finished and no longer executing.
    @Test("test_AsyncOperation") func asyncOperation() async throws {
        let s = try await runChecked(source: "op operation async 100ms\nat 0ms start operation\n")
        #expect(s.outcome == RunOutcome.completed)
        let started = try #require(s.started("operation"))
        let stopped = try #require(s.seq("operation", .isExecuting, false))
        #expect(started < stopped)
        #expect(try #require(s.finished("operation")) > started)
    }

    /// `test_SyncOperationWithoutAQueue`: `start()` of a synchronous
    /// operation in no queue runs it before it returns: when the call
    /// returns, it ran and finished.
    @Test("test_SyncOperationWithoutAQueue") func syncOperationWithoutAQueue() async throws {
        let s = try await runChecked(source: "op operation work 50ms\nat 0ms start operation\n")
        #expect(s.outcome == RunOutcome.completed)
        let returned = try #require(
            s.events.first { if case .startCall(_, .returned) = $0.kind { true } else { false } })
        #expect(try #require(s.started("operation")) < returned.seq)
        #expect(try #require(s.finished("operation")) < returned.seq)
    }

    /// `test_CancelOneOperation`: five operations in one call on a serial
    /// queue; the third, cancelled right after, never runs. (The first two
    /// sleep 2 s, as there: the cancel comes long before the third's turn.)
    @Test("test_CancelOneOperation", arguments: 0..<5) func cancelOneOperation(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial
                op o0 on queue blocks 1 x 2s
                op o1 on queue blocks 1 x 2s
                op o2 on queue blocks 1 x 2s
                op o3 on queue blocks 1 x 10ms
                op o4 on queue blocks 1 x 10ms
                add o0, o1, o2, o3, o4
                at 0ms cancel o2
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(!s.startOrder.contains("o2"))
        #expect(s.finished("o2") != nil)
    }

    /// `test_CancelOperationsOfSpecificQueuePriority`: two high and three
    /// normal operations in one call on a serial queue; the normal ones,
    /// cancelled right after, never run, and the high ones run in order.
    @Test("test_CancelOperationsOfSpecificQueuePriority", arguments: 0..<5)
    func cancelOperationsOfSpecificQueuePriority(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial
                op operation1 on queue blocks 1 x 2s priority high
                op operation2 on queue blocks 1 x 2s priority high
                op operation3 on queue blocks 1 x 1ms priority normal
                op operation4 on queue blocks 1 x 1ms priority normal
                op operation5 on queue blocks 1 x 1ms priority normal
                add operation1, operation2, operation3, operation4, operation5
                at 0ms cancel operation3
                at 0ms cancel operation4
                at 0ms cancel operation5
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["operation1", "operation2"])
    }

    /// `test_CancelDependency`: op1 cancelled before it is added; op2,
    /// which depends on it, runs; op1 does not.
    @Test("test_CancelDependency", arguments: 0..<5) func cancelDependency(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial
                op op1 on queue blocks 1 x 10ms
                op op2 on queue blocks 1 x 10ms after op1
                at 0ms cancel op1
                at 10ms add op1
                at 10ms add op2
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["op2"])
        #expect(s.cancelled("op1"))
    }

    /// `test_Deadlock`: on a serial queue, op1 (added first) depends on op2;
    /// both run, op2 first.
    @Test("test_Deadlock", arguments: 0..<5) func deadlock(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial
                op op1 on queue blocks 1 x 10ms after op2
                op op2 on queue blocks 1 x 10ms
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["op2", "op1"])
    }

    /// `test_CrossQueueDependency`: op1 on one queue depends on op2 on
    /// another; both run, op2's finish first.
    @Test("test_CrossQueueDependency", arguments: 0..<5) func crossQueueDependency(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue
                queue queue2
                op op1 on queue blocks 1 x 10ms after op2
                op op2 on queue2 blocks 1 x 10ms
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.finished("op2")) < #require(s.started("op1")))
    }

    /// `test_CancelWhileSuspended`: both operations of a suspended queue
    /// cancelled, then the queue resumed: both finish, cancelled, without
    /// running.
    @Test("test_CancelWhileSuspended", arguments: 0..<5) func cancelWhileSuspended(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue suspended
                op op1 on queue blocks 1 x 10ms
                op op2 on queue blocks 1 x 10ms
                at 10ms cancel op1
                at 10ms cancel op2
                at 20ms resume queue
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder.isEmpty)
        for name in ["op1", "op2"] {
            #expect(s.cancelled(name))
            #expect(s.finished(name) != nil)
        }
    }

    /// `test_OperationOrder`: five operations of one priority, added one by
    /// one to a suspended serial queue, run in the order added once it
    /// resumes.
    @Test("test_OperationOrder", arguments: 0..<5) func operationOrder(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial suspended
                op op1 on queue blocks 1 x 1ms priority normal
                op op2 on queue blocks 1 x 1ms priority normal
                op op3 on queue blocks 1 x 1ms priority normal
                op op4 on queue blocks 1 x 1ms priority normal
                op op5 on queue blocks 1 x 1ms priority normal
                at 10ms resume queue
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["op1", "op2", "op3", "op4", "op5"])
    }

    /// `test_OperationOrder2`: veryLow to veryHigh, added one by one to a
    /// suspended serial queue, run from veryHigh down once it resumes.
    @Test("test_OperationOrder2", arguments: 0..<5) func operationOrder2(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue serial suspended
                op op1 on queue blocks 1 x 1ms priority veryLow
                op op2 on queue blocks 1 x 1ms priority low
                op op3 on queue blocks 1 x 1ms priority normal
                op op4 on queue blocks 1 x 1ms priority high
                op op5 on queue blocks 1 x 1ms priority veryHigh
                at 10ms resume queue
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["op5", "op4", "op3", "op2", "op1"])
    }

    /// `test_ExecutionOrder`: op1 and its dependency in one call (op1
    /// first), then op2 alone: the dependency runs before op1, and all
    /// three run.
    @Test("test_ExecutionOrder", arguments: 0..<5) func executionOrder(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue
                op op1 on queue blocks 1 x 5ms after op1Dependency
                op op1Dependency on queue blocks 1 x 5ms
                op op2 on queue blocks 1 x 5ms
                add op1, op1Dependency
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.finished("op1Dependency")) < #require(s.started("op1")))
        #expect(s.started("op2") != nil)
    }

    /// `test_WaitUntilFinished`: the main thread waits for every operation
    /// of queue2, whose op2 depends on op1 of queue1; when the wait returns,
    /// queue2 holds none.
    @Test("test_WaitUntilFinished") func waitUntilFinished() async throws {
        let s = try await runChecked(
            source: """
                queue queue1
                queue queue2
                op op1 on queue1 blocks 1 x 200ms
                op op2 on queue2 blocks 1 x 1ms after op1
                at 0ms wait-all queue2
                """)
        #expect(s.outcome == RunOutcome.completed)
        let returned = try #require(
            s.events.first { if case .mainThreadWait(_, .returned) = $0.kind { true } else { false } })
        #expect(try #require(s.finished("op2")) < returned.seq)
        let queue2 = try #require(s.scenario.queueID(named: "queue2"))
        let lastCount = s.events.last {
            if case .queue(queue2, .operationCount, _, _) = $0.kind { $0.seq < returned.seq } else { false }
        }
        if case .queue(_, _, _, let count)? = lastCount?.kind { #expect(count == .int(0)) } else { Issue.record() }
    }

    /// `test_OperationWaitUntilFinished`: `waitUntilFinished()` on an
    /// operation returns once it finished.
    @Test("test_OperationWaitUntilFinished") func operationWaitUntilFinished() async throws {
        let s = try await runChecked(
            source: """
                queue queue1
                op op1 on queue1 blocks 1 x 200ms
                at 0ms wait op1
                """)
        #expect(s.outcome == RunOutcome.completed)
        let returned = try #require(
            s.events.first { if case .mainThreadWait(_, .returned) = $0.kind { true } else { false } })
        #expect(try #require(s.finished("op1")) < returned.seq)
    }

    /// `test_DependencyCycleBreak`: op1 → op2 → op3 → op1, op3 cancelled
    /// right after the adds: op3 finishes without running, then op2 runs
    /// (and sees op3 cancelled), then op1 (and sees op2 finished). The file
    /// reads with a warning naming the cancel; checked with plain
    /// Foundation (`.ci/probes/run 20 cyclebreak`, 20 of 20).
    @Test("test_DependencyCycleBreak", arguments: 0..<20) func dependencyCycleBreak(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue1
                op op1 on queue1 blocks 1 x 5ms after op2
                op op2 on queue1 blocks 1 x 5ms after op3
                op op3 on queue1 blocks 1 x 5ms after op1
                at 0ms cancel op3
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["op2", "op1"])
        let op3Cancelled = try #require(s.seq("op3", .isCancelled))
        #expect(try op3Cancelled < #require(s.started("op2")))
        #expect(try #require(s.finished("op3")) < #require(s.started("op2")))
        #expect(try #require(s.finished("op2")) < #require(s.started("op1")))
    }

    /// `test_Lifecycle`: op1 depends on op2; op2 is cancelled while it
    /// runs and, not looking at the flag, runs to its end; then op1 runs.
    /// The case waits for op2 to start before it cancels; a file cannot, so
    /// the cancel comes 2 s into op2's 5 s (100 ms of real time at the
    /// test's speed), and a run whose threads were slower than that shows
    /// another case (op2 cancelled before it started) and is not judged.
    @Test("test_Lifecycle", arguments: 0..<5) func lifecycle(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue
                op op1 on queue blocks 1 x 100ms after op2
                op op2 on queue blocks 1 x 5s ignores-cancel
                at 2s cancel op2
                """)
        #expect(s.outcome == RunOutcome.completed)
        let cancel = try #require(s.actionSeq(0))
        guard let op2Started = s.started("op2"), op2Started < cancel else { return }
        let returned = try #require(
            s.events.first { if case .block(_, 0, .returned, _) = $0.kind { true } else { false } })
        #expect(returned.seq > cancel)
        #expect(try #require(s.finished("op2")) < #require(s.started("op1")))
    }

    /// `test_ConcurrentOperations`: on a queue of cap 2, the first
    /// operation waits for the second to run: both run at once. The first
    /// is asynchronous here, in flight without a worker thread, so that
    /// the second never waits for a thread the rest of the test run holds.
    @Test("test_ConcurrentOperations", arguments: 0..<5) func concurrentOperations(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue max 2
                op first on queue async 5s
                op second on queue blocks 1 x 1ms
                """)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.started("second")) < #require(s.finished("first")))
    }

    /// `test_ConcurrentOperationsWithDependenciesAndCompletions`: op1 and
    /// op1Dependency in one call, op2 alone after, on a queue of cap 2: op1
    /// waits until both others ran, and its completion block runs. op1 is
    /// asynchronous here, for the reason `test_ConcurrentOperations` says.
    @Test("test_ConcurrentOperationsWithDependenciesAndCompletions", arguments: 0..<5)
    func concurrentOperationsWithDependenciesAndCompletions(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue queue max 2
                op op1 on queue async 5s completion
                op op1Dependency on queue blocks 1 x 1ms
                op op2 on queue blocks 1 x 1ms
                add op1, op1Dependency
                """)
        #expect(s.outcome == RunOutcome.completed)
        let op1Finished = try #require(s.finished("op1"))
        #expect(try #require(s.started("op1Dependency")) < op1Finished)
        #expect(try #require(s.started("op2")) < op1Finished)
        #expect(
            s.events.contains { if case .completion(OperationID(s.id("op1")), _) = $0.kind { true } else { false } })
    }

    /// `test_BlockOperationAddExecutionBlock`: a block operation with two
    /// execution blocks runs both.
    @Test("test_BlockOperationAddExecutionBlock") func blockOperationAddExecutionBlock() async throws {
        let s = try await runChecked(source: "queue queue\nop blockOperation on queue blocks 2 x 5ms\n")
        #expect(s.outcome == RunOutcome.completed)
        let blocks = s.events.compactMap { e -> Int? in
            if case .block(_, let index, .returned, _) = e.kind { return index }
            return nil
        }
        #expect(blocks == [0, 1])
    }
}
