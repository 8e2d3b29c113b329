import Board
import RunEvents
import ScenarioKit
import TextKit

/// What the status line says after a key reached the engine: made from the
/// action's event (and whether the engine ignored it), and worded from
/// what the board shows *now*, never from the key pressed. A cancel whose
/// effects have not arrived yet reads "cancel() sent to parse"; once they
/// have, it says what they were.
public struct ActionNotice: Sendable, Hashable {
    public var action: Action
    /// Why the engine ignored it; nil when it applied it.
    public var ignored: ActionRefusal?
    /// `seq` of the action's event.
    public var seq: Int
    /// Real seconds, like `TransientMessage.expiresAt`.
    public var expiresAt: Double

    public init(action: Action, ignored: ActionRefusal?, seq: Int, expiresAt: Double) {
        self.action = action
        self.ignored = ignored
        self.seq = seq
        self.expiresAt = expiresAt
    }

    /// The line, and whether it reports a refusal.
    public func text(board: BoardState, glyphs: GlyphSet) -> (text: String, refused: Bool) {
        let scenario = board.scenario
        if case .start(let op) = action {
            return (Self.startText(board[operation: op], ignored: ignored, seq: seq, board: board), ignored != nil)
        }
        if let ignored {
            return (ignored.sentence(for: action, in: scenario, dash: glyphs.dash), true)
        }
        switch action {
        case .cancel(let op):
            return (cancelText(board[operation: op], board: board, glyphs: glyphs), false)
        case .cancelAll(let q):
            let name = board[queue: q].name
            let count = board.cards.filter { $0.queue == q && ($0.cancelledSeq ?? 0) > seq }.count
            return (
                "cancelAllOperations() on \(name): isCancelled is now true on \(Spelling.count(count, "operation"))",
                false
            )
        case .suspend(let q):
            let row = board[queue: q]
            return (
                row.isSuspended
                    ? "\(row.name) is suspended: what runs goes on, nothing new starts (s resumes it)"
                    : "suspend \(row.name)", false
            )
        case .resume(let q):
            let row = board[queue: q]
            return (row.isSuspended ? "resume \(row.name)" : "\(row.name) is resumed", false)
        case .setCap(let q, let cap):
            let row = board[queue: q]
            guard row.cap == cap else { return ("maxConcurrentOperationCount of \(row.name) set", false) }
            return ("\(row.name): " + Wording.load(row, glyphs: glyphs) + Self.capNote(row, board: board), false)
        case .setPriority(let op, let level):
            let card = board[operation: op]
            var text = "queuePriority of \(card.name) is \(level.rawValue)"
            if card.priorityChangesLost {
                text +=
                    ": Foundation filed it under \(card.effectivePriority.rawValue) when it was added (serial queue, "
                    + "no priority) and looked for it elsewhere, so it did not move"
            } else if card.dispatchedAt != nil && card.startedAt == nil {
                text += ": it was dispatched already, so its place in the queue no longer matters"
            }
            return (text, false)
        case .add(let op):
            return ("added \(board[operation: op].name)", false)
        case .addBatch(let ops):
            let queue = ops.first.map { board[queue: board[operation: $0].queue].name } ?? ""
            return (
                "added \(Wording.names(ops, in: scenario)) to \(queue) in one addOperations call: the queue picks "
                    + "among all of them at once", false
            )
        case .start:
            return ("", false)  // said above
        case .wait, .waitAll:
            let call = EventFormatter.waitCall(action, in: scenario)
            if let wait = board.mainThreadWait, wait.action == action {
                return ("the main thread is blocked in \(call): it runs nothing else until the call returns", false)
            }
            return ("\(call) asked of the main thread", false)
        }
    }

    /// `start` by hand: what the call did, from the card now, or, refused,
    /// why it was not made and what Foundation (or the operation's own
    /// `start()`) would have done: `start() not called: fetch is not ready
    /// (it waits for auth); Foundation would stop the program here:
    /// receiver is not yet ready to execute`.
    static func startText(_ card: OperationCard, ignored: ActionRefusal?, seq: Int, board: BoardState) -> String {
        let name = card.name
        let notCalled = "start() not called: \(name)"
        switch ignored {
        case .startNotReady?, .startNotReadyAsync?:
            // What it waited for at the refusal (the notice outlives it).
            let waits = board.scenario[operation: card.id].dependencies.filter {
                !board[operation: $0].isFinished || board[operation: $0].phaseSeq > seq
            }
            let on = waits.isEmpty ? "" : " (it waits for \(Wording.names(waits, in: board.scenario)))"
            let would =
                ignored == .startNotReady
                ? "Foundation would stop the program here: receiver is not yet ready to execute"
                : "its own start() does not look at isReady, and would begin before it"
            return "\(notCalled) is not ready\(on); \(would)"
        case .startWhileExecuting?:
            return "\(notCalled) is executing; Foundation would stop the program here: receiver is already executing"
        case .startWhileExecutingAsync?:
            return "\(notCalled) is still executing; its own start() would begin its work a second time"
        case .startInAQueue?:
            return "\(notCalled) is its queue's to start; Foundation would stop the program here: something is "
                + "trying to start the receiver simultaneously from more than one thread"
        case let other?:
            return other.sentence(for: .start(card.id), in: board.scenario)
        case nil:
            break
        }
        if card.isFinished, card.phaseSeq < seq {
            return "\(name) had finished: its start() did nothing (the call returned at once)"
        }
        if card.wasSkipped {
            return "\(name).start() found it cancelled: it finished without running main()"
        }
        switch card.phase {
        case .executing where card.isExecuting && board.scenario[operation: card.id].body.isAsync:
            return "\(name).start() returned at once: \(name) is asynchronous and executes on, holding no thread"
        case .executing:
            return "\(name).start() runs its main() on the main thread, which does nothing else until it returns"
        case .finished, .cancelled:
            let thread = card.thread.map { " on thread \($0)" } ?? ""
            if board.scenario[operation: card.id].body.isAsync {
                return "\(name).start() began it\(thread) and returned at once; it has finished since, never in a queue"
            }
            return "\(name).start() ran it\(thread) and returned once it finished: it was never in a queue"
        case .notAdded, .pending, .ready:
            return "\(name).start() called on the main thread"
        }
    }

    private func cancelText(_ card: OperationCard, board: BoardState, glyphs: GlyphSet) -> String {
        let name = card.name
        guard card.isCancelled else { return "cancel() sent to \(name)" }
        switch card.phase {
        case .executing:
            return "\(name) is cancelled and still executing: cancel() only sets isCancelled; "
                + "it stops when its work checks the flag"
        case .cancelled:
            return card.wasSkipped
                ? "\(name) was cancelled before it started: it finished without running"
                : "\(name) was cancelled while it ran and finished when its work saw the flag"
        case .ready:
            let row = board[queue: card.queue]
            if row.holdsBack {
                return "\(name) is cancelled and Ready: it finishes when \(row.name) is resumed and starts it"
            }
            return "\(name) is cancelled and Ready: its queue starts it, and start() finishes it at once"
        case .pending, .notAdded, .finished:
            return "\(name) is cancelled"
        }
    }

    /// After a cap change: what the engine does about what already runs.
    private static func capNote(_ row: QueueRow, board: BoardState) -> String {
        guard let limit = row.limit, row.executing > limit else { return "" }
        return "; the \(row.executing) already running go on (Foundation never stops them)"
    }
}
