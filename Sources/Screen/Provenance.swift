import Board
import RunEvents
import ScenarioKit
import TextKit

/// Who did what, as the inspectors say it: the origin of a queue's
/// suspension, of an operation's cancel, of each action in a queue's
/// history, and the chain of waits behind "not running". The origins'
/// words are `EventFormatter.byText`; a stall's are `StallCause`'s.
enum Provenance {
    /// How many links of a chain of waits the inspector names before
    /// `…and N more`.
    static let chainLinksShown = 4

    /// `by line 16 at 0.300s`: the action that suspended `q` last; nil
    /// when none did (a queue declared `suspended` says so in its own
    /// inspector, not after each of its operations' reasons).
    static func suspension(of q: QueueID, board: BoardState) -> String? {
        let scenario = board.scenario
        if board.stallContext.lastSuspension.indices.contains(q.index),
            let last = board.stallContext.lastSuspension[q.index]
        {
            return "by \(EventFormatter.byText(last.origin, in: scenario)) at \(Spelling.seconds(last.time))"
        }
        return nil
    }

    /// `cancelled at 0.300s by line 12 (cancel-all downloads)`; nil when
    /// the card is not cancelled or the stream does not tell by what.
    static func cancel(of card: OperationCard, board: BoardState) -> String? {
        guard card.isCancelled, let index = card.cancelledBy, index < board.actions.count else { return nil }
        let entry = board.actions[index]
        let scenario = board.scenario
        return "cancelled at \(Spelling.seconds(entry.time)) by \(EventFormatter.byText(entry.origin, in: scenario)) "
            + "(\(ScenarioPrinter.actionText(entry.action, in: scenario)))"
    }

    /// One action of a queue's history: `0.300s  suspended by line 16`,
    /// `0.900s  resume by a key: ignored, not suspended`.
    static func historyLine(_ entry: ActionEntry, scenario: Scenario) -> String {
        let by = "by " + EventFormatter.byText(entry.origin, in: scenario)
        let done = entry.ignored == nil
        let what: String
        switch entry.action {
        case .suspend: what = done ? "suspended" : "suspend"
        case .resume: what = done ? "resumed" : "resume"
        case .setCap(_, let cap):
            what = cap == .systemDefault ? "cap: system decides" : "cap \(cap.foundationValue)"
        case .cancelAll: what = "cancel-all"
        case .waitAll: what = done ? "the main thread waits for all its operations" : "wait-all"
        default: what = ScenarioPrinter.actionText(entry.action, in: scenario)
        }
        let ignored = entry.ignored.map { ": ignored, " + $0.text } ?? ""
        return "\(Spelling.seconds(entry.time))  \(what) \(by)\(ignored)"
    }

    /// The chain of waits behind `op`, to its root: `waiting for decode3 →
    /// decode3 waits for fetch3 → fetch3: its queue net is suspended (by
    /// line 9 at 0.400s)`. At most `chainLinksShown` links are named, then
    /// `…and N more` and the root.
    static func chain(_ chain: NotRunningChain, board: BoardState) -> String {
        let scenario = board.scenario
        let arrow = " \u{2192} "
        var parts = ["waiting for " + Wording.names(chain.waits[0], in: scenario)]
        let middle = Array(chain.links.indices.dropFirst().dropLast())
        for i in middle.prefix(chain.cycle ? middle.count : chainLinksShown - 1) {
            parts.append("\(scenario.opName(chain.links[i])) waits for \(Wording.names(chain.waits[i], in: scenario))")
        }
        let skipped = chain.cycle ? 0 : middle.count - min(middle.count, chainLinksShown - 1)
        if skipped > 0 { parts.append("\u{2026}and \(skipped) more") }
        if let root = rootText(chain, board: board) { parts.append(root) }
        return parts.joined(separator: arrow)
    }

    /// Why the chain's last operation is not running, or what it does.
    private static func rootText(_ chain: NotRunningChain, board: BoardState) -> String? {
        guard chain.links.count > 2 || !chain.rootReasons.isEmpty || chain.cycle else { return nil }
        let root = board[operation: chain.root]
        let name = root.name
        if chain.cycle { return "\(name) waits for what waits for it: a loop" }
        if chain.rootReasons.isEmpty {
            return root.isExecuting ? "\(name) is executing" : "\(name) is \(Wording.phase(root.phase))"
        }
        let reasons = chain.rootReasons.map { InspectorText.sentence($0, card: root, board: board) }
        return "\(name): " + reasons.joined(separator: "; ")
    }
}
