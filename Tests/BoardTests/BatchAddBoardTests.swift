import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

@testable import Board

/// A recorded run of lesson 35 on the board: the start's batch is one
/// entry of the action log (one `addOperations` call), the three adds of
/// `apart` are three.
@Suite struct BatchAddBoardTests {
    static func recording() throws -> Recording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Recordings/35-one-call-or-one-by-one.jsonl")
        return try RecordingDecoder.decode(Array(try Data(contentsOf: url)))
    }

    @Test func theBatchIsOneEntryAndEachAddOneMore() throws {
        let recording = try Self.recording()
        #expect(recording.problem == nil)
        let scenario = recording.scenario
        let board = BoardState(scenario: scenario, replaying: recording.events)
        let entries = (0..<board.actions.count).map { board.actions[$0] }
        let ids = { (names: [String]) in names.map { scenario.operationID(named: $0)! } }
        #expect(
            entries.map(\.action) == [
                .addBatch(ids(["batch-normal", "batch-low", "batch-top"])), .add(ids(["alone-normal"])[0]),
                .add(ids(["alone-low"])[0]), .add(ids(["alone-top"])[0]),
            ])
        #expect(entries.first?.origin == .startBatch(0))
        // The three of the batch were added at one moment, by one call.
        let added = ids(["batch-normal", "batch-low", "batch-top"]).map { board[operation: $0].addedAt }
        #expect(Set(added).count == 1)
    }
}
