import FoundationRules
import ScenarioKit
import Synchronization

extension BoardState {
    /// The operations in `phase` in the order the board shows them: the
    /// order they entered it (`phaseSeq`), then file order.
    ///
    /// Asked many times for one board (each key, each frame, each view of
    /// the columns), and costly on a large one: the order of every phase is
    /// made in one pass and kept with the board until it changes.
    public func operations(in phase: Phase) -> [OperationID] {
        memo.phaseOrder(of: self)[phase.orderIndex]
    }

    /// How many ready operations of `card`'s queue, not dispatched yet, it
    /// is behind: those `isAhead(of:)` it (itself never counted). Kept with
    /// the board like `operations(in:)`: every card on the screen asks.
    func readyAhead(of card: OperationCard) -> Int {
        let order = memo.readyOrder(of: self)[card.queue.index]
        let key = ReadyKey(card)
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if order[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// How many of those wait in an earlier bucket than `card`: a higher
    /// priority, or a barrier.
    public func readyHigher(than card: OperationCard) -> Int {
        let order = memo.readyOrder(of: self)[card.queue.index]
        let bucket = card.dispatchBucket
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if order[mid].place.bucket < bucket { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension Phase {
    /// Its place in `Phase.allCases`: the board's column order, not added first.
    public var orderIndex: Int {
        switch self {
        case .notAdded: 0
        case .pending: 1
        case .ready: 2
        case .executing: 3
        case .finished: 4
        case .cancelled: 5
        }
    }
}

/// A ready card's place in its queue's order of dispatch: the order
/// `OperationCard.isAhead(of:)` states.
struct ReadyKey: Comparable {
    var place: DispatchRule.Place
    var index: Int

    init(_ card: OperationCard) {
        place = card.dispatchPlace
        index = card.id.index
    }

    static func < (a: ReadyKey, b: ReadyKey) -> Bool {
        a.place != b.place ? DispatchRule.precedes(a.place, b.place) : a.index < b.index
    }
}

/// What one board's frames ask again and again, made when first asked and
/// kept until the board changes (its `lastSeq` moves: every change of a
/// board is an event applied or a moment restored, and either sets it):
/// the order of each phase, and each queue's ready operations in the
/// order it dispatches them.
///
/// A memo, not part of the board's value: copies of a board share it, and
/// two boards are equal whatever their memos hold. Locked, since boards are
/// `Sendable` and may be read on several threads.
final class BoardMemo: Sendable, Hashable {
    private struct Kept {
        var seq = -1
        var count = -1
        var phaseOrder: [[OperationID]]?
        var readyOrder: [[ReadyKey]]?

        mutating func fit(_ board: BoardState) {
            guard seq != board.lastSeq || count != board.cards.count else { return }
            self = Kept(seq: board.lastSeq, count: board.cards.count)
        }
    }

    private let kept = Mutex(Kept())

    func phaseOrder(of board: BoardState) -> [[OperationID]] {
        if let order = kept.withLock({ kept -> [[OperationID]]? in
            kept.fit(board)
            return kept.phaseOrder
        }) {
            return order
        }
        let order = Self.phaseOrder(board.cards)
        kept.withLock { kept in
            kept.fit(board)
            kept.phaseOrder = order
        }
        return order
    }

    func readyOrder(of board: BoardState) -> [[ReadyKey]] {
        if let order = kept.withLock({ kept -> [[ReadyKey]]? in
            kept.fit(board)
            return kept.readyOrder
        }) {
            return order
        }
        var order = [[ReadyKey]](repeating: [], count: board.queues.count)
        for op in board.operations(in: .ready) {
            let card = board.cards[op.index]
            if card.dispatchedAt == nil, order.indices.contains(card.queue.index) {
                order[card.queue.index].append(ReadyKey(card))
            }
        }
        for q in order.indices { order[q].sort() }
        kept.withLock { kept in
            kept.fit(board)
            kept.readyOrder = order
        }
        return order
    }

    /// One pass over the cards, then a sort of packed keys (the seq the card
    /// entered its phase, then its index) per phase.
    private static func phaseOrder(_ cards: [OperationCard]) -> [[OperationID]] {
        // Read in place: two fields of each card, never a copy of one.
        let (phases, keys) = cards.withUnsafeBufferPointer { cards in
            var phases = [UInt8](repeating: 0, count: cards.count)
            var keys = [UInt64](repeating: 0, count: cards.count)
            for i in cards.indices {
                phases[i] = UInt8(cards[i].phase.orderIndex)
                keys[i] = (UInt64(clamping: cards[i].phaseSeq) & 0xFFFF_FFFF) << 32 | UInt64(i)
            }
            return (phases, keys)
        }
        var counts = [Int](repeating: 0, count: Phase.allCases.count)
        for p in phases { counts[Int(p)] += 1 }
        var byPhase = counts.map { count -> [UInt64] in
            var keys: [UInt64] = []
            keys.reserveCapacity(count)
            return keys
        }
        for i in keys.indices { byPhase[Int(phases[i])].append(keys[i]) }
        return byPhase.map { phase in
            // Mostly in order already (cards enter a column roughly in the
            // order of their index): the sort finds the runs.
            phase.sorted().map { OperationID(Int($0 & 0xFFFF_FFFF)) }
        }
    }

    static func == (_: BoardMemo, _: BoardMemo) -> Bool { true }
    func hash(into _: inout Hasher) {}
}
