import Board
import FoundationRules
import RunEvents
import ScenarioKit
import TextKit

/// The operations of a run as a table (`t`, after the threads): one row
/// per operation with its name, queue, kind, priority bucket, QoS, the
/// moments it was added, became ready, started and finished, how long it
/// waited and ran, its thread, its state and why it is not running,
/// sorted by any column. What the table view draws, and the order its
/// selection moves in.
///
/// A pure value of the board at the history cursor and the run's lanes
/// (`TimelineLanes`): a moment shows only when the board has seen it (its
/// `seq` is at most the board's `lastSeq`), so the table at a past moment
/// is the table of that moment. Without lanes it shows what the cards keep
/// (no ready moment, no end of execution).
///
/// - waited: ready → started, both observed. Ready and not started at
///   the moment shown: ready → the board's last notification, marked `+`
///   (it still waits; the wait so far is a lower bound, not a guess). A
///   pending one, or one cancelled before it started, has none.
/// - ran: started → stopped (the end of its execution, `OperationMoments`);
///   still executing: started → the board's last notification, marked `+`.
///
/// Lives in Screen, not Board: its cells are the screen's words (the
/// card's short reason, the short priority and QoS names) and its column
/// widths are cells.
public struct OperationTable: Sendable {
    public enum Column: String, Sendable, Hashable, CaseIterable {
        case name, queue, kind, priority, qos, added, ready, started, finished, waited, ran, thread, state, why

        /// Its header (the sort column's gets ▲ or ▼ after it).
        var title: String {
            switch self {
            case .priority: "prio"
            case .qos: "QoS"
            case .why: "why not running"
            default: rawValue
            }
        }

        /// Durations sort longest first when `o` picks them (what a
        /// person looking for the stuck one wants); the others A→Z,
        /// earliest first.
        var startsDescending: Bool { self == .waited || self == .ran }

        /// Compared as text in natural order (the others by a number: a
        /// time, a rank, a thread).
        var sortsAsText: Bool { [.name, .queue, .kind, .why].contains(self) }
    }

    /// The order of the rows: by `column` (nil: the scenario's order),
    /// `descending` or not. Ties, and rows with no value in the column,
    /// keep the scenario's order; rows with no value come last either way.
    public struct Sort: Sendable, Hashable {
        public var column: Column?
        public var descending: Bool

        public init(column: Column? = nil, descending: Bool = false) {
            self.column = column
            self.descending = descending
        }

        /// The scenario's order, as the file lists the operations.
        public static let fileOrder = Sort()
    }

    /// One operation's moments as the board at the cursor knows them
    /// (scenario seconds), and the board's own moment.
    struct Times: Sendable, Hashable {
        var added: Double?
        var ready: Double?
        var started: Double?
        var stopped: Double?
        var finished: Double?
        var thread: ThreadTag?
    }

    public let board: BoardState
    let lanes: TimelineLanes?
    public let sort: Sort
    /// The rows, in the sort's order: every operation, or those `visible` kept.
    public let rows: [OperationID]

    /// `visible`: the operations a filter lets through (nil: all of them).
    public init(
        board: BoardState, lanes: TimelineLanes?, sort: Sort = .fileOrder, visible: Set<OperationID>? = nil
    ) {
        self.init(board: board, lanes: lanes, sort: sort, visible: visible, rows: nil)
    }

    /// With `rows` given (an order kept from an earlier frame of the same
    /// board and sort, `ScreenMemo`), nothing is sorted again.
    init(board: BoardState, lanes: TimelineLanes?, sort: Sort, visible: Set<OperationID>?, rows: [OperationID]?) {
        self.board = board
        self.lanes = lanes.flatMap { $0.scenario.operations.count == board.cards.count ? $0 : nil }
        self.sort = sort
        if let rows {
            self.rows = rows
        } else {
            let all = board.cards.indices.map(OperationID.init)
            let shown = visible.map { set in all.filter(set.contains) } ?? all
            self.rows = Self.sorted(shown, by: sort, board: board, lanes: self.lanes)
        }
    }

    /// The row `op` is in; nil when it is filtered out.
    public func row(of op: OperationID) -> Int? { rows.firstIndex(of: op) }

    // MARK: - Moments

    /// The board's moment: the time of the last notification it applied.
    var moment: Double { board.lastEventTime }

    func times(_ op: OperationID) -> Times {
        Self.times(op, board: board, lanes: lanes)
    }

    static func times(_ op: OperationID, board: BoardState, lanes: TimelineLanes?) -> Times {
        let card = board[operation: op]
        guard let lanes else {
            return Times(added: card.addedAt, started: card.startedAt, finished: card.finishedAt, thread: card.thread)
        }
        let m = lanes.lanes[op.index].moments
        let cut = board.lastSeq
        func seen(_ stamp: Stamp?) -> Double? { stamp.flatMap { $0.seq <= cut ? $0.time : nil } }
        let started = seen(m.started)
        return Times(
            added: seen(m.added), ready: seen(m.ready), started: started, stopped: seen(m.stopped),
            finished: seen(m.finished), thread: started == nil ? nil : m.thread)
    }

    /// Ready → started, or the wait so far (`ongoing`); nil when it has none.
    static func waited(_ t: Times, card: OperationCard, moment: Double) -> (seconds: Double, ongoing: Bool)? {
        guard let ready = t.ready else { return nil }
        if let started = t.started { return (max(0, started - ready), false) }
        guard t.finished == nil, card.phase == .ready || card.phase == .pending else { return nil }
        return (max(0, moment - ready), true)
    }

    /// Started → stopped, or the run so far (`ongoing`); nil before it started.
    static func ran(_ t: Times, moment: Double) -> (seconds: Double, ongoing: Bool)? {
        guard let started = t.started else { return nil }
        if let stopped = t.stopped { return (max(0, stopped - started), false) }
        return (max(0, moment - started), true)
    }
}

// MARK: - Sorting

extension OperationTable {
    /// `ids` (in scenario order) sorted by `sort`: a stable order, ties and
    /// rows without a value in scenario order, rows without a value last.
    /// Text compares in natural order (`NaturalOrder`), so numbered names
    /// read as a person counts.
    static func sorted(_ ids: [OperationID], by sort: Sort, board: BoardState, lanes: TimelineLanes?) -> [OperationID] {
        guard let column = sort.column else { return sort.descending ? ids.reversed() : ids }
        var order = Array(ids.indices)
        let descending = sort.descending
        if column.sortsAsText {
            let keys = ids.map { text(column, of: $0, board: board) }
            order.sort { a, b in
                let (x, y) = (keys[a], keys[b])
                if x.isEmpty != y.isEmpty { return !x.isEmpty }
                // Natural order: decode1, decode2, decode10.
                let c = x.isEmpty ? 0 : NaturalOrder.compare(x, y)
                if c != 0 { return descending ? c > 0 : c < 0 }
                return a < b
            }
        } else {
            let keys = ids.map { number(column, of: $0, board: board, lanes: lanes) }
            order.sort { a, b in
                switch (keys[a], keys[b]) {
                case (let x?, let y?) where x != y: return descending ? x > y : x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return a < b
                }
            }
        }
        return order.map { ids[$0] }
    }

    /// The sort key of a text column.
    static func text(_ column: Column, of op: OperationID, board: BoardState) -> String {
        let card = board[operation: op]
        switch column {
        case .name: return card.name
        case .queue: return card.startedByHand ? "by hand" : board.scenario[queue: card.queue].name
        case .kind: return Wording.kind(board.scenario[operation: op].body)
        default: return whyText(op, board: board)
        }
    }

    /// The sort key of a column of numbers; nil: no value.
    static func number(_ column: Column, of op: OperationID, board: BoardState, lanes: TimelineLanes?) -> Double? {
        let card = board[operation: op]
        switch column {
        case .priority: return card.isBarrier ? nil : Double(card.effectivePriority.rawPriority)
        case .qos: return board.scenario[operation: op].qos.map { Double(qosRank($0)) }
        case .state: return Double(card.phase.orderIndex)
        case .name, .queue, .kind, .why: return nil
        default: break
        }
        let t = times(op, board: board, lanes: lanes)
        switch column {
        case .added: return t.added
        case .ready: return t.ready
        case .started: return t.started
        case .finished: return t.finished
        case .waited: return waited(t, card: card, moment: board.lastEventTime)?.seconds
        case .ran: return ran(t, moment: board.lastEventTime)?.seconds
        default: return t.thread.map { Double($0.number) }
        }
    }

    /// Lowest to highest QoS.
    static func qosRank(_ q: QoSLevel) -> Int {
        switch q {
        case .background: 0
        case .utility: 1
        case .default: 2
        case .userInitiated: 3
        case .userInteractive: 4
        }
    }

    /// The card's short reason, for an operation not running; empty otherwise.
    static func whyText(_ op: OperationID, board: BoardState) -> String {
        let card = board[operation: op]
        guard card.phase == .pending || card.phase == .ready || card.phase == .notAdded,
            let first = board.whyNotRunning(op).first
        else { return "" }
        return CardView.shortReason(first, card: card, board: board)
    }
}
