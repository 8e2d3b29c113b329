import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// Whatever its checkpoints (whole boards, changes, how often), the
/// history gives back at every position the board a fresh reduction of
/// that prefix gives, and its events are the events it was given.
@Suite struct BoardHistoryReplayTests {
    static func recorded(_ stream: HistoryStream, _ keeping: HistoryKeeping) -> BoardHistory {
        var live = BoardState(scenario: stream.scenario)
        var history = BoardHistory(
            scenario: stream.scenario, interval: keeping.interval, changesBetweenBoards: keeping.changesBetweenBoards)
        for event in stream.events {
            live.apply(event)
            history.append(event, boardAfter: live)
        }
        return history
    }

    @Test(arguments: HistoryStream.all, HistoryKeeping.all)
    func everyPositionIsTheReductionOfItsPrefix(_ stream: HistoryStream, _ keeping: HistoryKeeping) {
        let history = Self.recorded(stream, keeping)
        #expect(history.count == stream.events.count)
        #expect(Array(history.events) == stream.events)
        var reduced = BoardState(scenario: stream.scenario)
        #expect(history.board(after: 0) == reduced)
        for (n, event) in zip(1..., stream.events) {
            reduced.apply(event)
            // One issue at the first wrong board, not one per board after it.
            guard history.board(after: n) == reduced, history.time(after: n) == event.time else {
                Issue.record("the board or the time after \(n) events is not the reduction's")
                return
            }
        }
    }

    @Test(arguments: HistoryStream.all, HistoryKeeping.all)
    func randomSeeksLandOnTheBoardsOfFreshReductions(_ stream: HistoryStream, _ keeping: HistoryKeeping) {
        let history = Self.recorded(stream, keeping)
        var random = SplitMix64(seed: 0x5EE4_0000 + UInt64(stream.events.count))
        var n = history.count
        for _ in 0..<150 {
            // Mostly short steps either way (stepping through the history),
            // sometimes a jump anywhere.
            n =
                Int.random(in: 0..<4, using: &random) == 0
                ? Int.random(in: 0...history.count, using: &random)
                : min(max(0, n + Int.random(in: -40...40, using: &random)), history.count)
            let fresh = BoardState(scenario: stream.scenario, replaying: Array(stream.events.prefix(n)))
            guard history.board(after: n) == fresh else {
                Issue.record("the board after \(n) events is not the reduction's")
                return
            }
        }
    }

    /// A seek that writes over the board of the moment shown before (as a
    /// step through history does) lands on the same boards, whether that
    /// board's cards were its own or still shared with a copy.
    @Test(arguments: HistoryStream.all, HistoryKeeping.all)
    func seeksInPlaceLandOnTheBoardsOfFreshReductions(_ stream: HistoryStream, _ keeping: HistoryKeeping) {
        let history = Self.recorded(stream, keeping)
        var random = SplitMix64(seed: 0x5EE4_1000 + UInt64(stream.events.count))
        var board = history.board(after: history.count)
        var kept: [BoardState] = []
        for step in 0..<150 {
            let n =
                Int.random(in: 0..<4, using: &random) == 0
                ? Int.random(in: 0...history.count, using: &random)
                : min(
                    max(0, board.lastSeqPosition(in: history) + Int.random(in: -40...40, using: &random)), history.count
                )
            if step % 5 == 0 { kept.append(board) }
            history.seek(&board, to: n)
            let fresh = BoardState(scenario: stream.scenario, replaying: Array(stream.events.prefix(n)))
            guard board == fresh else {
                Issue.record("the board seeked in place to \(n) events is not the reduction's")
                return
            }
        }
        // The copies kept were not written over.
        for copy in kept {
            #expect(copy == history.board(after: copy.lastSeqPosition(in: history)))
        }
    }

    @Test func theWavesKeepBothWholeBoardsAndChanges() {
        for keeping in [HistoryKeeping(interval: 16, changesBetweenBoards: nil), HistoryKeeping.all[2]] {
            let kinds = Self.recorded(.waves, keeping).checkpointKinds
            #expect(kinds.whole > 1 && kinds.changes > kinds.whole, "\(keeping.testDescription): \(kinds)")
        }
    }

    @Test func columnChangesDoNotDependOnTheCheckpoints() {
        for stream in HistoryStream.all {
            let changes = HistoryKeeping.all.map { Self.recorded(stream, $0).columnChanges }
            #expect(changes.allSatisfy { $0 == changes[0] }, "\(stream.name)")
            #expect(!changes[0].isEmpty)
        }
    }
}

extension BoardState {
    /// How many of `history`'s events this board has applied: the position
    /// of its last event (0 before any).
    fileprivate func lastSeqPosition(in history: BoardHistory) -> Int {
        guard lastSeq > 0 else { return 0 }
        return (history.events.indices.firstIndex { history.events[$0].seq == lastSeq } ?? -1) + 1
    }
}
