import RunEvents
import ScenarioKit

/// The values of a board that `apply` keeps besides its cards and rows.
struct BoardMoment: Sendable {
    var lastEventTime: Double
    var lastSeq: Int
    var outcome: RunOutcome?
    var stall: [OperationID: StuckReason]?
    var mainThreadWait: MainThreadWait?
    var stallContext: StallContext
    var actions: ActionLog
}

/// A whole board as `BoardHistory` keeps it: its cards in chunks of
/// `chunkSize`, each shared with the whole board kept before it unless one
/// of its cards changed in between. Operations of a run come and go in
/// waves (added in file order, started in about that order), so a run's
/// stretch changes cards in a few chunks, and a whole board costs those
/// chunks rather than all the cards.
struct WholeBoard: Sendable {
    static let chunkShift = 6
    static let chunkSize = 1 << chunkShift
    /// How many chunk references take the room of one card.
    static let refsPerCard = MemoryLayout<OperationCard>.stride / MemoryLayout<ContiguousArray<OperationCard>>.stride

    private var chunks: [ContiguousArray<OperationCard>]
    private(set) var queues: [QueueRow]
    private(set) var moment: BoardMoment

    /// The chunks of a board of `count` cards.
    static func chunkCount(cards count: Int) -> Int { (count + chunkSize - 1) / chunkSize }

    /// The indices of the cards of chunk `chunk`, of a board of `count`.
    static func cards(ofChunk chunk: Int, count: Int) -> Range<Int> {
        let start = chunk << chunkShift
        return start..<min(start + chunkSize, count)
    }

    /// `board` whole, every chunk its own.
    init(_ board: BoardState) {
        let count = board.cards.count
        chunks = (0..<Self.chunkCount(cards: count)).map {
            ContiguousArray(board.cards[Self.cards(ofChunk: $0, count: count)])
        }
        queues = board.queues
        moment = board.moment
    }

    /// `board` whole, sharing with `previous` (a whole board of the same
    /// run before it) every chunk not in `changed`.
    init(_ board: BoardState, sharingWith previous: WholeBoard, changed: [Int]) {
        chunks = previous.chunks
        for chunk in changed {
            chunks[chunk] = ContiguousArray(board.cards[Self.cards(ofChunk: chunk, count: board.cards.count)])
        }
        queues = board.queues
        moment = board.moment
    }

    /// Writes its cards over `cards`, a board's of the same scenario, in
    /// place: no new array, so no fresh pages to fault in.
    func copyCards(over cards: inout [OperationCard]) {
        guard cards.count == chunks.reduce(0, { $0 + $1.count }) else {
            cards = self.cards()
            return
        }
        var i = 0
        for chunk in chunks {
            for card in chunk {
                cards[i] = card
                i += 1
            }
        }
    }

    /// The cards in one array, as a board holds them.
    func cards() -> [OperationCard] {
        var cards: [OperationCard] = []
        cards.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { cards.append(contentsOf: chunk) }
        return cards
    }
}

/// A checkpoint of `BoardHistory` kept as the difference from the one
/// before it: the cards and queue rows that changed since then (as they
/// are now) and the board's values now. A stretch of a few hundred events
/// changes a few hundred cards at most, where a whole board of a large run
/// has a hundred thousand.
struct BoardChanges: Sendable {
    private(set) var cardIndices: [Int]
    private(set) var cards: [OperationCard]
    private(set) var queueIndices: [Int]
    private(set) var queues: [QueueRow]
    private(set) var moment: BoardMoment

    /// The cards and rows of `board` at these indices, and its values.
    init(of board: BoardState, cards: [Int], queues: [Int]) {
        // Copied (`map`), so that each array holds just its elements, not
        // the capacity of the history's list.
        cardIndices = cards.map { $0 }
        self.cards = cards.map { board.cards[$0] }
        queueIndices = queues.map { $0 }
        self.queues = queues.map { board.queues[$0] }
        moment = board.moment
    }
}
