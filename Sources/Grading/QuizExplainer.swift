import Board
import TextKit
import RunEvents
import ScenarioKit

/// Finds the rule that decided each fact a quiz asks about, from the run's
/// events and the scenario (ENGINE-NOTES.md, "Scheduling"): readiness
/// (dependencies, a cancelled dependency counting as finished, barriers,
/// `add` actions), then the priority bucket (explicit `queuePriority`, or
/// the QoS when none is set and the cap is not 1), then insertion order;
/// the cap; suspension; the worker-thread ramp; cancellation.
///
/// Every method returns one sentence (no final period), with times in
/// scenario seconds (`0.200s`).
public struct QuizExplainer {
    let scenario: Scenario
    let timeline: RunTimeline

    public init(scenario: Scenario, events: [LifecycleEvent]) {
        self.scenario = scenario
        timeline = RunTimeline(scenario: scenario, events: events)
    }

    /// The operations that started, in the order they started (barriers included).
    public var startOrder: [OperationID] { timeline.startOrder }

    /// Scenario seconds at which `op` first posted `isExecuting` true.
    public func startTime(of op: OperationID) -> Double? { timeline[op].started?.time }

    /// How `op` ended.
    public func finalState(of op: OperationID) -> FinalState { timeline.finalState(of: op) }

    /// The states a final-state answer may give for `op`: its final state,
    /// and also `stuck` for an operation skipped in a queue that never ran
    /// it (cancelled before it started, never finished).
    public func acceptableStates(of op: OperationID) -> Set<FinalState> {
        let state = finalState(of: op)
        if state == .skipped && timeline[op].finished == nil { return [.skipped, .stuck] }
        return [state]
    }

    // MARK: - Start order

    /// Starts closer than this (scenario seconds) may come in either order
    /// when nothing held the later one back (see `startedTogether`).
    public static let tieWindow = 0.05

    /// `first` and `second` (which started after it) were started together:
    /// when `first` started, `second` was ready too and nothing held it
    /// back (its queue had room for both, or it was on another queue with
    /// room), and it started within `tieWindow`. Foundation dispatched both;
    /// which worker thread announces `isExecuting` first is a race, so
    /// either order is right. Never on the main queue (one thread).
    public func startedTogether(_ first: OperationID, _ second: OperationID) -> Bool {
        guard let sa = timeline[first].started, let sb = timeline[second].started, sb.seq > sa.seq,
            sb.time - sa.time < Self.tieWindow, let board = timeline.boardBeforeStart(of: first)
        else { return false }
        let queue = scenario[operation: second].queue
        guard !board[queue: queue].isMain, !board[queue: scenario[operation: first].queue].isMain else { return false }
        return board.whyNotRunning(second) == [.dispatchedWaitingForThread]
    }

    /// Why `first` started before `second`. `first` started; `second`
    /// started later (for an operation that never started, see
    /// `whyNeverStarted`).
    public func whyStarted(_ first: OperationID, before second: OperationID) -> String {
        whyStarted([first], before: second).first ?? ""
    }

    /// Why each of `firsts` started before `second`, one sentence per
    /// reason: when `second` could not start yet for one reason of its own
    /// (added later, waiting for one dependency), the operations that
    /// started meanwhile share one sentence.
    public func whyStarted(_ firsts: [OperationID], before second: OperationID) -> [String] {
        enum Entry {
            case line(String)
            case group(Int)
        }
        var entries: [Entry] = []
        var groups: [(key: String, firsts: [OperationID], text: ([OperationID]) -> String)] = []
        for a in firsts {
            if let text = structuralReason(a, second) {
                entries.append(.line(text))
            } else if let late = lateStart(second, after: a) ?? dispatchedFirst(second, after: a)
                ?? crossQueueWait(second, after: a)
            {
                if let g = groups.firstIndex(where: { $0.key == late.key }) {
                    groups[g].firsts.append(a)
                } else {
                    entries.append(.group(groups.count))
                    groups.append((late.key, [a], late.text))
                }
            } else {
                entries.append(.line(queueReason(a, second)))
            }
        }
        // A group's sentence goes where its first member was.
        return entries.map { entry in
            switch entry {
            case .line(let text): text
            case .group(let g): groups[g].text(groups[g].firsts)
            }
        }
    }

    /// A dependency (direct or through others), or a barrier of the queue.
    private func structuralReason(_ a: OperationID, _ b: OperationID) -> String? {
        let (fa, fb) = (timeline[a], timeline[b])
        let (nameA, nameB) = (name(a), name(b))
        let after = "\(nameB) started after \(nameA)"
        let (specA, specB) = (scenario[operation: a], scenario[operation: b])
        if let path = timeline.dependencyPath(from: b, to: a) {
            if path.count == 2 {
                return "\(after) because it depends on \(nameA) (it became ready only when \(nameA) finished\(at(fa.finished)))"
            }
            let via = path[1]
            let chain = path.map(name).joined(separator: " → ")
            return "\(after) because it depends on \(nameA) through \(scenario.opNames(Array(path[1..<(path.count - 1)]))) "
                + "(\(chain)): it became ready only when \(name(via)) finished\(at(timeline[via].finished))"
        }
        if specA.queue == specB.queue, let addA = fa.added, let addB = fb.added, addA.seq < addB.seq {
            let q = queueName(specA.queue)
            if specA.isBarrier {
                return "\(after): \(nameA) is a barrier of \(q) and \(nameB) was added after it, "
                    + "so \(nameB) waited for the barrier to finish\(at(fa.finished))"
            }
            if specB.isBarrier {
                return "\(after): \(nameB) is a barrier of \(q), so it waited for everything added to \(q) before it, \(nameA) included"
            }
        }
        return nil
    }

    /// `b` could not start yet when `a` started: it was added later, or
    /// not ready. The key tells reasons apart; the text takes the
    /// operations that started meanwhile.
    private func lateStart(_ b: OperationID, after a: OperationID) -> (key: String, text: ([OperationID]) -> String)? {
        guard let sa = timeline[a].started else { return nil }
        let fb = timeline[b]
        let nameB = name(b)
        let starts = { (ids: [OperationID]) -> (String, String, String) in
            let times = ids.map { Spelling.seconds(self.timeline[$0].started?.time ?? 0) }
            let list = times.count == 1 ? times[0] : times.dropLast().joined(separator: ", ") + " and " + times.last!
            return ("\(nameB) started after \(self.scenario.opNames(ids))", self.scenario.opNames(ids), list)
        }
        if let addB = fb.added, addB.seq > sa.seq {
            let where_ = "\(queueName(scenario[operation: b].queue)) only at \(time(addB))\(addActionText(b))"
            return ("added", { ids in
                let (after, names, times) = starts(ids)
                return "\(after): \(nameB) was added to \(where_), when \(names) had already started (at \(times))"
            })
        }
        guard let readyB = fb.ready, readyB.seq > sa.seq else { return nil }
        guard case let (d, finished)? = lastPrerequisite(of: b, before: readyB.seq) else {
            return ("ready", { ids in
                let (after, names, times) = starts(ids)
                return "\(after): \(nameB) became ready only at \(self.time(readyB)), after \(names) had started (at \(times))"
            })
        }
        let what = scenario[operation: d].isBarrier ? "the barrier \(name(d))" : "its dependency \(name(d))"
        let how = timeline[d].cancelledWhenFinished
            ? "was cancelled and finished at \(time(finished)) (a cancelled dependency counts as finished)"
            : "finished at \(time(finished))"
        return ("waiting \(d.index)", { ids in
            let (after, names, times) = starts(ids)
            return "\(after): \(nameB) was waiting for \(what), which \(how); \(names) had started at \(times)"
        })
    }

    /// `a` and `b` were ready on one queue when `a` started and `b` comes
    /// first in the queue's order, yet `a` started first: Foundation had
    /// dispatched `a` (up to the cap) before `b` became ready.
    private func dispatchedFirst(_ b: OperationID, after a: OperationID) -> (key: String, text: ([OperationID]) -> String)? {
        guard scenario[operation: a].queue == scenario[operation: b].queue,
            let board = timeline.boardBeforeStart(of: a)
        else { return nil }
        let (ca, cb) = (board[operation: a], board[operation: b])
        let bFirst = cb.schedulingRank > ca.schedulingRank
            || (cb.schedulingRank == ca.schedulingRank && (cb.addedSeq ?? Int.max) < (ca.addedSeq ?? Int.max))
        guard bFirst, let dispatched = dispatchedAhead(of: b, including: a) else { return nil }
        let row = board[queue: cb.queue]
        let nameB = name(b)
        let became = timeline[b].ready?.seq == timeline[b].added?.seq ? "was added" : "became ready"
        let when = timeline[b].ready.map(time) ?? "?"
        let notes = qosNotes([b], board: board)
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        return ("dispatched", { ids in
            "\(self.scenario.opNames(ids)) started before \(nameB): when \(nameB) \(became) at \(when), "
                + "\(row.name) had already dispatched \(self.scenario.opNames(dispatched)), as many as its cap (\(row.limit ?? 0)): "
                + "dispatched operations count against the cap while they wait for a worker thread (synchronous work holds "
                + "a thread; the pool grows about one thread a second), so \(nameB) had to wait for one of them to finish\(tail)"
        })
    }

    /// Both were ready when `a` started: the queues decided.
    private func queueReason(_ a: OperationID, _ b: OperationID) -> String {
        guard let sa = timeline[a].started else { return "\(name(a)) never started" }
        guard let board = timeline.boardBeforeStart(of: a) else { return "\(name(a)) started first, at \(time(sa))" }
        if scenario[operation: a].queue != scenario[operation: b].queue {
            return crossQueue(a, b, board: board)
        }
        return sameQueue(a, b, board: board)
    }

    /// Why `op` never started.
    public func whyNeverStarted(_ op: OperationID) -> String {
        let f = timeline[op]
        let opName = name(op)
        if let c = f.cancelled, f.started == nil {
            var text = "\(opName) never started: it was cancelled at \(time(c))\(causeText(f.cancelCause)) before it started "
                + "(a cancelled operation finishes without running)"
            if f.finished == nil, let reason = stallReason(op) { text += "; it never finished either: \(reason)" }
            return text
        }
        if let reason = stallReason(op) { return "\(opName) never started: \(reason)" }
        if f.added == nil { return "\(opName) never started: it was never added to its queue before the run ended" }
        return "\(opName) never started before the run ended"
    }

    /// What to tell a learner who left out `op`, which did start.
    public func whyStartedAtAll(_ op: OperationID) -> String {
        let f = timeline[op]
        let opName = name(op)
        guard let s = f.started else { return whyNeverStarted(op) }
        if let c = f.cancelled, c.seq > s.seq {
            return "\(opName) started at \(time(s)): the cancel at \(time(c)) came after it had started "
                + "(cancel on an executing operation only sets the flag)"
        }
        let cancelledDeps = scenario[operation: op].dependencies.filter { timeline[$0].cancelledWhenFinished }
        if !cancelledDeps.isEmpty {
            let names = scenario.opNames(cancelledDeps)
            let verb = cancelledDeps.count == 1 ? "was" : "were"
            return "\(opName) started at \(time(s)) although \(names) \(verb) cancelled: a cancelled dependency counts as finished"
        }
        return "\(opName) started at \(time(s)); you left it out"
    }

    // MARK: - Final state

    /// How `op` ended and the rule that decided it.
    public func howItEnded(_ op: OperationID) -> String {
        let f = timeline[op]
        let spec = scenario[operation: op]
        switch finalState(of: op) {
        case .finished:
            let finished = f.finished.map(time) ?? "?"
            let cancelledDeps = spec.dependencies.filter { timeline[$0].cancelledWhenFinished }
            if !cancelledDeps.isEmpty {
                let verb = cancelledDeps.count == 1 ? "was" : "were"
                return "it ran and finished at \(finished) although \(scenario.opNames(cancelledDeps)) \(verb) cancelled: "
                    + "a cancelled dependency counts as finished"
            }
            if let c = f.cancelled {
                return "it finished at \(finished), before the cancel at \(time(c)) came: cancelling a finished operation changes nothing"
            }
            return "it ran and finished at \(finished), and nothing cancelled it"
        case .cancelled:
            let started = f.started.map(time) ?? "?"
            let cancelled = f.cancelled.map(time) ?? "?"
            let finished = f.finished.map(time) ?? "?"
            let stop: String
            if spec.ignoresCancel {
                stop = "it ignores cancel, so it ran its work to the end"
            } else if spec.body.isAsync {
                stop = "an asynchronous operation finishes at once when cancelled"
            } else {
                stop = "its work checks isCancelled and stopped early"
            }
            return "it started at \(started) and was cancelled at \(cancelled)\(causeText(f.cancelCause)) while it was executing: "
                + "cancel only sets the flag; \(stop), finishing at \(finished) with isCancelled true"
        case .skipped:
            var text = "it was cancelled at \(f.cancelled.map(time) ?? "?")\(causeText(f.cancelCause)) before it started: "
                + "a cancelled operation finishes without running"
            if f.finished == nil {
                text += "; it never finished either (\(stallReason(op) ?? "the run ended first")), so stuck is right too"
            }
            return text
        case .stuck:
            let reason = stallReason(op) ?? "the run ended before it finished"
            if let s = f.started { return "it started at \(time(s)) but never finished: \(reason)" }
            return "it never started: \(reason)"
        }
    }

    // MARK: - The queues' decisions

    /// A and B on one queue, both ready when A started.
    private func sameQueue(_ a: OperationID, _ b: OperationID, board: BoardState) -> String {
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
            return "\(nameA) started before \(nameB): both were ready \(moment), and a queue runs a barrier before any other operation\(tail)"
        }
        if ca.schedulingRank > cb.schedulingRank {
            let has = ca.priorityFromQoS || cb.priorityFromQoS ? "is in the higher priority bucket" : "has the higher queuePriority"
            return "\(nameA) started before \(nameB): both were ready \(moment), and \(nameA) \(has) "
                + "(\(ca.effectivePriority.rawValue) against \(cb.effectivePriority.rawValue))\(tail)"
        }
        if ca.schedulingRank == cb.schedulingRank, let addA = ca.addedSeq, let addB = cb.addedSeq, addA < addB {
            let order: String
            if !isAddedLater(a) && !isAddedLater(b) {
                order = "file order"
            } else {
                order = "\(nameA) at \(Spelling.seconds(ca.addedAt ?? 0)), \(nameB) at \(Spelling.seconds(cb.addedAt ?? 0))"
            }
            return "\(nameA) started before \(nameB): both were ready \(moment); \(nameA) and \(nameB) have the same priority "
                + "(\(ca.effectivePriority.rawValue)): \(nameA) was added first (\(order))\(tail)"
        }
        if row.isMain {
            return "\(nameA) started before \(nameB): both were ready \(moment); the main queue runs one operation at a time "
                + "on the main thread, and it took \(nameA) first\(tail)"
        }
        let free = row.limit.map { $0 - row.executing } ?? Int.max
        if !row.holdsBack && free >= 2 {
            return "\(nameB) was dispatched but waited for a worker thread (synchronous work holds a thread; "
                + "the pool grows about one thread a second), and \(nameA) got one first\(tail)"
        }
        return "\(nameA) started before \(nameB): both were ready \(moment), and the engine took \(nameA) first\(tail)"
    }

    /// The operations of `b`'s queue that Foundation had dispatched when
    /// `b` became ready, when they filled its cap and `a` was one of them;
    /// nil otherwise. The stream shows only those executing; the others
    /// are the next ready ones in the queue's order (barriers, bucket,
    /// insertion), which is how Foundation dispatched them.
    private func dispatchedAhead(of b: OperationID, including a: OperationID) -> [OperationID]? {
        guard let readyA = timeline[a].ready, let readyB = timeline[b].ready, readyA.seq < readyB.seq else { return nil }
        let board = timeline.board(through: readyB.seq)
        let q = board[operation: b].queue
        guard let limit = board[queue: q].limit, !board[queue: q].holdsBack else { return nil }
        let waiting = board.cards.filter {
            $0.queue == q && $0.id != b && !$0.isFinished && ($0.isExecuting || $0.phase == .ready)
        }
        let ordered = waiting.sorted { x, y in
            if x.isExecuting != y.isExecuting { return x.isExecuting }
            if x.schedulingRank != y.schedulingRank { return x.schedulingRank > y.schedulingRank }
            return (x.addedSeq ?? Int.max) < (y.addedSeq ?? Int.max)
        }
        let dispatched = ordered.prefix(limit).map(\.id)
        guard dispatched.count == limit, dispatched.contains(a) else { return nil }
        return dispatched.sorted()
    }

    /// A and B on different queues, both ready when A started: why B's
    /// queue did not start B yet.
    private func crossQueue(_ a: OperationID, _ b: OperationID, board: BoardState) -> String {
        let (nameA, nameB) = (name(a), name(b))
        let sa = timeline[a].started!
        if let sb = timeline[b].started, sb.time - sa.time < 0.02,
            board.whyNotRunning(b) == [.dispatchedWaitingForThread], !board[queue: board[operation: b].queue].isMain
        {
            return "\(nameA) and \(nameB) are on different queues and both were ready: they started at about the same time "
                + "(\(time(sa)) and \(time(sb))), and nothing in the scenario orders them"
        }
        return "\(nameB) started after \(nameA): they are on different queues, and \(nameA) started first, at \(time(sa))"
    }

    /// `a` and `b` on different queues, both ready when `a` started: what
    /// held `b` back on its own queue then. Operations that started while
    /// the same thing held it back share one sentence.
    private func crossQueueWait(_ b: OperationID, after a: OperationID) -> (key: String, text: ([OperationID]) -> String)? {
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
            case .queueAtCap(let executing, _):
                let running = board.cards.filter { $0.queue == qb && $0.isExecuting }.map(\.name)
                parts.append(
                    "its queue \(row.name) was at its cap (\(executing) running: \(running.joined(separator: ", ")))")
            case .behindHigherPriority(let count, _, _):
                parts.append(
                    "\(count) ready operation\(count == 1 ? "" : "s") of \(row.name) went first (higher priority, or added earlier)")
            case .dispatchedWaitingForThread:
                if row.isMain {
                    parts.append("the main queue runs its operations only when the main thread is free")
                } else if let sb = timeline[b].started, sb.time - sa.time < 0.02 {
                    return nil
                } else {
                    parts.append(
                        "it was dispatched but waited for a worker thread (synchronous work holds a thread; "
                            + "the pool grows about one thread a second)")
                }
            case .notAdded, .waitingFor:
                break
            }
        }
        guard !parts.isEmpty else { return nil }
        let reason = parts.joined(separator: ", and ")
        let nameB = name(b)
        return ("cross " + reason, { ids in
            let names = self.scenario.opNames(ids)
            let when: String
            if ids.count == 1 {
                when = "when \(names) started on \(self.queueName(self.scenario[operation: ids[0]].queue)) at \(self.time(sa))"
            } else {
                let times = ids.map { Spelling.seconds(self.timeline[$0].started?.time ?? 0) }
                when = "when \(names) started (at \(times.dropLast().joined(separator: ", ")) and \(times.last!))"
            }
            return "\(nameB) started after \(names): \(when), \(nameB) waited: \(reason)"
        })
    }

    /// The latest thing before `seq` that let the queue pick: "when q
    /// resumed at 0.100s", "when x finished at 0.200s, freeing q's only
    /// slot", or "at 0.000s".
    private func momentText(_ a: OperationID, _ b: OperationID, queue q: QueueID, before seq: Int) -> String {
        let own = [timeline[a].ready, timeline[a].added, timeline[b].ready, timeline[b].added]
            .compactMap { $0 }.filter { $0.seq < seq }
        let latestOwn = own.max { $0.seq < $1.seq }
        if case let (stamp, moment)? = timeline.lastQueueMoment(q, before: seq, after: latestOwn?.seq ?? 0) {
            let qName = queueName(q)
            switch moment {
            case .resumed:
                return "when \(qName) resumed at \(time(stamp))"
            case .capChanged(let n):
                return "when the cap of \(qName) was changed to \(n < 0 ? "default" : String(n)) at \(time(stamp))"
            case .slotFreed(let x):
                let slot: String
                switch scenario[queue: q].cap {
                case _ where scenario[queue: q].isMain: slot = "the main queue's only slot"
                case .limit(1): slot = "\(qName)'s only slot"
                case .limit(let n): slot = "a slot of \(qName) (cap \(n))"
                case .systemDefault: slot = "a slot of \(qName)"
                }
                return "when \(name(x)) finished at \(time(stamp)), freeing \(slot)"
            }
        }
        return "at \(latestOwn.map(time) ?? "0.000s")"
    }

    /// "QoS userInitiated put x in the high bucket (…)" for operations whose
    /// QoS chose the bucket, and the opposite note for those on a queue
    /// whose cap was 1 when they were added.
    private func qosNotes(_ ids: [OperationID], board: BoardState) -> [String] {
        var picked: [String] = []
        var ignored: [String] = []
        for id in ids {
            let spec = scenario[operation: id]
            let card = board[operation: id]
            guard let qos = spec.qos, spec.priority == nil, !spec.isBarrier else { continue }
            if card.priorityFromQoS {
                picked.append("QoS \(qos.rawValue) put \(spec.name) in the \(card.effectivePriority.rawValue) bucket")
            } else if qos.impliedPriority != .normal, card.queuePriority == nil {
                ignored.append(spec.name)
            }
        }
        var notes: [String] = []
        if !picked.isEmpty {
            notes.append(
                picked.joined(separator: " and ")
                    + " (this Foundation turns QoS into priority when no priority is set and the cap is not 1)")
        }
        if !ignored.isEmpty {
            let names = ignored.joined(separator: " and ")
            notes.append(
                "the QoS of \(names) did not pick a bucket: the queue's cap was 1 when \(ignored.count == 1 ? "it was" : "they were") added "
                    + "(this Foundation turns QoS into priority only when no priority is set and the cap is not 1)")
        }
        return notes
    }

    /// A priority change of `op` that Foundation announced but lost.
    private func lostPriorityNote(_ op: OperationID, board: BoardState, before seq: Int) -> String? {
        let card = board[operation: op]
        guard card.priorityChangesLost,
            case let (stamp, level)? = timeline[op].priorityChanges.last(where: { $0.0.seq < seq })
        else { return nil }
        return "\(card.name)'s change to priority \(level.rawValue) at \(time(stamp)) was lost: it was added to a serial queue "
            + "with no explicit priority, and this Foundation then looks for it in its QoS's bucket"
    }

    // MARK: - Pieces

    /// Among what `op` waits for (its dependencies; on its queue, the
    /// barrier ordering), the one that finished last before `seq`.
    private func lastPrerequisite(of op: OperationID, before seq: Int) -> (OperationID, RunTimeline.Stamp)? {
        var candidates = scenario[operation: op].dependencies
        let spec = scenario[operation: op]
        if let added = timeline[op].added {
            for (i, other) in scenario.operations.enumerated() where other.queue == spec.queue {
                let id = OperationID(i)
                guard id != op, let otherAdded = timeline[id].added, otherAdded.seq < added.seq else { continue }
                if other.isBarrier || spec.isBarrier { candidates.append(id) }
            }
        }
        var best: (OperationID, RunTimeline.Stamp)?
        for id in candidates {
            guard let f = timeline[id].finished, f.seq <= seq else { continue }
            if f.seq > (best?.1.seq ?? Int.min) { best = (id, f) }
        }
        return best
    }

    private func stallReason(_ op: OperationID) -> String? {
        guard case .stalled(let stuck) = timeline.outcome, let reason = stuck[op] else {
            return timeline.outcome == nil && timeline[op].finished == nil ? "the run was stopped before it ended" : nil
        }
        return reason.clause(in: scenario)
    }

    private func causeText(_ cause: RunTimeline.Cause?) -> String {
        guard let cause else { return "" }
        let text = ScenarioPrinter.actionText(cause.action, in: scenario)
        switch cause.origin {
        case .timed(let i) where scenario.actions.indices.contains(i):
            return " (by 'at \(ScenarioPrinter.format(scenario.actions[i].time)) \(text)')"
        case .timed:
            return " (by '\(text)')"
        case .completion(let by):
            return " (by \(name(by))'s completion block: '\(text)')"
        case .user:
            return " (by a key press: '\(text)')"
        }
    }

    private func addActionText(_ op: OperationID) -> String {
        guard let timed = scenario.actions.first(where: { $0.action == .add(op) }) else { return "" }
        return " (by 'at \(ScenarioPrinter.format(timed.time)) add \(name(op))')"
    }

    private func isAddedLater(_ op: OperationID) -> Bool { scenario.addedLater.contains(op) }

    private func at(_ stamp: RunTimeline.Stamp?) -> String { stamp.map { " at \(time($0))" } ?? "" }
    private func time(_ stamp: RunTimeline.Stamp) -> String { Spelling.seconds(stamp.time) }
    private func name(_ op: OperationID) -> String { scenario.opName(op) }
    private func queueName(_ q: QueueID) -> String { scenario.queueName(q) }
}
