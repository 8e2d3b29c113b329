import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// A dependency cycle an `at TIME cancel` breaks runs as Foundation runs
/// it (`.ci/probes/run 20 cyclebreak cyclenone`, 20 of 20: cancelled,
/// op3 turned ready with its dependency unfinished, finished without
/// running, then op2 and op1 ran; nothing cancelled, none ran): until the
/// cancel every operation of the cycle waits, whatever else runs.
@Suite(.serialized) struct CycleBreakTests {
    @Test(arguments: 0..<10) func nothingOfTheCycleStartsBeforeTheCancelThenItUnwinds(_ round: Int) async throws {
        let s = try await runChecked(
            source: """
                queue q max 2
                op a on q work 10ms after b
                op b on q work 10ms after c
                op c on q work 10ms after a
                op other on q work 10ms
                at 1s cancel c
                """)
        #expect(s.outcome == RunOutcome.completed)
        let cancel = try #require(s.actionSeq(0))
        #expect(try #require(s.seq("c", .isReady)) > cancel)
        #expect(try #require(s.started("b")) > cancel)
        #expect(s.startOrder.filter { $0 != "other" } == ["b", "a"])
        #expect(s.finished("other") != nil)
        #expect(try #require(s.finished("c")) < #require(s.started("b")))
        #expect(try #require(s.finished("b")) < #require(s.started("a")))
    }
}
