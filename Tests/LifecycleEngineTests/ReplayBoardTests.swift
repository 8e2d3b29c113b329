import Board
import EventFixtures
import Foundation
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// What a replay shows is what the live interface showed: the board the
/// interface builds batch by batch from a real run equals the board a
/// replay of that run's recording gives at the end of every batch (where
/// the live screen was drawn) and at the end. Times as a recording keeps
/// them, to the millisecond.
@Suite("replay boards")
struct ReplayBoardTests {
    /// The library files whose runs end without a main queue served here
    /// (this test's runner serves none; the tmux tests open those).
    static let files = Library.offTheMainQueue

    @Test("the live board at every batch equals the replay's at the same notification", arguments: files)
    func liveEqualsReplay(_ file: String) throws {
        let scenario = try Library.scenario(file)
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        run.start()
        var live = BoardState(scenario: scenario)
        var events: [LifecycleEvent] = []
        var drawn: [(count: Int, board: BoardState)] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let batch = run.takeEvents()
            for event in batch {
                let kept = RecordingFixture.toMillisecond(event)
                live.apply(kept)
                events.append(event)
            }
            if !batch.isEmpty { drawn.append((events.count, live)) }
            if live.outcome != nil { break }
            Thread.sleep(forTimeInterval: 0.002)
        }
        run.stop()
        #expect(live.outcome != nil, "\(file) did not end")
        #expect(drawn.count > 1)
        let path = Library.root.appendingPathComponent("scenarios/\(file)").path
        let source = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let header = JSONLineEncoder.Header(opscope: "0.1", language: 1, path: file, source: source)
        let bytes = RecordingFixture.recording(events, of: scenario, header: header)
        let recording = try #require(RecordingFixture.decode(bytes))
        var history = BoardHistory(scenario: recording.scenario)
        var replayed = BoardState(scenario: recording.scenario)
        for event in recording.events {
            replayed.apply(event)
            history.append(event, boardAfter: replayed)
        }
        for (count, board) in drawn where history.board(after: count) != board {
            Issue.record("\(file): the boards differ after \(count) of \(events.count) notifications")
            break
        }
        #expect(replayed == live)
    }
}
