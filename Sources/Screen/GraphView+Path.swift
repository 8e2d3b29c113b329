import Board
import RunEvents
import ScenarioKit
import Synchronization
import TextKit

/// `H` in the graph: the selected operation's critical path, read from the
/// run's events up to the history cursor (`CriticalPath`), with the
/// operations on it and its links in words, as `opscope why` prints them.
struct HeldBack: Sendable {
    var op: OperationID
    /// How many of the run's events it was read from.
    var events: Int
    /// Whether the operation had started by then (a chain exists).
    var started: Bool
    /// The band's lines: a heading, the links in time order, the total.
    var lines: [String]
    /// The operations the links name, the selected one too.
    var onPath: Set<OperationID>
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
        let held = readHeldBack(op, board: board, history: frame.history, count: count)
        frame.memo?.heldBackKept.withLock { $0 = held }
        return held
    }

    static func readHeldBack(_ op: OperationID, board: BoardState, history: BoardHistory?, count: Int) -> HeldBack {
        let scenario = board.scenario
        let name = scenario.opName(op)
        let events = history.map { Array($0.events.prefix(count)) } ?? []
        let timeline = RunTimeline(scenario: scenario, events: events, keepsBoards: false)
        guard let path = timeline.criticalPath(to: op) else {
            let why: String
            if board[operation: op].phase == .cancelled {
                why = "\(name) was cancelled and never started: no start to trace back"
            } else if let reason = board.stuckNow?[op] {
                why =
                    "\(name) has not started, and the run is stuck: \(reason.clause(in: scenario, waiting: board.stall != nil)) (y says more)"
            } else {
                why = "\(name) has not started at this moment: no chain held back a start yet"
            }
            return HeldBack(op: op, events: count, started: false, lines: [why], onPath: [op])
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
        let heading = "What held \(name) back, link by link (its critical path; H hides it):"
        return HeldBack(
            op: op, events: count, started: true, lines: [heading] + path.lines(in: timeline) + [path.total()],
            onPath: onPath)
    }

    /// Writes the band at the bottom of `rect` (at most half of it, at
    /// least 3 rows) and returns the rows it took. Too many links for it:
    /// the earliest give way to a line that counts them, since the links
    /// nearest the start say most about it.
    static func drawBand(_ held: HeldBack, theme: Theme, into grid: inout CellGrid, rect: Rect) -> Int {
        let room = min(rect.height, max(3, rect.height / 2))
        guard room > 0 else { return 0 }
        var lines = held.lines
        if lines.count > room, room >= 3 {
            // Heading, "… N earlier links", the latest links, the total.
            let kept = room - 3
            let links = Array(lines.dropFirst().dropLast())
            let dropped = links.count - kept
            lines =
                [lines[0], "  … \(dropped) earlier link\(dropped == 1 ? "" : "s")"] + links.suffix(kept)
                + [lines[lines.count - 1]]
        }
        lines = Array(lines.prefix(room))
        let top = rect.y + rect.height - lines.count
        grid.fill(Rect(x: rect.x, y: top, width: rect.width, height: lines.count), with: .blank)
        for (k, line) in lines.enumerated() {
            let style = k == 0 ? theme.heading : k == lines.count - 1 && held.started ? theme.info : theme.plain
            grid.write(
                truncate(line, toWidth: rect.width), at: Position(column: rect.x, row: top + k), style: style,
                clippedTo: rect)
        }
        return lines.count
    }
}
