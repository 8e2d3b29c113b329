import Board
import RunEvents
import ScenarioKit
import TextKit

/// One paragraph of the inspector, before wrapping.
struct InspectorLine: Sendable, Hashable {
    enum Role: Sendable, Hashable {
        case plain, heading, reason, note
    }

    var text: String
    var role: Role

    init(_ text: String, _ role: Role = .plain) {
        self.text = text
        self.role = role
    }
}

/// What the inspector says about one operation, in plain words: what it
/// is, its four flags, what it waits for and what waits for it, why it is
/// not running, and the engine facts (docs/SCENARIO-LANGUAGE.md) that explain what
/// the user sees.
enum InspectorText {
    static func lines(board: BoardState, op: OperationID, now: Double) -> [InspectorLine] {
        let card = board[operation: op]
        let spec = board.scenario[operation: op]
        let queue = board[queue: card.queue]
        var out: [InspectorLine] = []

        if card.startedByHand {
            out.append(InspectorLine("\(what(spec)), in no queue: the main thread starts it by hand"))
        } else {
            let queueText = queue.isMain ? "\(queue.name) (OperationQueue.main)" : queue.name
            out.append(InspectorLine("\(what(spec)) on \(queueText); \(priority(card, spec))"))
        }
        let reasons = board.whyNotRunning(op)
        if let stuck = board.stall?[op] ?? board.outcome?.stuck[op] {
            let formatter = EventFormatter(scenario: board.scenario)
            out.append(
                InspectorLine(
                    "stuck: \(formatter.stuckText(stuck, of: op, waiting: board.stall != nil))"
                        + fix(
                            stuck, board, queue: card.queue,
                            custom: board.scenario[operation: op].body.customClass != nil), .reason))
        }
        if reasons.count == 1 {
            out.append(InspectorLine("not running: " + sentence(reasons[0], card: card, board: board), .reason))
        } else if !reasons.isEmpty {
            out.append(InspectorLine("not running:", .reason))
            for reason in reasons {
                out.append(InspectorLine("  " + sentence(reason, card: card, board: board), .reason))
            }
        }
        // Only a queue's add announces readiness: one started by hand has none to show.
        let ready = card.startedByHand ? "" : "isReady=\(card.isReady) "
        out.append(
            InspectorLine(
                "\(Wording.phase(card.phase)): \(ready)isExecuting=\(card.isExecuting) "
                    + "isFinished=\(card.isFinished) isCancelled=\(card.isCancelled)"))
        if let ran = ranText(card, spec: spec) { out.append(InspectorLine(ran)) }
        if card.startedByHand { out += HandStartText.calls(of: op, board: board).map { InspectorLine($0) } }
        if let cancel = Provenance.cancel(of: card, board: board) { out.append(InspectorLine(cancel)) }
        if let rule = ranThoughCancelled(card, spec: spec, board: board) { out.append(InspectorLine(rule, .reason)) }
        if card.phase == .executing, let p = board.progress(of: op, now: now) {
            out.append(InspectorLine("\(Int(saturating: p * 100))% of its work done"))
        } else if card.phase == .executing, card.isExecuting, case .custom(let type) = spec.body {
            let since = card.startedAt.map { " for " + Spelling.seconds(max(0, now - $0)) } ?? ""
            out.append(InspectorLine("executing\(since): how long its work takes is your class \(type)'s code"))
        } else if card.phase == .executing {
            out.append(
                InspectorLine(
                    "it posted isExecuting false and not yet isFinished true: not running, not finished, "
                        + "and its queue still counts it", .reason))
        }
        if !spec.dependencies.isEmpty {
            out.append(InspectorLine("depends on: " + withPhases(spec.dependencies, board)))
        }
        let dependents = board.dependents(of: op)
        if !dependents.isEmpty {
            out.append(InspectorLine("dependents: " + withPhases(dependents, board)))
        }
        out += notes(card: card, spec: spec, queue: queue, reasons: reasons, board: board).map {
            InspectorLine("note: " + $0, .note)
        }
        return out
    }

    /// When it ran and on which thread, as observed: `ran 0.100→0.300s on
    /// thread #1`, `running since 0.100s on thread #1`; an asynchronous
    /// operation's thread is only where its start() ran. nil before it
    /// started.
    static func ranText(_ card: OperationCard, spec: OperationSpec) -> String? {
        guard let started = card.startedAt else { return nil }
        let arrow = "\u{2192}"
        let thread = card.thread.map { spec.body.isAsync ? ", its start() on thread \($0)" : " on thread \($0)" } ?? ""
        guard let ended = card.finishedAt else { return "running since \(Spelling.seconds(started))\(thread)" }
        return "ran \(Spelling.secondsNumber(started))\(arrow)\(Spelling.seconds(ended))\(thread)"
    }

    /// One of the user's classes that went executing after a cancel that
    /// came before its start (`Provenance.cancel`'s moment against its
    /// start's): the rule its `start()` broke.
    static func ranThoughCancelled(_ card: OperationCard, spec: OperationSpec, board: BoardState) -> String? {
        guard spec.body.customClass != nil, let started = card.startedAt, let index = card.cancelledBy,
            index < board.actions.count, board.actions[index].time < started
        else { return nil }
        return "it went executing though it was cancelled before it started: start() looks at isCancelled first "
            + "and, when set, finishes at once, without going executing or starting its work"
    }

    /// What a user can do about a stuck operation, or what it costs its
    /// queue, after its reason.
    /// `custom`: the operation is one of the user's classes.
    static func fix(_ reason: StuckReason, _ board: BoardState, queue: QueueID, custom: Bool = false) -> String {
        switch reason {
        case .neverPostedFinish where custom:
            return ": post willChangeValue/didChangeValue(forKey: \"isFinished\") around the change; it holds a slot "
                + "of \(board[queue: queue].name)"
        case .queueSuspended(let q) where board.stall != nil && !board[queue: q].isMain:
            return " (s on \(board[queue: q].name) resumes it)"
        case .neverPostedFinish:
            // Executing, so its queue counts it against the cap (`StallCause.Kind`).
            return ": it holds a slot of \(board[queue: queue].name) and does nothing"
        case .notStartedByHand:
            return ": no key starts it (only a 'start' line of the file does)"
        case .waitsFor, .waitsForSlot, .queueSuspended, .mainThreadBlocked, .unknown:
            return ""
        }
    }

    /// `work 1.5s`, `blocks 0.5s + 1s`, `async 2s`, `barrier 0.2s`.
    static func what(_ spec: OperationSpec) -> String {
        let d = Spelling.duration(_:)
        switch spec.body {
        case .work(let x): return "work \(d(x))"
        case .blocks(let xs): return "blocks " + xs.map(d).joined(separator: " + ")
        case .async(let x): return "async \(d(x))"
        case .barrier(let x): return x == .zero ? "barrier block" : "barrier block \(d(x))"
        case .custom(let type): return "class \(type)"
        }
    }

    static func priority(_ card: OperationCard, _ spec: OperationSpec) -> String {
        if card.isBarrier { return "runs before every other ready operation" }
        var text = "priority \(card.effectivePriority.rawValue)"
        if let qos = spec.qos { text += ", QoS \(qos.rawValue)" }
        if card.queuePriority == nil && card.addedSeq != nil && !card.priorityFromQoS { text += " (default)" }
        return text
    }

    /// `fetch (finished), auth (executing)`.
    static func withPhases(_ ids: some Sequence<OperationID>, _ board: BoardState) -> String {
        ids.map { "\(board[operation: $0].name) (\(Wording.phase(board[operation: $0].phase)))" }
            .joined(separator: ", ")
    }

    /// One reason as a sentence fragment.
    static func sentence(_ reason: NotRunningReason, card: OperationCard, board: BoardState) -> String {
        switch reason {
        case .notAdded:
            return board.scenario.addedLater.contains(card.id)
                ? "not added yet (an add action adds it later)" : "not added yet"
        case .startsByHand:
            return HandStartText.reason(card, board: board)
        case .waitingFor(let ids):
            if let chain = board.notRunningChain(card.id) { return Provenance.chain(chain, board: board) }
            return "waiting for \(Wording.names(ids, in: board.scenario))"
        case .queueSuspended(let q):
            let by = Provenance.suspension(of: q, board: board).map { " (\($0))" } ?? ""
            return "its queue \(board[queue: q].name) is suspended\(by)"
        case .queueAtCap(let executing, let dispatched, let cap):
            let name = board[queue: card.queue].name
            let waiting = dispatched > 0 ? ", \(dispatched) dispatched and waiting for a thread" : ""
            // A start() that returned unfinished holds its slot for good: named.
            let stranded = board.cards.filter { $0.queue == card.queue && $0.stranded }.map(\.id)
            let held =
                stranded.isEmpty
                ? ""
                : "; \(Spelling.count(stranded.count, "slot")) held: "
                    + "\(stranded.map { board.scenario.opName($0) }.joined(separator: ", ")) started and never finished"
            return "its queue \(name) is at its cap (\(max(0, executing)) of \(EventFormatter.capText(cap)) "
                + "running\(waiting)\(held))"
        case .behindHigherPriority(let count, _, _):
            let higher = board.readyHigher(than: card)
            let ops = Spelling.count(count, "ready operation")
            return higher == count
                ? "behind \(count) higher-priority \(count == 1 ? "ready operation" : "ready operations")"
                : "behind \(ops) that the queue takes first (higher priority or added earlier)"
        case .dispatchedWaitingForThread:
            let at = card.dispatchedAt.map { " at " + Spelling.seconds($0) } ?? ""
            if board[queue: card.queue].isMain {
                return "dispatched to the main queue\(at), waiting for the main thread"
            }
            if board.scenario[operation: card.id].body.isAsync {
                return "dispatched by \(board[queue: card.queue].name)\(at): its start() waits for a worker thread"
            }
            return "dispatched by \(board[queue: card.queue].name)\(at), waiting for a worker thread"
        case .dispatchedBehindBarrier(let barrier):
            let at = card.dispatchedAt.map { " at " + Spelling.seconds($0) } ?? ""
            let queue = board[queue: card.queue].name
            return "dispatched by \(queue)\(at) while its barrier \(board[operation: barrier].name) runs: it waits "
                + "behind the barrier's block on \(Spelling.possessive(queue)) dispatch queue"
        }
    }

    /// Engine facts that explain this card, each in a sentence, as docs/SCENARIO-LANGUAGE.md states them.
    static func notes(
        card: OperationCard, spec: OperationSpec, queue: QueueRow, reasons: [NotRunningReason], board: BoardState
    ) -> [String] {
        var notes: [String] = []
        if card.priorityFromQoS, let qos = spec.qos {
            notes.append(
                "its QoS \(qos.rawValue) filed it under \(card.effectivePriority.rawValue) priority: it has no "
                    + "explicit queuePriority (whose getter still answers normal)")
        }
        if let looksIn = board.priorityChangeLooksIn(card.id) {
            let lost = card.priorityChangesLost ? "its last priority change was lost: " : ""
            notes.append(
                "\(lost)it is filed under \(card.effectivePriority.rawValue) (added to a serial queue without a "
                    + "priority), but Foundation looks for it under \(looksIn.rawValue) when its priority changes: "
                    + "a change does not move it")
        }
        if case .blocks(let ds) = spec.body {
            var text = "BlockOperation on Linux runs its \(ds.count) blocks one after another on one thread"
            if let thread = card.thread { text += " (thread \(thread))" }
            notes.append(text)
        }
        if card.startedByHand {
            notes.append(HandStartText.note(card, spec: spec))
        } else if spec.body.isAsync {
            notes.append(
                card.startedAt == nil
                    ? "asynchronous: its start() needs a worker thread; once started it holds none, and it "
                        + "posts isExecuting and isFinished itself"
                    : "asynchronous: it posts isExecuting and isFinished itself; since its start() returned "
                        + "it holds no worker thread")
        }
        if card.isBarrier {
            notes.append(
                "addBarrierBlock: waits for what was added before it; what is added later waits for it (as a "
                    + "dependency until the queue dispatches the barrier, then on the dispatch queue); "
                    + "not counted in operationCount; no handle to cancel it")
            if card.isCancelled && !card.isFinished {
                notes.append(
                    "cancelled while it waited: its block never runs, and Foundation finishes it only when "
                        + "what runs before it on its queue returns")
            }
        }
        if card.cancelRequestedWhileExecuting {
            notes.append("cancel() while it runs only sets isCancelled; it ends when its work checks the flag")
        } else if card.isCancelled && (card.phase == .ready || card.phase == .pending) {
            notes.append(
                "cancelled before it started: it is ready at once, and when its queue starts it, start() sees "
                    + "the flag and finishes it without calling main()")
        }
        if spec.ignoresCancel {
            notes.append(
                spec.body.isAsync
                    ? "its cancel() is not overridden: the work its start() kicked off (a task, a timer) runs on "
                        + "after a cancel, and it finishes only when that work ends"
                    : "its work ignores isCancelled")
        }
        if spec.neverFinishes { notes.append("it never posts isFinished: it stays executing forever") }
        if reasons.contains(.dispatchedWaitingForThread) && !queue.isMain {
            notes.append(
                "libdispatch starts a few workers at once (on 2 CPUs, 2 or 3) and adds about one a second "
                    + "while all are blocked")
        }
        if queue.isMain && !card.startedByHand {
            notes.append("it runs on the main thread between frames; while it runs the interface is frozen")
        }
        if card.completionRan {
            let thread = card.completionThread.map { " on thread \($0)" } ?? ""
            notes.append("its completion block ran\(thread), after the finish")
        }
        if card.stranded {
            notes.append(
                "its start() saw isCancelled and returned without posting isFinished: it is neither executing nor "
                    + "finished, its queue counts it as running for good, and what depends on it never starts")
        }
        if card.leftoverRunning {
            notes.append(
                "its main() returned without waiting for the work it started: Foundation took it for finished, "
                    + "and that work runs on")
        } else if let ended = card.leftoverEndedAt {
            notes.append(
                "the work its main() started and did not wait for ended at \(Spelling.seconds(ended)), after it "
                    + "had finished")
        }
        return notes
    }
}
