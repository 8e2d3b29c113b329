import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// The history gives back the board of any moment, whatever the checkpoints.
@Suite struct BoardHistoryTests {
    static let scenario = ThreeOperations.scenario(cap: 1)

    static func events() -> [LifecycleEvent] { ThreeOperations.script(cap: 1).events }

    static func recorded(interval: Int) -> BoardHistory {
        var live = BoardState(scenario: scenario)
        var history = BoardHistory(scenario: scenario, interval: interval)
        for event in events() {
            live.apply(event)
            history.append(event, boardAfter: live)
        }
        return history
    }

    @Test(arguments: [1, 2, 3, 5, 100])
    func everyMomentIsTheBoardOfThatManyEvents(interval: Int) {
        let history = Self.recorded(interval: interval)
        let all = Self.events()
        #expect(history.count == all.count)
        for n in 0...all.count {
            #expect(
                history.board(after: n) == BoardState(scenario: Self.scenario, replaying: Array(all.prefix(n))),
                "n = \(n)")
        }
        #expect(history.board(after: -3) == BoardState(scenario: Self.scenario))
        #expect(history.board(after: all.count + 9) == history.board(after: all.count))
    }

    @Test func columnChangesAreTheMomentsACardMoved() {
        let history = Self.recorded(interval: 4)
        let all = Self.events()
        for n in history.columnChanges {
            let before = history.board(after: n - 1)
            let after = history.board(after: n)
            let moved = Self.scenario.operations.indices.contains {
                before[operation: OperationID($0)].phase != after[operation: OperationID($0)].phase
            }
            #expect(moved, "event \(n)")
        }
        // The queue's own notifications move no card.
        #expect(!history.columnChanges.contains(1))
        #expect(history.previousChange(before: history.columnChanges[2]) == history.columnChanges[1])
        #expect(history.previousChange(before: 1) == 0)
        #expect(history.nextChange(after: history.columnChanges[0]) == history.columnChanges[1])
        #expect(history.nextChange(after: all.count) == nil)
        #expect(history.time(after: 0) == 0)
        #expect(history.time(after: all.count) == 0.8)
    }
}
