import Board
import RunEvents
import ScenarioKit
import TextKit

/// What the inspector says about one queue (its line selected): its kind
/// and cap, whether it is suspended and by whom and, while it is, what in
/// the file could still resume it and whether each can still happen; how
/// many of its operations stand in each column; every action on it with
/// its origin (ignored ones too). The most pressing first: a short pane
/// cuts the end.
///
/// Pure: a function of the board (the board at the history cursor), so
/// it tells the run as it was at that moment.
enum QueueInspectorText {
    /// How many actions of its history it lists, the newest.
    static let historyShown = 8

    static func lines(board: BoardState, queue q: QueueID) -> [InspectorLine] {
        guard board.scenario.contains(q) else { return [] }
        let row = board[queue: q]
        let spec = board.scenario[queue: q]
        var out = [
            InspectorLine(kindText(row, spec: spec)), InspectorLine(suspensionText(row, spec: spec, board: board)),
        ]
        if row.holdsBack { out += resumes(of: q, board: board) }
        out.append(InspectorLine("operations: " + counts(of: q, board: board)))
        out += history(of: q, board: board)
        if row.isMain {
            out.append(
                InspectorLine(
                    "OperationQueue.main ignores isSuspended, maxConcurrentOperationCount and cancelAllOperations",
                    .note))
        }
        return out
    }

    /// `concurrent queue, cap 2`, `serial queue (cap 1; declared max 2)`,
    /// `OperationQueue.main: serial, on the main thread`.
    static func kindText(_ row: QueueRow, spec: QueueSpec) -> String {
        if row.isMain { return "OperationQueue.main: serial, its operations run on the main thread" }
        let declared =
            row.cap == spec.cap
            ? "" : "; declared " + (spec.cap == .systemDefault ? "without a cap" : "max \(spec.cap.foundationValue)")
        switch row.cap {
        case .limit(1): return "serial queue (cap 1\(declared))"
        case .limit(let n):
            return "concurrent queue, cap \(n)" + (declared.isEmpty ? "" : " (\(declared.dropFirst(2)))")
        case .systemDefault:
            return "concurrent queue, cap chosen by the system"
                + (declared.isEmpty ? "" : " (\(declared.dropFirst(2)))")
        }
    }

    /// `suspended since 0.300s by line 16`, `not suspended`.
    static func suspensionText(_ row: QueueRow, spec: QueueSpec, board: BoardState) -> String {
        guard row.holdsBack else { return "not suspended" }
        let q = row.id
        if board.stallContext.lastSuspension.indices.contains(q.index),
            let last = board.stallContext.lastSuspension[q.index]
        {
            return "suspended since \(Spelling.seconds(last.time)) by "
                + EventFormatter.byText(last.origin, in: board.scenario)
        }
        if spec.startsSuspended {
            let line = spec.location.line > 0 ? " (its queue line, line \(spec.location.line))" : ""
            return "suspended from the start\(line)"
        }
        return "suspended"
    }

    /// `0 pending, 2 ready, 0 executing, 2 finished, 0 cancelled`, and
    /// those not added yet when there are.
    static func counts(of q: QueueID, board: BoardState) -> String {
        var tally = [Int](repeating: 0, count: Phase.allCases.count)
        for card in board.cards where card.queue == q && !card.startedByHand {
            if let i = Phase.allCases.firstIndex(of: card.phase) { tally[i] += 1 }
        }
        var parts = Phase.columns.map { phase in
            "\(tally[Phase.allCases.firstIndex(of: phase)!]) \(Wording.phase(phase))"
        }
        let notAdded = tally[Phase.allCases.firstIndex(of: .notAdded)!]
        if notAdded > 0 { parts.append("\(notAdded) not added yet") }
        return parts.joined(separator: ", ")
    }

    /// Every action on it, oldest first (the newest `historyShown`).
    static func history(of q: QueueID, board: BoardState) -> [InspectorLine] {
        let entries = board.actions.entries(of: q, limit: historyShown + 1)
        guard !entries.isEmpty else { return [InspectorLine("actions on it: none yet")] }
        var out = [InspectorLine("actions on it:")]
        if entries.count > historyShown {
            let earlier = board.actions.count(of: q) - historyShown
            out.append(InspectorLine("  \u{2026}and \(earlier) earlier"))
        }
        for index in entries.prefix(historyShown).reversed() {
            out.append(InspectorLine("  " + Provenance.historyLine(board.actions[index], scenario: board.scenario)))
        }
        return out
    }

    /// What in the file could still resume the suspended queue `q`, each
    /// with whether it can still happen: a stall's own analysis
    /// (`StallCause`) when the run is stuck on it, else the `at` lines to
    /// come and the completion blocks not yet run, each with what its
    /// operation waits for.
    static func resumes(of q: QueueID, board: BoardState) -> [InspectorLine] {
        let scenario = board.scenario
        if let cause = board.stallCauses?.first(where: { $0.root == .suspension(q) }),
            let suspension = cause.suspension
        {
            var out = [InspectorLine("stuck: " + cause.text(in: scenario, waiting: board.stall != nil), .reason)]
            for resume in suspension.resumes {
                let can = resume.hold.map { "it cannot run: " + StallCause.holdText($0, about: q, in: scenario) }
                out.append(
                    InspectorLine(
                        "  " + StallCause.resumeText(resume, in: scenario) + ": " + (can ?? "still to come"), .reason))
            }
            return out
        }
        var lines: [String] = []
        for (index, timed) in scenario.actions.enumerated() where board.stallContext.isToCome(timedAction: index) {
            guard case .resume(q) = timed.action else { continue }
            let line = timed.location.line > 0 ? " (line \(timed.location.line))" : ""
            lines.append("still to come at \(Spelling.seconds(timed.time.seconds))\(line)")
        }
        for (i, spec) in scenario.operations.enumerated() where spec.completion?.contains(.resume(q)) == true {
            let card = board.cards[i]
            guard !card.completionRan else { continue }
            let line = spec.location.line > 0 ? " (line \(spec.location.line))" : ""
            lines.append(
                "when \(Spelling.possessive(spec.name)) completion block runs\(line); "
                    + status(of: card, queue: q, board: board))
        }
        guard !lines.isEmpty else { return [InspectorLine("nothing in the file resumes it", .reason)] }
        return [InspectorLine("what could resume it:", .reason)] + lines.map { InspectorLine("  " + $0, .reason) }
    }

    /// Where the operation whose completion block would resume `q` stands.
    private static func status(of card: OperationCard, queue q: QueueID, board: BoardState) -> String {
        let name = card.name
        if card.isFinished { return "\(name) finished, its completion block is about to run" }
        if card.isExecuting { return "\(name) is executing" }
        if let chain = board.notRunningChain(card.id) {
            let behind =
                chain.rootReasons.contains(.queueSuspended(q))
                ? ": it waits behind this very suspension, so only something else can resume \(board[queue: q].name)"
                : ""
            return "\(name) is " + Provenance.chain(chain, board: board) + behind
        }
        let reasons = board.whyNotRunning(card.id)
        if reasons.contains(.queueSuspended(q)) {
            return "\(name) is on \(board[queue: q].name) itself: it cannot start while the queue is suspended"
        }
        guard !reasons.isEmpty else { return "\(name) is \(Wording.phase(card.phase))" }
        return "\(name): "
            + reasons.map { InspectorText.sentence($0, card: card, board: board) }.joined(separator: "; ")
    }
}
