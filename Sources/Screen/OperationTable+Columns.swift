import Board
import RunEvents
import ScenarioKit
import TextKit

extension OperationTable {
    /// A column placed in the table's width: its first cell and its width.
    struct Placed: Sendable, Hashable {
        var column: Column
        var x: Int
        var width: Int
    }

    /// The columns dropped when the width runs short, first dropped first:
    /// the moments that `started` and `waited` summarise (added, finished,
    /// ready), then what the inspector says of the operation anyway (QoS,
    /// priority, kind), then thread, queue and the reason. Never dropped:
    /// name, started, waited, ran and state, the columns that find a slow
    /// or stuck operation; nor the sort column, whichever it is. At 80
    /// cells the table shows name, queue, started, waited, ran, thread,
    /// state and why; at 60, name, started, waited, ran and state.
    static let dropOrder: [Column] = [.added, .finished, .ready, .qos, .priority, .kind, .thread, .queue, .why]

    /// The fewest cells the reason gets; it takes whatever is left over.
    static let whyMinimum = 12

    /// Widths in cells of the fixed columns (`name`, `queue` and `why` fit
    /// their contents): a time (`123.456s`), a duration with its mark
    /// (`12.345s+`), `barrier`, `normal`, `UI`, `#12`, `cancelled`.
    static func fixedWidth(_ column: Column) -> Int {
        switch column {
        case .kind: 7
        case .priority: 6
        case .qos: 3
        case .added, .ready, .started, .finished, .waited, .ran: 8
        case .thread: 6
        case .state: 9
        case .name, .queue, .why: 0
        }
    }

    /// The name column: the longest name, from 4 to 16 cells.
    static func nameWidth(_ scenario: Scenario) -> Int {
        min(16, max(4, scenario.operations.lazy.map { $0.name.utf8.count }.max() ?? 0))
    }

    /// The queue column: the longest queue name, from 5 to 10 cells.
    static func queueWidth(_ scenario: Scenario) -> Int {
        min(10, max(5, scenario.queues.lazy.map { $0.name.utf8.count }.max() ?? 0))
    }

    /// The columns that fit `width` cells, left to right, one blank cell
    /// between two: all of them, less `dropOrder` (skipping `sort`) until
    /// the rest fits; the reason then takes what is left.
    static func placed(width: Int, scenario: Scenario, sort: Column?) -> [Placed] {
        let name = nameWidth(scenario)
        let queue = queueWidth(scenario)
        func cells(_ c: Column) -> Int {
            c == .name ? name : c == .queue ? queue : c == .why ? whyMinimum : fixedWidth(c)
        }
        var shown = Column.allCases
        func total() -> Int { shown.reduce(0) { $0 + cells($1) } + shown.count - 1 }
        for column in dropOrder where total() > width && column != sort {
            shown.removeAll { $0 == column }
        }
        var x = 0
        var placed: [Placed] = []
        for column in shown {
            var w = cells(column)
            if column == .why { w = max(w, width - total() + whyMinimum) }
            placed.append(Placed(column: column, x: x, width: max(0, min(w, width - x))))
            x += w + 1
            if x >= width { break }
        }
        return placed
    }

    /// The header of `column` in `width` cells: its title, and ▲ or ▼
    /// after it on the sort column (the title shortened, never the arrow).
    func title(_ column: Column, width: Int, glyphs: GlyphSet) -> String {
        guard column == sort.column else { return truncate(column.title, toWidth: width, ellipsis: glyphs.ellipsis) }
        let arrow = glyphs.isASCII ? (sort.descending ? "v" : "^") : (sort.descending ? "▼" : "▲")
        if displayWidth(column.title) + 2 <= width { return column.title + " " + arrow }
        return truncate(column.title, toWidth: max(0, width - 1), ellipsis: "") + arrow
    }

    /// The text of one cell; empty where the operation has no value.
    func cell(_ column: Column, of op: OperationID) -> String {
        let card = board[operation: op]
        let spec = board.scenario[operation: op]
        switch column {
        case .name, .queue, .kind, .why: return Self.text(column, of: op, board: board)
        case .priority: return card.isBarrier ? "" : Wording.priorityShort(card.effectivePriority)
        case .qos: return spec.qos.map(Wording.qosShort) ?? ""
        case .state: return Self.stateText(card)
        default: break
        }
        let t = times(op)
        switch column {
        case .added: return t.added.map(Spelling.seconds) ?? ""
        case .ready: return t.ready.map(Spelling.seconds) ?? ""
        case .started: return t.started.map(Spelling.seconds) ?? ""
        case .finished: return t.finished.map(Spelling.seconds) ?? ""
        case .waited: return Self.durationText(Self.waited(t, card: card, moment: moment))
        case .ran: return Self.durationText(Self.ran(t, moment: moment))
        default: return t.thread?.description ?? ""
        }
    }

    /// `600ms`; `1.2s+` while it lasts.
    static func durationText(_ value: (seconds: Double, ongoing: Bool)?) -> String {
        guard let value else { return "" }
        return Spelling.duration(seconds: value.seconds) + (value.ongoing ? "+" : "")
    }

    /// The column the card is in, in words; `not added` before its add
    /// (`not started` for one started by hand, which is never added).
    static func stateText(_ card: OperationCard) -> String {
        guard card.phase == .notAdded else { return card.phase.rawValue }
        return card.startedByHand ? "not started" : "not added"
    }

    /// One row as text in the placed columns (a test's view of a row).
    func line(_ op: OperationID, columns: [Placed], glyphs: GlyphSet = .unicode) -> String {
        var text = ""
        for p in columns {
            text += String(repeating: " ", count: max(0, p.x - displayWidth(text)))
            text += truncate(cell(p.column, of: op), toWidth: p.width, ellipsis: glyphs.ellipsis)
        }
        return text
    }

    /// The header row as text in the placed columns.
    func headerLine(columns: [Placed], glyphs: GlyphSet = .unicode) -> String {
        var text = ""
        for p in columns {
            text += String(repeating: " ", count: max(0, p.x - displayWidth(text)))
            text += title(p.column, width: p.width, glyphs: glyphs)
        }
        return text
    }
}
