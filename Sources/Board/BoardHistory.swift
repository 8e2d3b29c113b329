import RunEvents
import ScenarioKit

/// Every notification of a run, kept so that any moment of it can be shown
/// again: the board after the first `n` events, for any `n`, from the
/// nearest checkpoint before it and the events after that checkpoint. Also
/// the moments an operation changed column, for jumping between them.
///
/// Built as the run goes, from the live board (`append(_:boardAfter:)`),
/// so keeping it costs no replay. A checkpoint every `interval` events is
/// either a whole board (`WholeBoard`: its cards in chunks, sharing those
/// that did not change with the whole board before) or the cards and rows
/// that changed since the checkpoint before (`BoardChanges`). It is whole
/// when putting back the changes kept since the last whole board would
/// handle as many cards as the chunks they fall in hold (so the chunks
/// cost no more room than the changes did), or when those changes pass
/// `changesBetweenBoards`. So a seek costs one copy of a board, putting
/// back fewer cards than that, and replaying fewer than `interval` events;
/// and a run of 100,000 operations, coming and going in waves, keeps about
/// a few boards' worth of cards in all where a whole board per checkpoint
/// would take gigabytes. The events themselves are 32-byte records
/// (`Events`). Pure: a value, no clock, no threads.
public struct BoardHistory: Sendable {
    public let scenario: Scenario
    /// The run's events, in order.
    public private(set) var events = Events()
    /// Event counts after which some operation stood in another column
    /// than before, ascending.
    public private(set) var columnChanges: [Int] = []
    public let interval: Int
    /// The most changed cards and rows kept as changes since the last
    /// whole board, whatever its chunks cost: what a seek may put back.
    let changesBetweenBoards: Int

    /// `checkpoints[k]` is the board after the first `k × interval`
    /// events; `checkpoints[0]` is whole.
    private var checkpoints: [Checkpoint]
    /// The scenario's board without cards or rows, filled from a whole one.
    private let hollow: BoardState
    private var lastWhole: WholeBoard

    /// The cards and rows changed since the last checkpoint, each once, in
    /// the order they first changed; the flags say which are listed.
    private var changedCards: [Int] = []
    private var changedQueues: [Int] = []
    private var cardListed: [Bool]
    private var queueListed: [Bool]
    /// Since the last whole board: the changes kept, the chunks of cards
    /// changed and the cards they hold, whether a queue row changed.
    private var changesSinceWhole = 0
    private var changedChunks: [Int] = []
    private var chunkListed: [Bool]
    private var cardsInChangedChunks = 0
    private var queueChangedSinceWhole = false

    private enum Checkpoint: Sendable {
        case whole(WholeBoard)
        case changes(BoardChanges)
    }

    /// `interval`: events between checkpoints, 256 by default: a seek
    /// replays fewer than that many events.
    public init(scenario: Scenario, interval: Int? = nil) {
        self.init(scenario: scenario, interval: interval, changesBetweenBoards: nil)
    }

    /// `changesBetweenBoards`: by default half the board's cards and rows
    /// (tests make it small, to see long runs of changes on small boards).
    init(scenario: Scenario, interval: Int?, changesBetweenBoards: Int?) {
        self.scenario = scenario
        self.interval = max(1, interval ?? 256)
        let board = BoardState(scenario: scenario)
        self.changesBetweenBoards = max(0, changesBetweenBoards ?? (board.cards.count + board.queues.count) / 2)
        hollow = board.hollow()
        lastWhole = WholeBoard(board)
        checkpoints = [.whole(lastWhole)]
        cardListed = Array(repeating: false, count: board.cards.count)
        queueListed = Array(repeating: false, count: board.queues.count)
        chunkListed = Array(repeating: false, count: WholeBoard.chunkCount(cards: board.cards.count))
    }

    public var count: Int { events.count }

    /// How many checkpoints are whole boards and how many are changes (for
    /// tests, which make sure they see both).
    var checkpointKinds: (whole: Int, changes: Int) {
        let whole = checkpoints.count { if case .whole = $0 { true } else { false } }
        return (whole, checkpoints.count - whole)
    }

    /// Records `event`; `board` is the live board with it applied (a card
    /// whose phase this very event set moved to another column).
    public mutating func append(_ event: LifecycleEvent, boardAfter board: BoardState) {
        events.append(event)
        if case .operation(let op, _, _, _) = event.kind, scenario.contains(op),
            board[operation: op].phaseSeq == event.seq
        {
            columnChanges.append(events.count)
        }
        let (card, queue) = board.changed(by: event)
        if let card, !cardListed[card] {
            cardListed[card] = true
            changedCards.append(card)
            let chunk = card >> WholeBoard.chunkShift
            if !chunkListed[chunk] {
                chunkListed[chunk] = true
                changedChunks.append(chunk)
                cardsInChangedChunks += WholeBoard.cards(ofChunk: chunk, count: board.cards.count).count
            }
        }
        if let queue, !queueListed[queue] {
            queueListed[queue] = true
            changedQueues.append(queue)
            queueChangedSinceWhole = true
        }
        if events.count % interval == 0 { keepCheckpoint(of: board) }
    }

    /// The board after the first `n` events (0: before any; clamped).
    public func board(after n: Int) -> BoardState {
        var board = hollow
        seek(&board, to: n)
        return board
    }

    /// `board` (a board of this run, or an empty one, `hollow`) made the
    /// board after the first `n` events, in place where it holds its cards
    /// alone: a step through history then writes over the cards of the
    /// moment shown before, instead of a new array of them.
    public func seek(_ board: inout BoardState, to n: Int) {
        let n = min(max(0, n), events.count)
        let k = min(n / interval, checkpoints.count - 1)
        var start = k
        while case .changes = checkpoints[start] { start -= 1 }
        if case .whole(let whole) = checkpoints[start] { board.restore(whole) }
        for checkpoint in checkpoints[(start + 1)..<(k + 1)] {
            if case .changes(let changes) = checkpoint { board.restore(changes) }
        }
        for position in (k * interval)..<n { board.apply(events[position]) }
    }

    /// The scenario time of the `n`th event (0 before any).
    public func time(after n: Int) -> Double {
        n <= 0 || events.isEmpty ? 0 : events.time(at: min(n, events.count) - 1)
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

    /// A whole board when the changes since the last one would cost as
    /// much to put back as the chunks they fall in (with the queue rows)
    /// cost to keep, or pass `changesBetweenBoards`; else the changes.
    private mutating func keepCheckpoint(of board: BoardState) {
        let changes = changesSinceWhole + changedCards.count + changedQueues.count
        let wholeCost =
            cardsInChangedChunks + chunkListed.count / WholeBoard.refsPerCard
            + (queueChangedSinceWhole ? board.queues.count : 0)
        if changes >= wholeCost || changes > changesBetweenBoards {
            lastWhole = WholeBoard(board, sharingWith: lastWhole, changed: changedChunks)
            checkpoints.append(.whole(lastWhole))
            for chunk in changedChunks { chunkListed[chunk] = false }
            changedChunks.removeAll(keepingCapacity: true)
            (changesSinceWhole, cardsInChangedChunks, queueChangedSinceWhole) = (0, 0, false)
        } else {
            checkpoints.append(.changes(BoardChanges(of: board, cards: changedCards, queues: changedQueues)))
            changesSinceWhole = changes
        }
        for card in changedCards { cardListed[card] = false }
        for queue in changedQueues { queueListed[queue] = false }
        changedCards.removeAll(keepingCapacity: true)
        changedQueues.removeAll(keepingCapacity: true)
    }
}
