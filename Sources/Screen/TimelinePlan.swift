import Board
import RunEvents
import ScenarioKit
import TextKit

/// The operations in the timeline's order: queue by queue (the scenario's
/// order, queues without operations left out), each queue's operations in
/// the order the file declares them, then those started by hand, which no
/// queue holds. Up and down walk this order in both views over time.
struct TimelineOrder: Sendable {
    /// Each queue that has operations, with them; last, the operations
    /// started by hand (queue nil), if any.
    let groups: [(queue: QueueID?, operations: [OperationID])]
    /// All of them, group after group.
    let operations: [OperationID]
    /// For each place in `operations`, the index of its group.
    let groupOf: [Int]
    /// For each operation (by `OperationID.index`), its place in `operations`.
    private let places: [Int]
    /// The scenario's operations, grouped or not.
    let operationCount: Int
    /// The widest operation name, in cells, with the two cells of its indent.
    let widestName: Int

    /// `shown`: the operations a filter (`F`) lets show; nil: all.
    init(_ scenario: Scenario, shown: OperationMask? = nil) {
        // The queues' members, then those started by hand (the last slot).
        var members = [[OperationID]](repeating: [], count: scenario.queues.count + 1)
        let byHand = scenario.startedByHand
        for (i, spec) in scenario.operations.enumerated() where scenario.queues.indices.contains(spec.queue.index) {
            if let shown, !shown.contains(OperationID(i)) { continue }
            let slot = byHand.contains(OperationID(i)) ? scenario.queues.count : spec.queue.index
            members[slot].append(OperationID(i))
        }
        var groups: [(QueueID?, [OperationID])] = []
        var operations: [OperationID] = []
        var groupOf: [Int] = []
        var places = [Int](repeating: -1, count: scenario.operations.count)
        for (q, ops) in members.enumerated() where !ops.isEmpty {
            for op in ops {
                places[op.index] = operations.count
                operations.append(op)
                groupOf.append(groups.count)
            }
            groups.append((q < scenario.queues.count ? QueueID(q) : nil, ops))
        }
        self.groups = groups
        self.operations = operations
        self.groupOf = groupOf
        self.places = places
        operationCount = scenario.operations.count
        widestName = scenario.operations.reduce(0) { max($0, displayWidth($1.name) + 2) }
    }

    func place(of op: OperationID) -> Int? {
        places.indices.contains(op.index) && places[op.index] >= 0 ? places[op.index] : nil
    }

    /// Rows that the operations from place `first` through `last` take,
    /// with a header row for each queue among them.
    func rows(from first: Int, through last: Int) -> Int {
        guard first <= last else { return 0 }
        return (last - first + 1) + (groupOf[last] - groupOf[first] + 1)
    }

    /// The first place shown in `height` rows: `stored` moved just enough
    /// that `selected` shows, and never so far that rows stay empty below
    /// the last operation. Each group shown starts with its queue's header
    /// row, the top one too, so the running count of what shows is always
    /// in sight.
    func offset(stored: Int, height: Int, selected: Int?) -> Int {
        let count = operations.count
        guard count > 0, height >= 2 else { return min(max(0, stored), max(0, count - 1)) }
        var last = count - 1
        while last > 0 && rows(from: last - 1, through: count - 1) <= height { last -= 1 }
        var offset = min(max(0, stored), last)
        if let selected, operations.indices.contains(selected) {
            if selected < offset { offset = selected }
            while offset < selected && rows(from: offset, through: selected) > height { offset += 1 }
        }
        return offset
    }
}

/// One row of the timeline's body.
enum TimelineRow: Sendable, Hashable {
    /// A queue's header: its name and cap, its running count per column.
    case queue(QueueID)
    /// The header of the operations started by hand: no queue, no count.
    case byHand
    case operation(OperationID)
    case thread(ThreadTag)
    /// The thread view's heading of the asynchronous operations' rows:
    /// what they show holds no thread.
    case inFlightHeader
    /// A row of asynchronous operations in flight (`TimelineLanes.inFlight`).
    case inFlight(Int)
}

/// Where the timeline draws, and the scale, for one frame: the one value
/// the view draws from and the controller asks (zoom, scroll, clicks), so
/// both agree on every column.
///
/// The area's rows: a header (the view, the window, the scale, which lanes
/// show), the axis's labels, the axis (ticks, ▲ the actions and captions,
/// ▼ the cursor), then the lanes. Its columns: the names, then the plot,
/// where column `c` covers the scenario seconds
/// `[start + c·step, start + (c+1)·step)`.
struct TimelinePlan: Sendable {
    let area: Rect
    let threads: Bool
    /// Cells of the names' column, the gap before the plot included.
    let nameWidth: Int
    let plot: (x: Int, width: Int)
    let window: TimeWindow
    /// The window follows the run (no zoom or scroll fixed it).
    let fits: Bool
    /// Scenario seconds per column.
    let step: Double
    /// The newest moment of the run: its last event, or the clock if later.
    let edge: Double
    /// The moment the other panes show: the history cursor's, or now.
    let cursor: Double
    /// The body's rows that show, top to bottom, with their screen rows.
    let rows: [(row: TimelineRow, y: Int)]
    /// The first lane shown (a place in the order, or a thread's index),
    /// how many show, and how many there are.
    let first: Int
    let shown: Int
    let total: Int
    /// The operations a filter (`F`) lets show, nil without one: the other
    /// lanes and spans are not drawn.
    let admitted: OperationMask?

    var headerY: Int { area.y }
    var labelsY: Int { area.y + 1 }
    var axisY: Int { area.y + 2 }
    var body: Rect { area.inset(top: 3) }

    /// The column that holds moment `t`; the window's end belongs to the
    /// last column. May be outside `0..<plot.width`.
    func column(of t: Double) -> Int {
        guard step > 0, t.isFinite else { return 0 }
        // A hair over, so that a moment a whole number of columns in
        // (a tick, 1s at 20ms a column) does not fall one short.
        let x = min(max((t - window.start) / step, -1e9), 1e9) + 1e-7
        let c = Int(x.rounded(.down))
        return c == plot.width && x <= Double(plot.width) + 1e-6 ? c - 1 : c
    }

    /// The moment column `c` starts.
    func time(atColumn c: Int) -> Double { window.start + Double(c) * step }

    /// The threads as the thread view lists them: main first, then the
    /// others in the order the run first used them.
    static func threads(_ timeline: TimelineLanes) -> [ThreadTag] {
        let tags = timeline.threads.map(\.tag)
        return tags.filter(\.isMain) + tags.filter { !$0.isMain }
    }

    static func threadLabel(_ tag: ThreadTag) -> String {
        tag.isMain ? "main" : "thread \(tag)"
    }

    /// The thread view's rows, top to bottom: the threads, then, when an
    /// asynchronous operation has started, the heading and the in-flight
    /// rows queue by queue (the scenario's order), each queue's by number.
    static func threadRows(_ timeline: TimelineLanes) -> [TimelineRow] {
        let rows = threads(timeline).map(TimelineRow.thread)
        guard !timeline.inFlight.isEmpty else { return rows }
        let inFlight = timeline.inFlight.indices.sorted {
            let a = timeline.inFlight[$0]
            let b = timeline.inFlight[$1]
            // Those of operations started by hand, in no queue, last.
            let (qa, qb) = (a.queue?.index ?? Int.max, b.queue?.index ?? Int.max)
            return (qa, a.number) < (qb, b.number)
        }
        return rows + [.inFlightHeader] + inFlight.map(TimelineRow.inFlight)
    }

    /// An in-flight row's name: its queue's and its number, `net 2`.
    static func inFlightLabel(_ row: Int, timeline: TimelineLanes) -> String {
        "\(timeline.rowName(row)) \(timeline.inFlight[row].number)"
    }

    /// The header of the operations started by hand, in no queue.
    static let byHandLabel = "by hand, no queue"

    /// A queue's header in the names' column: `net cap 2`, `ui main`, `d`
    /// (the system decides its cap).
    static func queueLabel(_ q: QueueID, timeline: TimelineLanes) -> String {
        let queue = timeline.scenario.queues[q.index]
        if queue.isMain { return "\(queue.name) main" }
        let cap = timeline.queueSteps[q.index].last?.cap ?? -1
        return cap < 0 ? queue.name : "\(queue.name) cap \(cap)"
    }

    /// nil when the frame has no timeline. `board`: the board shown, which
    /// the filter's state terms ask (without it, no filter applies).
    init?(state: InterfaceState, frame: FrameInput, rect: Rect, board: BoardState? = nil, order: TimelineOrder? = nil) {
        guard let timeline = frame.timeline else { return nil }
        let scenario = timeline.scenario
        area = rect
        threads = state.boardArea == .threads
        admitted = board.flatMap { state.filter.shown(on: $0) }
        let order = order ?? Self.order(scenario, admitted: admitted, frame: frame)
        var widest = max(10, order.widestName)
        for (q, _) in order.groups {
            widest = max(widest, displayWidth(q.map { Self.queueLabel($0, timeline: timeline) } ?? Self.byHandLabel))
        }
        nameWidth = min(widest, 26, max(4, rect.width / 3)) + 1
        plot = (rect.x + nameWidth, max(0, rect.width - nameWidth))
        edge = max(timeline.endTime, frame.now)
        if let shown = frame.historyShown, let history = frame.history {
            cursor = history.time(after: shown)
        } else {
            cursor = frame.now
        }
        fits = state.timelineView.window == nil
        window = state.timelineView.window ?? .fit(edge: edge)
        step = plot.width > 0 ? window.span / Double(plot.width) : window.span

        let height = max(0, rect.height - 3)
        let top = rect.y + 3
        let selected = state.selectedOperation
        var rows: [(TimelineRow, Int)] = []
        if threads {
            let all = Self.threadRows(timeline)
            let mine = selected.flatMap { timeline.lanes.indices.contains($0.index) ? timeline.lanes[$0.index] : nil }
            // An asynchronous operation's span is on its in-flight row; any
            // other's on the thread it ran on.
            let selectedRow =
                mine?.inFlightRow.flatMap { all.firstIndex(of: .inFlight($0)) }
                ?? mine?.thread.flatMap { all.firstIndex(of: .thread($0)) }
            first = ColumnScroll.offset(
                stored: state.timelineView.threadScroll, count: all.count, capacity: height, selected: selectedRow)
            for (i, row) in all.dropFirst(first).prefix(height).enumerated() { rows.append((row, top + i)) }
            shown = rows.count
            total = all.count
        } else {
            let ops = order.operations
            first = order.offset(
                stored: state.timelineView.laneScroll, height: height, selected: selected.flatMap(order.place))
            var lastGroup = -1
            var place = first
            var count = 0
            while place < ops.count && rows.count < height {
                let group = order.groupOf[place]
                if group != lastGroup {
                    guard rows.count + 2 <= height || height < 2 else { break }
                    rows.append((order.groups[group].queue.map(TimelineRow.queue) ?? .byHand, top + rows.count))
                    lastGroup = group
                    if rows.count >= height { break }
                }
                rows.append((.operation(ops[place]), top + rows.count))
                count += 1
                place += 1
            }
            shown = count
            total = ops.count
        }
        self.rows = rows
    }
}

extension TimelinePlan {
    /// The timeline's order of the operations that show: the memo's for
    /// the whole scenario, one made for the frame under a filter.
    static func order(_ scenario: Scenario, admitted: OperationMask?, frame: FrameInput) -> TimelineOrder {
        if let admitted { return TimelineOrder(scenario, shown: admitted) }
        return frame.memo?.order(of: scenario) ?? TimelineOrder(scenario)
    }
}
