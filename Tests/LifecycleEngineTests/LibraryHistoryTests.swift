import EventFixtures
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// Real runs of library scenarios, recorded as the interface records them
/// (the live board applied, then appended): at every position, and after
/// any seek, the history gives the board a fresh reduction of that prefix
/// gives, with small checkpoint intervals and with the default ones.
@Suite("history of library runs")
struct LibraryHistoryTests {
    /// Every library scenario but those on the main queue, which a test
    /// runner need not service (the tmux tests step through those).
    static let files = Library.offTheMainQueue

    @Test(arguments: files)
    func everyMomentOfARealRunIsItsReduction(_ file: String) async throws {
        let scenario = try Library.scenario(file)
        #expect(scenario.queues.allSatisfy { !$0.isMain })
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 16))
        run.start()
        let events = await run.ended(timeout: 60)
        run.stop()
        guard case .end = events.last?.kind else {
            Issue.record("\(file) did not end")
            return
        }
        var random = SplitMix64(seed: UInt64(events.count))
        for (interval, changes) in [(1, nil), (4, 3), (16, nil), (nil, nil)] as [(Int?, Int?)] {
            var live = BoardState(scenario: scenario)
            var history = BoardHistory(scenario: scenario, interval: interval, changesBetweenBoards: changes)
            var boards = [live]
            for event in events {
                live.apply(event)
                history.append(event, boardAfter: live)
                boards.append(live)
            }
            #expect(Array(history.events) == events)
            let wrong = boards.indices.first { history.board(after: $0) != boards[$0] }
            #expect(wrong == nil, "interval \(String(describing: interval)): the board after \(wrong ?? 0) events")
            for _ in 0..<50 {
                let n = Int.random(in: 0...events.count, using: &random)
                #expect(
                    history.board(after: n) == BoardState(scenario: scenario, replaying: Array(events.prefix(n))),
                    "interval \(String(describing: interval)): seek to \(n)")
            }
        }
    }
}
