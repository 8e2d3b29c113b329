import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// `add A, B, …`: one `addOperations` call. Checked against plain
/// Foundation (`.ci/probes/run 20 batch onebyone batchbusy`, 20 of 20
/// each): four operations of different priorities added to a serial queue
/// in one call start veryHigh first; added one by one, the first added is
/// dispatched alone and starts first; a batch added behind a running
/// operation starts by priority too.
@Suite(.serialized) struct BatchAddTests {
    static let four = """
        queue q serial
        op normal on q work 20ms
        op low on q work 20ms priority low
        op top on q work 20ms priority veryHigh
        op bottom on q work 20ms priority veryLow
        """

    @Test(arguments: 0..<20) func aBatchOnASerialQueueStartsTheHighestPriorityFirst(_ round: Int) async throws {
        let s = try await runChecked(source: Self.four + "\nadd normal, low, top, bottom\n")
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["top", "normal", "low", "bottom"])
    }

    @Test(arguments: 0..<20) func addedOneByOneTheFirstStartsFirst(_ round: Int) async throws {
        // normal runs 200 ms (real, at ×20) while the other three are
        // added behind it: were it done before, the next would start alone.
        let s = try await runChecked(
            source: Self.four.replacingOccurrences(of: "normal on q work 20ms", with: "normal on q work 4s"))
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["normal", "top", "low", "bottom"])
    }

    @Test(arguments: 0..<10) func aTimedBatchBehindARunningOperationStartsByPriority(_ round: Int) async throws {
        let source = """
            queue q serial
            op busy on q work 100ms
            op normal on q work 20ms
            op low on q work 20ms priority low
            op top on q work 20ms priority veryHigh
            at 20ms add normal, low, top
            """
        let s = try await runChecked(source: source)
        #expect(s.outcome == RunOutcome.completed)
        #expect(s.startOrder == ["busy", "top", "normal", "low"])
    }

    @Test func theStartBatchIsOneActionAndOneChangeOfTheCount() async throws {
        let s = try await runChecked(source: Self.four + "\nadd normal, low, top, bottom\n")
        let ids = ["normal", "low", "top", "bottom"].map { OperationID(s.id($0)) }
        let actions = s.events.compactMap { e -> (Action, ActionOrigin)? in
            if case .action(let action, let origin, nil) = e.kind { return (action, origin) }
            return nil
        }
        #expect(actions.count == 1)
        #expect(actions.first?.0 == .addBatch(ids))
        #expect(actions.first?.1 == .startBatch(0))
        let counts = s.events.compactMap { e -> (Int, Int)? in
            if case .queue(_, .operationCount, .int(let old), .int(let new)) = e.kind, new > old { return (old, new) }
            return nil
        }
        #expect(counts.count == 1)
        #expect(counts.first?.0 == 0 && counts.first?.1 == 4)
        // Every operation is announced added (its initial isReady) before
        // the first of them is dispatched.
        let firstDispatch = try #require(s.events.first { if case .dispatched = $0.kind { true } else { false } })
        for name in ["normal", "low", "top", "bottom"] {
            let added = try #require(
                s.events.first {
                    if case .operation(let op, .isReady, nil, _) = $0.kind { op.index == s.id(name) } else { false }
                })
            #expect(added.seq < firstDispatch.seq)
        }
    }

    @Test func aTimedBatchIsOneActionOfItsLine() async throws {
        let source = """
            queue q max 2
            op a on q work 10ms
            op b on q work 10ms
            op c on q work 10ms
            at 10ms add b, c
            """
        let s = try await runChecked(source: source)
        #expect(s.outcome == RunOutcome.completed)
        let b = OperationID(s.id("b"))
        let c = OperationID(s.id("c"))
        let actions = s.events.compactMap { e -> Action? in
            if case .action(let action, .timed(0), nil) = e.kind { return action }
            return nil
        }
        #expect(actions == [.addBatch([b, c])])
    }

    /// `test_ExecutionOrder`'s shape: a batch whose first operation
    /// depends on the second; the dependency runs first.
    @Test(arguments: 0..<10) func aDependencyInsideTheBatchIsHonoured(_ round: Int) async throws {
        let source = """
            queue q
            op op1 on q work 10ms after dep
            op dep on q work 10ms
            add op1, dep
            """
        let s = try await runChecked(source: source)
        #expect(s.outcome == RunOutcome.completed)
        #expect(try #require(s.finished("dep")) < #require(s.started("op1")))
    }
}
