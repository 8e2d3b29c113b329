import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

@testable import Board

/// "Dispatched, waiting for a thread" is drawn only from `dispatched`
/// events: in a recording that has them (18, recorded with format 2) the
/// board's waiting cards, the inspector's reason and the timeline's `▒`
/// spans are exactly the operations dispatched and not started; in
/// recordings of format 1, which have none, nothing claims it.
@Suite struct DispatchedTests {
    static func recording(_ name: String) throws -> Recording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Recordings/\(name).jsonl")
        return try RecordingDecoder.decode(Array(try Data(contentsOf: url)))
    }

    @Test func waitingForAThreadIsExactlyDispatchedAndNotStarted() throws {
        let recording = try Self.recording("18-hundred-downloads-sync-v2")
        let scenario = recording.scenario
        #expect(InvariantChecker.check(recording.events, scenario: scenario) == [])
        var board = BoardState(scenario: scenario)
        var dispatched = Set<Int>()
        var started = Set<Int>()
        var mostWaiting = 0
        for event in recording.events {
            board.apply(event)
            switch event.kind {
            case .dispatched(let op): dispatched.insert(op.index)
            case .operation(let op, .isExecuting, _, .bool(true)): started.insert(op.index)
            default: break
            }
            let waiting = Set(
                scenario.operations.indices.filter {
                    board.whyNotRunning(OperationID($0)) == [.dispatchedWaitingForThread]
                })
            #expect(waiting == dispatched.subtracting(started), "seq \(event.seq)")
            #expect(board.queues[0].waitingForThread == waiting.count, "seq \(event.seq)")
            mostWaiting = max(mostWaiting, waiting.count)
        }
        // cap 4, synchronous work on two cores: the queue dispatched four,
        // and threads for some came only later.
        #expect(mostWaiting >= 1)
        #expect(dispatched.count == scenario.operations.count)
    }

    @Test func theTimelineSpansComeFromTheEvents() throws {
        let recording = try Self.recording("18-hundred-downloads-sync-v2")
        let lanes = TimelineLanes(scenario: recording.scenario, events: recording.events)
        var dispatchTimes: [Int: Double] = [:]
        for event in recording.events {
            if case .dispatched(let op) = event.kind { dispatchTimes[op.index] = event.time }
        }
        for (i, lane) in lanes.lanes.enumerated() {
            #expect(lane.dispatched == dispatchTimes[i])
            let (ready, dispatched, started) = (
                lane.ready ?? .infinity, try #require(lane.dispatched), lane.started ?? .infinity
            )
            #expect(ready <= dispatched && dispatched <= started)
        }
        // Some downloads waited a download's time or more for a thread.
        #expect(lanes.lanes.contains { ($0.started ?? 0) - ($0.dispatched ?? 0) >= 0.3 })
    }

    @Test(arguments: ["01-chain", "03-cancel", "18-hundred-downloads-sync", "23-suspend-resume"])
    func aRecordingWithoutDispatchesClaimsNone(_ name: String) throws {
        let recording = try Self.recording(name)
        let scenario = recording.scenario
        var board = BoardState(scenario: scenario)
        for event in recording.events {
            board.apply(event)
            for op in scenario.operations.indices.map(OperationID.init) {
                #expect(!board.whyNotRunning(op).contains(.dispatchedWaitingForThread), "\(name), seq \(event.seq)")
            }
        }
        let lanes = TimelineLanes(scenario: scenario, events: recording.events)
        #expect(lanes.lanes.allSatisfy { $0.dispatched == nil })
        #expect(!TimelineText.render(lanes, width: 100).contains("▒"))
        #expect(InvariantChecker.check(recording.events, scenario: scenario, observesDispatch: false) == [])
    }
}
