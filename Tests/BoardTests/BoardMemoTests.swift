import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// What a board keeps for its frames (the order of each phase, each queue's
/// ready operations in dispatch order) answers what the cards say when
/// asked the long way, at every moment of the history streams.
@Suite struct BoardMemoTests {
    @Test(arguments: HistoryStream.all)
    func theKeptOrdersAreTheCardsOrders(_ stream: HistoryStream) {
        var board = BoardState(scenario: stream.scenario)
        for (n, event) in zip(1..., stream.events) {
            board.apply(event)
            // Asked before and after a copy changes: the memo follows.
            for phase in Phase.allCases {
                let slow = board.cards.filter { $0.phase == phase }
                    .sorted { ($0.phaseSeq, $0.id.index) < ($1.phaseSeq, $1.id.index) }.map(\.id)
                guard board.operations(in: phase) == slow else {
                    Issue.record("after \(n) events the order of \(phase) is not the cards'")
                    return
                }
            }
            for card in board.cards where card.phase == .ready || card.phase == .pending {
                let others = board.cards.filter {
                    $0.queue == card.queue && $0.id != card.id && $0.phase == .ready && $0.dispatchedAt == nil
                }
                let ahead = others.filter { $0.isAhead(of: card) }.count
                let higher = others.filter { $0.dispatchBucket < card.dispatchBucket }.count
                guard board.readyAhead(of: card) == ahead, board.readyHigher(than: card) == higher else {
                    Issue.record("after \(n) events \(card.name)'s place among the ready is not the cards'")
                    return
                }
            }
        }
    }

    /// A copy made before an event keeps its own answers.
    @Test func aCopyKeepsItsOwnOrder() {
        let stream = HistoryStream.three
        let before = BoardState(scenario: stream.scenario)
        let waiting = before.operations(in: .notAdded)
        #expect(waiting.count == stream.scenario.operations.count)
        var board = before
        for event in stream.events { board.apply(event) }
        #expect(board.operations(in: .notAdded) != waiting)
        #expect(before.operations(in: .notAdded) == waiting)
    }
}
