import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// One fan-out feeds a stream to several readers: each gets every batch,
/// in the order the readers were named, and is read into in place.
@Suite struct EventFanOutTests {
    /// Notes what it read.
    struct Noting: EventReader {
        var seqs: [Int] = []

        mutating func read(_ batch: [LifecycleEvent]) {
            seqs += batch.map(\.seq)
        }
    }

    struct Root {
        var live: LiveBoard
        var lanes: TimelineLanes
        var first = Noting()
        var second = Noting()
        var absent: Noting? = nil
        var other = 0
    }

    static let scenario = ThreeOperations.scenario(cap: 1)
    static let events = ThreeOperations.script(cap: 1).events

    @Test func everyReaderGetsEveryBatchInOrder() {
        var root = Root(live: LiveBoard(scenario: Self.scenario), lanes: TimelineLanes(scenario: Self.scenario))
        let fanOut = EventFanOut<Root>().reading(\.live).reading(\.lanes).reading(\.first).reading(\.second)
            .reading(\.absent)
        var rest = Self.events[...]
        while !rest.isEmpty {
            fanOut.read(Array(rest.prefix(4)), into: &root)
            rest = rest.dropFirst(4)
        }
        let seqs = Self.events.map(\.seq)
        #expect(root.first.seqs == seqs)
        #expect(root.second.seqs == seqs)
        #expect(root.absent == nil)
        #expect(root.other == 0)
        // The board and its history are the ones the events build one by one.
        #expect(root.live.board == BoardState(scenario: Self.scenario, replaying: Self.events))
        #expect(root.live.history.count == Self.events.count)
        for n in 0...Self.events.count {
            #expect(
                root.live.history.board(after: n)
                    == BoardState(scenario: Self.scenario, replaying: Array(Self.events.prefix(n))), "n = \(n)")
        }
        var lanes = TimelineLanes(scenario: Self.scenario)
        for event in Self.events { lanes.record(event) }
        #expect(TimelineText.render(root.lanes, width: 80) == TimelineText.render(lanes, width: 80))
    }

    /// Readers are called in the order they were named.
    final class Turns {
        var names: [String] = []
    }

    struct Turn: EventReader {
        let name: String
        let turns: Turns
        mutating func read(_ batch: [LifecycleEvent]) { turns.names.append(name) }
    }

    struct TurnRoot {
        var a: Turn
        var b: Turn
        var c: Turn
    }

    @Test func readersAreCalledInTheOrderTheyWereNamedOncePerBatch() {
        let turns = Turns()
        var root = TurnRoot(
            a: Turn(name: "a", turns: turns), b: Turn(name: "b", turns: turns), c: Turn(name: "c", turns: turns))
        let fanOut = EventFanOut<TurnRoot>().reading(\.c).reading(\.a).reading(\.b)
        fanOut.read(Self.events, into: &root)
        fanOut.read([], into: &root)
        #expect(turns.names == ["c", "a", "b", "c", "a", "b"])
    }
}
