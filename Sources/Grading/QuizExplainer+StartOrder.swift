import Board
import FoundationRules
import RunEvents
import ScenarioKit
import TextKit

/// Why one operation started before another: dependencies and barriers,
/// what held the later one back, and the queues' own decisions.
extension QuizExplainer {
    /// What held an operation back while others started: operations that
    /// started while the same thing held it back share one sentence.
    enum HeldBack: Hashable {
        /// It was added to its queue only after they started.
        case addedLater
        /// It became ready only after they started (nothing it waits for explains why).
        case becameReadyLater
        /// It is in no queue: the main thread called its `start()` by hand
        /// only after they started.
        case startedByHandLater
        /// It was waiting for this dependency (or barrier).
        case waitingFor(OperationID)
        /// Its queue had dispatched as many as its cap before it became ready.
        case capFilledByDispatched
        /// On a queue of its own, these held it back there.
        case onItsOwnQueue([NotRunningReason])
    }

    /// A dependency (direct or through others), or a barrier of the queue.
    func structuralReason(_ a: OperationID, _ b: OperationID) -> String? {
        let (fa, fb) = (timeline[a], timeline[b])
        let (nameA, nameB) = (name(a), name(b))
        let after = "\(nameB) started after \(nameA)"
        let (specA, specB) = (scenario[operation: a], scenario[operation: b])
        if let path = timeline.dependencyPath(from: b, to: a) {
            if path.count == 2 {
                return
                    "\(after) because it depends on \(nameA) (it became ready only when \(nameA) finished\(at(fa.finished)))"
            }
            let via = path[1]
            let chain = path.map(name).joined(separator: " → ")
            return
                "\(after) because it depends on \(nameA) through \(scenario.opNames(Array(path[1..<(path.count - 1)]))) "
                + "(\(chain)): it became ready only when \(name(via)) finished\(at(timeline[via].finished))"
        }
        if specA.queue == specB.queue, let addA = fa.added, let addB = fb.added, addA.seq < addB.seq {
            let q = queueName(specA.queue)
            if specA.isBarrier {
                return "\(after): \(nameA) is a barrier of \(q) and \(nameB) was added after it, "
                    + "so \(nameB) waited for the barrier to finish\(at(fa.finished))"
            }
            if specB.isBarrier {
                return
                    "\(after): \(nameB) is a barrier of \(q), so it waited for everything added to \(q) before it, \(nameA) included"
            }
        }
        return nil
    }

    /// `b` could not start yet when `a` started: it was added later, or
    /// not ready. The key tells reasons apart; the text takes the
    /// operations that started meanwhile.
    func lateStart(_ b: OperationID, after a: OperationID) -> (key: HeldBack, text: ([OperationID]) -> String)? {
        guard let sa = timeline[a].started else { return nil }
        let fb = timeline[b]
        let nameB = name(b)
        let starts = { (ids: [OperationID]) -> (String, String, String) in
            let times = ids.map { Spelling.seconds(self.timeline[$0].started?.time ?? 0) }
            let list = Spelling.list(times)
            return ("\(nameB) started after \(self.scenario.opNames(ids))", self.scenario.opNames(ids), list)
        }
        if scenario.startedByHand.contains(b), let sb = fb.started, sb.seq > sa.seq {
            let call = timeline.startCall(of: b, before: sb.seq)
            let line = call.map { " for " + StallCause.originText($0.origin, in: scenario) } ?? ""
            return (
                .startedByHandLater,
                { ids in
                    let (after, names, times) = starts(ids)
                    return "\(after): \(nameB) is in no queue, and the main thread called its start() by hand"
                        + "\(line) only at \(self.time(sb)), when \(names) had already started (at \(times))"
                }
            )
        }
        if let addB = fb.added, addB.seq > sa.seq {
            let place = "\(queueName(scenario[operation: b].queue)) only at \(time(addB))\(addActionText(b))"
            return (
                .addedLater,
                { ids in
                    let (after, names, times) = starts(ids)
                    return "\(after): \(nameB) was added to \(place), when \(names) had already started (at \(times))"
                }
            )
        }
        guard let readyB = fb.ready, readyB.seq > sa.seq else { return nil }
        guard case (let d, let finished)? = lastPrerequisite(of: b, before: readyB.seq) else {
            return (
                .becameReadyLater,
                { ids in
                    let (after, names, times) = starts(ids)
                    return
                        "\(after): \(nameB) became ready only at \(self.time(readyB)), after \(names) had started (at \(times))"
                }
            )
        }
        let waited = RuleWords.waitedFor(
            b, d, finished: finished, cancelled: timeline[d].cancelledWhenFinished, in: scenario)
        return (
            .waitingFor(d),
            { ids in
                let (after, names, times) = starts(ids)
                return "\(after): \(waited); \(names) had started at \(times)"
            }
        )
    }

    /// `a` and `b` were ready on one queue when `a` started and `b` comes
    /// first in the queue's order, yet `a` started first: Foundation had
    /// dispatched `a` (up to the cap) before `b` became ready.
    func dispatchedFirst(_ b: OperationID, after a: OperationID) -> (key: HeldBack, text: ([OperationID]) -> String)? {
        guard scenario[operation: a].queue == scenario[operation: b].queue,
            let board = timeline.boardBeforeStart(of: a)
        else { return nil }
        let (ca, cb) = (board[operation: a], board[operation: b])
        guard cb.isAhead(of: ca), let dispatched = dispatchedAhead(of: b, including: a) else { return nil }
        let row = board[queue: cb.queue]
        let nameB = name(b)
        let became = timeline[b].ready?.seq == timeline[b].added?.seq ? "was added" : "became ready"
        let when = timeline[b].ready.map(time) ?? "?"
        let notes = qosNotes([b], board: board)
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        return (
            .capFilledByDispatched,
            { ids in
                "\(self.scenario.opNames(ids)) started before \(nameB): when \(nameB) \(became) at \(when), "
                    + "\(row.name) had already dispatched \(self.scenario.opNames(dispatched)), as many as its cap (\(row.limit ?? 0)): "
                    + "dispatched operations count against the cap while they wait for a worker thread (\(RuleWords.threadRule)), so \(nameB) had to wait for one of them to finish\(tail)"
            }
        )
    }

    /// Both were ready when `a` started: the queues decided.
    func queueReason(_ a: OperationID, _ b: OperationID) -> String {
        guard let sa = timeline[a].started else { return "\(name(a)) never started" }
        guard let board = timeline.boardBeforeStart(of: a) else { return "\(name(a)) started first, at \(time(sa))" }
        if scenario[operation: a].queue != scenario[operation: b].queue {
            return crossQueue(a, b, board: board)
        }
        return sameQueue(a, b, board: board)
    }

    // MARK: - The queues' decisions

    /// A and B on one queue, both ready when A started.
    func sameQueue(_ a: OperationID, _ b: OperationID, board: BoardState) -> String {
        let (ca, cb) = (board[operation: a], board[operation: b])
        let (nameA, nameB) = (name(a), name(b))
        let q = cb.queue
        let row = board[queue: q]
        let sa = timeline[a].started!
        let moment = momentText(a, b, queue: q, before: sa.seq)
        var notes = qosNotes([a, b], board: board)
        if let lost = lostPriorityNote(b, board: board, before: sa.seq) { notes.append(lost) }
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")

        if ca.isBarrier && !cb.isBarrier {
            return
                "\(nameA) started before \(nameB): both were ready \(moment), and \(RuleWords.barrierFirst)\(tail)"
        }
        if ca.dispatchBucket < cb.dispatchBucket {
            let higher = RuleWords.higherPriority(
                nameA, ca.effectivePriority, over: cb.effectivePriority,
                fromQoS: ca.priorityFromQoS || cb.priorityFromQoS)
            return "\(nameA) started before \(nameB): both were ready \(moment), and \(higher)\(tail)"
        }
        if ca.dispatchBucket == cb.dispatchBucket, let addA = ca.addedSeq, let addB = cb.addedSeq, addA < addB {
            let order: String
            if !isAddedLater(a) && !isAddedLater(b) {
                order = "file order"
            } else {
                order =
                    "\(nameA) at \(Spelling.seconds(ca.addedAt ?? 0)), \(nameB) at \(Spelling.seconds(cb.addedAt ?? 0))"
            }
            let same = RuleWords.sameBucket(nameA, nameB, ca.effectivePriority, order: order)
            return "\(nameA) started before \(nameB): both were ready \(moment); \(same)\(tail)"
        }
        if row.isMain {
            return
                "\(nameA) started before \(nameB): both were ready \(moment); the main queue runs one operation at a time "
                + "on the main thread, and it took \(nameA) first\(tail)"
        }
        if let db = timeline[b].dispatched, db.seq < sa.seq {
            return "\(nameB) was dispatched at \(time(db)) but waited for a worker thread (\(RuleWords.threadRule)), "
                + "and \(nameA) got one first\(tail)"
        }
        return "\(nameA) started before \(nameB): both were ready \(moment), and the engine took \(nameA) first\(tail)"
    }

    /// The operations of `b`'s queue that held a slot of its cap (executing,
    /// or dispatched and waiting for a thread: both observed) when `b`
    /// became ready, when they filled its cap and `a` was one of them; nil
    /// otherwise.
    func dispatchedAhead(of b: OperationID, including a: OperationID) -> [OperationID]? {
        guard let readyB = timeline[b].ready, let dispatchedA = timeline[a].dispatched ?? timeline[a].started,
            dispatchedA.seq < readyB.seq
        else { return nil }
        let board = timeline.board(through: readyB.seq)
        let q = board[operation: b].queue
        guard let limit = board[queue: q].limit else { return nil }
        let holding = board.cards.filter {
            $0.queue == q && $0.id != b && ($0.isExecuting || $0.isWaitingForThread)
        }.map(\.id)
        guard holding.count >= limit, holding.contains(a) else { return nil }
        return holding.sorted()
    }

    /// A and B on different queues, both ready when A started: why B's
    /// queue did not start B yet.
    func crossQueue(_ a: OperationID, _ b: OperationID, board: BoardState) -> String {
        let (nameA, nameB) = (name(a), name(b))
        let sa = timeline[a].started!
        if let sb = timeline[b].started, sb.time - sa.time < 0.02,
            board.whyNotRunning(b) == [.dispatchedWaitingForThread], !board[queue: board[operation: b].queue].isMain
        {
            return
                "\(nameA) and \(nameB) are on different queues and both were ready: they started at about the same time "
                + "(\(time(sa)) and \(time(sb))), and nothing in the scenario orders them"
        }
        return
            "\(nameB) started after \(nameA): they are on different queues, and \(nameA) started first, at \(time(sa))"
    }

    /// `a` and `b` on different queues, both ready when `a` started: what
    /// held `b` back on its own queue then. Operations that started while
    /// the same thing held it back share one sentence.
    func crossQueueWait(_ b: OperationID, after a: OperationID) -> (key: HeldBack, text: ([OperationID]) -> String)? {
        guard scenario[operation: a].queue != scenario[operation: b].queue,
            let sa = timeline[a].started, let board = timeline.boardBeforeStart(of: a)
        else { return nil }
        let qb = board[operation: b].queue
        let row = board[queue: qb]
        var parts: [String] = []
        for reason in board.whyNotRunning(b) {
            switch reason {
            case .queueSuspended:
                let resumed = timeline.nextResume(qb, after: sa.seq).map { " (it resumed at \(time($0)))" } ?? ""
                parts.append("its queue \(row.name) was suspended\(resumed)")
            case .queueAtCap(let executing, let dispatched, _):
                let running = board.cards.filter { $0.queue == qb && $0.isExecuting }.map(\.name)
                let waiting = dispatched > 0 ? ", \(dispatched) more dispatched and waiting for a thread" : ""
                parts.append(
                    "its queue \(row.name) was at its cap (\(executing) running: \(running.joined(separator: ", "))\(waiting))"
                )
            case .behindHigherPriority(let count, _, _):
                parts.append(
                    "\(count) ready operation\(count == 1 ? "" : "s") of \(row.name) went first (higher priority, or added earlier)"
                )
            case .dispatchedWaitingForThread:
                if row.isMain {
                    parts.append("the main queue runs its operations only when the main thread is free")
                } else if let sb = timeline[b].started, sb.time - sa.time < 0.02 {
                    return nil
                } else {
                    let at = timeline[b].dispatched.map { " at \(time($0))" } ?? ""
                    parts.append(
                        "it was dispatched\(at) but waited for a worker thread (\(RuleWords.threadRule))")
                }
            case .dispatchedBehindBarrier(let barrier):
                let at = timeline[b].dispatched.map { " at \(time($0))" } ?? ""
                parts.append(
                    "it was dispatched\(at) while the barrier \(name(barrier)) ran, and waited behind its block")
            case .notAdded, .startsByHand, .waitingFor:
                break
            }
        }
        guard !parts.isEmpty else { return nil }
        let reason = parts.joined(separator: ", and ")
        let nameB = name(b)
        return (
            .onItsOwnQueue(board.whyNotRunning(b)),
            { ids in
                let names = self.scenario.opNames(ids)
                let when: String
                if ids.count == 1 {
                    when =
                        "when \(names) started on \(self.queueName(self.scenario[operation: ids[0]].queue)) at \(self.time(sa))"
                } else {
                    let times = ids.map { Spelling.seconds(self.timeline[$0].started?.time ?? 0) }
                    when = "when \(names) started (at \(Spelling.list(times)))"
                }
                return "\(nameB) started after \(names): \(when), \(nameB) waited: \(reason)"
            }
        )
    }

    /// The latest thing before `seq` that let the queue pick: "when q
    /// resumed at 0.100s", "when x finished at 0.200s, freeing q's only
    /// slot", or "at 0.000s".
    func momentText(_ a: OperationID, _ b: OperationID, queue q: QueueID, before seq: Int) -> String {
        let own = [timeline[a].ready, timeline[a].added, timeline[b].ready, timeline[b].added]
            .compactMap { $0 }.filter { $0.seq < seq }
        let latestOwn = own.max { $0.seq < $1.seq }
        if case (let stamp, let moment)? = timeline.lastQueueMoment(q, before: seq, after: latestOwn?.seq ?? 0) {
            let qName = queueName(q)
            switch moment {
            case .resumed:
                return "when \(qName) resumed at \(time(stamp))"
            case .capChanged(let n):
                return "when the cap of \(qName) was changed to \(n < 0 ? "default" : String(n)) at \(time(stamp))"
            case .slotFreed(let x):
                // The cap at that moment, which a live change or an action
                // may have made other than the one declared.
                let slot: String
                switch timeline.board(through: stamp.seq)[queue: q].cap {
                case .limit(let n): slot = RuleWords.slot(of: q, cap: n, in: scenario)
                case .systemDefault: slot = RuleWords.slot(of: q, cap: nil, in: scenario)
                }
                return "when \(name(x)) finished at \(time(stamp)), freeing \(slot)"
            }
        }
        return "at \(latestOwn.map(time) ?? "0.000s")"
    }

    /// "QoS userInitiated put x in the high bucket (…)" for operations whose
    /// QoS chose the bucket, and the opposite note for those on a queue
    /// whose cap was 1 when they were added.
    func qosNotes(_ ids: [OperationID], board: BoardState) -> [String] {
        var picked: [String] = []
        var ignored: [String] = []
        for id in ids {
            let spec = scenario[operation: id]
            let card = board[operation: id]
            guard let qos = spec.qos, spec.priority == nil, !spec.isBarrier else { continue }
            switch card.prioritySource {
            case .qos: picked.append(RuleWords.qosFiled(spec.name, qos, under: card.effectivePriority))
            case .qosIgnored where card.queuePriority == nil: ignored.append(spec.name)
            default: break
            }
        }
        var notes: [String] = []
        if !picked.isEmpty { notes.append(picked.joined(separator: " and ") + " (\(RuleWords.qosRule))") }
        if !ignored.isEmpty { notes.append(RuleWords.qosIgnored(ignored)) }
        return notes
    }

    /// A priority change of `op` that Foundation announced but lost.
    func lostPriorityNote(_ op: OperationID, board: BoardState, before seq: Int) -> String? {
        let card = board[operation: op]
        guard card.priorityChangesLost,
            case (let stamp, let level)? = timeline[op].priorityChanges.last(where: { $0.0.seq < seq })
        else { return nil }
        return
            "\(Spelling.possessive(card.name)) change to priority \(level.rawValue) at \(time(stamp)) was lost: it was added to a serial queue "
            + "with no explicit priority, and this Foundation then looks for it under its QoS's priority"
    }

}
