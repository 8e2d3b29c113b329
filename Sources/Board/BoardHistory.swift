import RunEvents
import ScenarioKit

/// Every notification of a run, kept so that any moment of it can be shown
/// again: the board after the first `n` events, for any `n`, from the
/// nearest checkpoint before it (a copy of the board taken as the run
/// passed it) and the events after that checkpoint. Also the moments an
/// operation changed column, for jumping between them.
///
/// Built as the run goes, from the live board (`append(_:boardAfter:)`),
/// so keeping it costs a copy of the board every `interval` events and no
/// replay. Pure: a value, no clock, no threads.
public struct BoardHistory: Sendable {
    public let scenario: Scenario
    public private(set) var events: [LifecycleEvent] = []
    /// `checkpoints[k]` is the board after the first `k × interval` events.
    private var checkpoints: [BoardState]
    /// Event counts after which some operation stood in another column
    /// than before, ascending.
    public private(set) var columnChanges: [Int] = []
    public let interval: Int

    /// `interval`: events between checkpoints. By default, for a run of
    /// about six notifications an operation, as many checkpoints as keep a
    /// million cards in all (`RunTimeline.checkpointCards`), and one every
    /// 256 events at the least: a board copy per 256 events for a lesson,
    /// ten copies over the whole run of 100,000 operations.
    public init(scenario: Scenario, interval: Int? = nil) {
        self.scenario = scenario
        let operations = max(1, scenario.operations.count)
        let boards = max(1, RunTimeline.checkpointCards / operations)
        self.interval = max(1, interval ?? max(256, (6 * operations + boards - 1) / boards))
        checkpoints = [BoardState(scenario: scenario)]
    }

    public var count: Int { events.count }

    /// Records `event`; `board` is the live board with it applied (a card
    /// whose phase this very event set moved to another column).
    public mutating func append(_ event: LifecycleEvent, boardAfter board: BoardState) {
        events.append(event)
        if case .operation(let op, _, _, _) = event.kind, scenario.contains(op),
            board[operation: op].phaseSeq == event.seq
        {
            columnChanges.append(events.count)
        }
        if events.count % interval == 0 { checkpoints.append(board) }
    }

    /// The board after the first `n` events (0: before any; clamped).
    public func board(after n: Int) -> BoardState {
        let n = min(max(0, n), events.count)
        let k = min(n / interval, checkpoints.count - 1)
        var board = checkpoints[k]
        for event in events[(k * interval)..<n] { board.apply(event) }
        return board
    }

    /// The scenario time of the `n`th event (0 before any).
    public func time(after n: Int) -> Double {
        n <= 0 || events.isEmpty ? 0 : events[min(n, events.count) - 1].time
    }

    /// The last moment before `n` when an operation changed column, or 0.
    public func previousChange(before n: Int) -> Int {
        var low = 0
        var high = columnChanges.count
        while low < high {
            let mid = (low + high) / 2
            if columnChanges[mid] < n { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : columnChanges[low - 1]
    }

    /// The first moment after `n` when an operation changed column, or nil.
    public func nextChange(after n: Int) -> Int? {
        var low = 0
        var high = columnChanges.count
        while low < high {
            let mid = (low + high) / 2
            if columnChanges[mid] <= n { low = mid + 1 } else { high = mid }
        }
        return low < columnChanges.count ? columnChanges[low] : nil
    }
}
