import Board
import RunEvents
import ScenarioKit
import Synchronization
import TextKit

/// `H` in the graph: the selected operation's critical path, read from the
/// run's events up to the history cursor (`CriticalPath`), with the
/// operations on it and its links in words, as `opscope why` prints them:
/// one sentence naming the link that cost the most, then the links
/// grouped by what they waited for, those of no wait folded.
struct HeldBack: Sendable {
    var op: OperationID
    /// How many of the run's events it was read from.
    var events: Int
    /// Whether the operation had started by then (a chain exists).
    var started: Bool
    /// The sentence the band opens with (it stays while the rest scrolls).
    var sentence: String
    /// The chain and what it is read from, when it started.
    var chain: (path: CriticalPath, timeline: RunTimeline, listing: CriticalPath.Listing, byHand: Set<OperationID>)?
    /// The operations the links name, the selected one too.
    var onPath: Set<OperationID>

    /// How many lines scroll under the sentence: the groups and their
    /// links in time order, then the total.
    var lineCount: Int { chain.map { $0.listing.entries.count + 1 } ?? 0 }

    /// The scrolled line `k`, put in words when it is shown (a chain can
    /// have thousands of links, a band shows a few).
    func line(_ k: Int) -> String {
        guard let chain else { return "" }
        guard k < chain.listing.entries.count else { return chain.path.total() }
        return chain.path.text(
            of: chain.listing.entries[k], in: chain.listing, timeline: chain.timeline, byHand: chain.byHand)
    }
}

extension GraphView {
    /// The critical path of `op` at the frame's moment, kept in the memo:
    /// once `op` has started, later events cannot change what held it back.
    static func heldBack(_ op: OperationID, board: BoardState, frame: FrameInput) -> HeldBack {
        let count = frame.history.map { frame.historyShown ?? $0.count } ?? 0
        if let kept = frame.memo?.heldBackKept.withLock({ $0 }), kept.op == op,
            kept.events == count || (kept.started && count >= kept.events)
        {
            return kept
        }
        let held = readHeldBack(
            op, board: board, history: frame.history, count: count, lanes: frame.timeline, memo: frame.memo)
        frame.memo?.heldBackKept.withLock { $0 = held }
        return held
    }

    static func readHeldBack(
        _ op: OperationID, board: BoardState, history: BoardHistory?, count: Int, lanes: TimelineLanes? = nil,
        memo: ScreenMemo? = nil
    ) -> HeldBack {
        let scenario = board.scenario
        let name = scenario.opName(op)
        let timeline = pathTimeline(board: board, history: history, count: count, lanes: lanes, memo: memo)
        guard let path = timeline.criticalPath(to: op) else {
            let why: String
            if board[operation: op].phase == .cancelled {
                why = "\(name) was cancelled and never started: no start to trace back"
            } else if let stuck = board.stuckNow, let reason = stuck[op] {
                let clause = reason.clause(in: scenario, waiting: board.stall != nil, reasons: stuck)
                why = "\(name) has not started, and the run is stuck: \(clause) (y says more)"
            } else {
                why = "\(name) has not started at this moment: no chain held back a start yet"
            }
            return HeldBack(op: op, events: count, started: false, sentence: why, chain: nil, onPath: [op])
        }
        var onPath: Set<OperationID> = [op]
        for step in path.steps {
            switch step.link {
            case .ran(let other), .completionBlock(let other), .finishedWithoutRunning(let other):
                onPath.insert(other)
            case .waited(let other, let release):
                onPath.insert(other)
                switch release {
                case .prerequisite(let cause), .slot(let cause), .threadFreed(let cause, _): onPath.insert(cause)
                default: break
                }
            case .timedAction:
                break
            }
        }
        let chain = (path, timeline, path.listing(in: scenario), scenario.startedByHand)
        return HeldBack(
            op: op, events: count, started: true, sentence: path.summary(in: timeline), chain: chain, onPath: onPath)
    }

    /// The run's timeline up to its first `count` events, for the critical
    /// path: from the moments the interface's lanes already recorded when
    /// they are at hand (no pass of the run's facts over every event), else
    /// from the events; kept in the memo for the next selection.
    static func pathTimeline(
        board: BoardState, history: BoardHistory?, count: Int, lanes: TimelineLanes?, memo: ScreenMemo?
    ) -> RunTimeline {
        let scenario = board.scenario
        if let kept = memo?.pathTimelineKept.withLock({ $0 }), kept.count == count,
            kept.timeline.scenario.operations.count == scenario.operations.count
        {
            return kept.timeline
        }
        let timeline: RunTimeline
        if let history, let lanes, lanes.recorded >= count, lanes.lanes.count == scenario.operations.count {
            // In history: the moments as they stood at the cursor.
            let through = lanes.recorded > count ? (count > 0 ? history.events[count - 1].seq : Int.min) : nil
            let events = history.events.apartFromOperations(prefix: count)
            timeline = RunTimeline(scenario: scenario, events: events, lanes: lanes, through: through)
        } else {
            let events = history.map { Array($0.events.prefix(count)) } ?? []
            timeline = RunTimeline(scenario: scenario, events: events, keepsBoards: false)
        }
        memo?.pathTimelineKept.withLock { $0 = (count, timeline) }
        return timeline
    }

    /// The band's shape in `rect` (the graph's body): how many rows it
    /// takes (two thirds of the body, at least 5 rows where there is room:
    /// the graph scrolls to keep the selection in the rest),
    /// the sentence wrapped to at most 3 of them, and the rows left for
    /// the scrolled lines (one of them the line that says where they are,
    /// when they do not all fit).
    static func bandShape(_ held: HeldBack, width: Int, height: Int) -> (
        rows: Int, sentence: [String], window: Int, scrolls: Bool
    ) {
        let room = min(height, max(5, height * 2 / 3))
        guard room > 0, width > 0 else { return (0, [], 0, false) }
        var sentence = wrap(held.sentence, width: width, indent: 2)
        if sentence.count > 3 {
            sentence = Array(sentence.prefix(3))
            sentence[2] = truncate(sentence[2] + " …", toWidth: width)
        }
        sentence = Array(sentence.prefix(max(1, room - 1)))
        let left = room - sentence.count
        let scrolls = held.lineCount > left
        let window = scrolls ? max(0, left - 1) : held.lineCount
        let rows = sentence.count + window + (scrolls ? 1 : 0)
        return (rows, sentence, window, scrolls)
    }

    /// The first line shown of `held` at `scroll` (clamped: the last
    /// line at the bottom of the band at most).
    static func clampedScroll(_ scroll: Int, _ held: HeldBack, window: Int) -> Int {
        min(max(0, scroll), max(0, held.lineCount - window))
    }

    /// Writes the band at the bottom of `rect` and returns the rows it
    /// took: the sentence, then the lines from `scroll` on, and when they
    /// do not all fit, a line saying which are shown and the keys that
    /// scroll them (PgUp PgDn, Home End).
    static func drawBand(_ held: HeldBack, scroll: Int, theme: Theme, into grid: inout CellGrid, rect: Rect) -> Int {
        let shape = bandShape(held, width: rect.width, height: rect.height)
        guard shape.rows > 0 else { return 0 }
        let first = clampedScroll(scroll, held, window: shape.window)
        let shown = (first..<min(held.lineCount, first + shape.window)).map(held.line)
        let top = rect.y + rect.height - shape.rows
        grid.fill(Rect(x: rect.x, y: top, width: rect.width, height: shape.rows), with: .blank)
        var row = top
        func put(_ line: String, _ style: Style) {
            grid.write(
                truncate(line, toWidth: rect.width), at: Position(column: rect.x, row: row), style: style,
                clippedTo: rect)
            row += 1
        }
        for line in shape.sentence { put(line, held.started ? theme.heading : theme.plain) }
        for (k, line) in shown.enumerated() {
            let isTotal = first + k == held.lineCount - 1
            let isGroup = line.hasPrefix("  ") && !line.hasPrefix("   ")
            put(line, isTotal ? theme.info : isGroup ? theme.plain.bolded : theme.plain)
        }
        if shape.scrolls {
            let last = first + shown.count
            let more =
                last < held.lineCount
                ? "PgDn for more, End for the last link" : "the last link: PgUp goes back, Home to the first"
            put("  lines \(first + 1)–\(last) of \(held.lineCount) · \(more) · H hides", theme.dim)
        }
        return shape.rows
    }
}
