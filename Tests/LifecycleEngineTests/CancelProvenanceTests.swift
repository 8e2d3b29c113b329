import Board
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// Who cancelled an operation, on the real engine: the board traces each
/// first `isCancelled` to an action that covers it (its own `cancel`, a
/// cancel-all of its queue), whatever else the engine's threads announce
/// in between. No timing is asserted: which operations the cancel-all
/// finds is the engine's business; each one cancelled must be traced.
@Suite(.serialized) struct CancelProvenanceTests {
    @Test(arguments: 0..<5) func everyCancelIsTracedToTheActionThatCoversIt(_ round: Int) async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1))
        b.work("a", on: q, ms: 4000)
        let victim = b.work("victim", on: q, ms: 100)
        b.work("w1", on: q, ms: 10)
        b.work("w2", on: q, ms: 10)
        b.at(50, .cancel(victim))
        b.at(2000, .cancelAll(q))
        let s = await runChecked(b)
        let board = BoardState(scenario: s.scenario, replaying: s.events)
        #expect(board[operation: victim].isCancelled)
        for card in board.cards where card.isCancelled {
            let index = try #require(card.cancelledBy, "\(card.name) was cancelled by nothing the board found")
            let action = board.actions[index].action
            #expect(action == .cancel(card.id) || action == .cancelAll(card.queue), "\(card.name): \(action)")
        }
        #expect(board.actions[try #require(board[operation: victim].cancelledBy)].action == .cancel(victim))
    }
}
