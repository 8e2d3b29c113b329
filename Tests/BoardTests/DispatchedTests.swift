import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// The dispatched spans of the timeline come from the board: after every
/// notification of recorded library runs, the operations a queue has
/// dispatched without a thread are exactly those whose "why is it not
/// running" says so; and in 18 downloads wait so while the pool ramps.
@Suite struct DispatchedTests {
    static let files = ["01-chain", "03-cancel", "18-hundred-downloads-sync", "23-suspend-resume"]

    static func recording(_ name: String) throws -> Recording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Recordings/\(name).jsonl")
        return try RecordingDecoder.decode(Array(try Data(contentsOf: url)))
    }

    @Test(arguments: files)
    func theBoardsDispatchedOperationsAreThoseWaitingForAThread(_ name: String) throws {
        let recording = try Self.recording(name)
        let scenario = recording.scenario
        var board = BoardState(scenario: scenario)
        var seen = 0
        for event in recording.events {
            board.apply(event)
            for q in scenario.queues.indices.map(QueueID.init) {
                let dispatched = Set(board.dispatchedWaiting(on: q))
                let expected = Set(
                    scenario.operations.indices.map(OperationID.init).filter {
                        scenario[operation: $0].queue == q && board[operation: $0].phase == .ready
                            && board.whyNotRunning($0) == [.dispatchedWaitingForThread]
                    })
                #expect(dispatched == expected, "\(name), seq \(event.seq)")
                seen += dispatched.count
            }
        }
        if name.hasPrefix("18") { #expect(seen > 0) }
    }

    @Test func downloadsWaitForAThreadIn18() throws {
        let recording = try Self.recording("18-hundred-downloads-sync")
        var lanes = TimelineLanes(scenario: recording.scenario)
        var board = BoardState(scenario: recording.scenario)
        for event in recording.events {
            board.apply(event)
            lanes.record(event)
            lanes.markDispatched(after: event, on: board)
        }
        let waited = lanes.lanes.filter { $0.dispatched != nil }
        #expect(waited.count >= 2)
        for lane in waited {
            let (ready, dispatched, started) = (lane.ready ?? .infinity, lane.dispatched!, lane.started ?? .infinity)
            #expect(ready <= dispatched && dispatched <= started)
        }
        // The first two had threads at once; later ones waited a download's time or more.
        #expect(lanes.lanes.prefix(2).allSatisfy { ($0.started ?? 0) - ($0.dispatched ?? 0) < 0.05 })
        #expect(waited.contains { ($0.started ?? 0) - ($0.dispatched ?? 0) >= 0.3 })
    }
}
