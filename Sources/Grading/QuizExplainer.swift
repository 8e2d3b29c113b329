import Board
import RunEvents
import ScenarioKit
import TextKit

/// Finds the rule that decided each fact a quiz asks about, from the run's
/// events and the scenario (docs/SCENARIO-LANGUAGE.md): readiness
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
    /// The run's scenario seconds per real second (see `init`).
    let speed: Double
    /// `tieRealSeconds` in the run's scenario seconds.
    public var tieWindow: Double { Self.tieRealSeconds * speed }

    /// `speed`: the scenario seconds per real second the run went at. Two
    /// worker threads that Foundation started at once announce themselves
    /// a few real milliseconds apart, more on a busy machine; at ×4 that
    /// is four times as much of the run's time, so the window of a tie is
    /// real time.
    public init(scenario: Scenario, events: [LifecycleEvent], speed: Double = 1) {
        self.scenario = scenario
        timeline = RunTimeline(scenario: scenario, events: events)
        self.speed = speed.isFinite && speed > 0 ? speed : 1
    }

    /// Two starts (or a completion block and a start) closer than this, in
    /// real seconds, may have come in either order (`startedTogether`).
    public static let tieRealSeconds = 0.05

    /// "within 50ms", and at another speed than ×1 what that is of the
    /// run's time: "within 50ms of real time (200ms of the run's at ×4)".
    public var tieWindowText: String {
        let real = Int((Self.tieRealSeconds * 1000).rounded())
        let run = Int((tieWindow * 1000).rounded())
        guard run != real else { return "within \(real)ms" }
        return "within \(real)ms of real time (\(run)ms of the run's at ×\(ScenarioPrinter.speedText(speed)))"
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

    /// `first` and `second` (which started after it) were started together,
    /// within `tieWindow` of each other, with nothing holding either back:
    /// either `second` was already dispatched when `first` started
    /// (observed: its `dispatched` event came first), or both were added
    /// when the run began and each was dispatched as it was added
    /// (`dispatchedOnAdd`). Foundation dispatched both at once; which worker
    /// thread announces `isExecuting` first, and whether the first one's
    /// thread starts before the next add, are races no rule decides, so
    /// either order is right. Never on the main queue (one thread).
    public func startedTogether(_ first: OperationID, _ second: OperationID) -> Bool {
        guard let sa = timeline[first].started, let sb = timeline[second].started, sb.seq > sa.seq,
            sb.time - sa.time < tieWindow, let db = timeline[second].dispatched,
            !scenario[queue: scenario[operation: second].queue].isMain,
            !scenario[queue: scenario[operation: first].queue].isMain
        else { return false }
        if db.seq < sa.seq { return true }
        let later = scenario.addedLater
        return !later.contains(first) && !later.contains(second) && dispatchedOnAdd(first) && dispatchedOnAdd(second)
    }

    /// `op`'s queue dispatched it as it was added: between its add and its
    /// dispatch nothing came that could have let it go (a finish or a stop
    /// that frees a slot or a dependency, a cancel of it, a resume or a cap
    /// change of its queue).
    func dispatchedOnAdd(_ op: OperationID) -> Bool {
        guard let added = timeline[op].added, let dispatched = timeline[op].dispatched, added.seq < dispatched.seq
        else { return false }
        let queue = scenario[operation: op].queue
        let from = timeline.count(whileBefore: { $0.seq <= added.seq })
        for event in timeline.events[from...] {
            guard event.seq < dispatched.seq else { break }
            switch event.kind {
            case .operation(_, .isFinished, _, .bool(true)), .operation(_, .isExecuting, _, .bool(false)):
                return false
            case .operation(op, .isCancelled, _, _):
                return false
            case .queue(queue, .isSuspended, _, _), .queue(queue, .maxConcurrentOperationCount, _, _):
                return false
            default:
                continue
            }
        }
        return true
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
        var groups: [(key: HeldBack, firsts: [OperationID], text: ([OperationID]) -> String)] = []
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

    /// Why `op` never started.
    public func whyNeverStarted(_ op: OperationID) -> String {
        let f = timeline[op]
        let opName = name(op)
        if let c = f.cancelled, f.started == nil {
            let text =
                "\(opName) never started: it was cancelled at \(time(c))\(causeText(f.cancelCause)) before it started"
            if f.finished == nil, let reason = stallReason(op) { return text + ", and it never finished: \(reason)" }
            return text + " (a cancelled operation finishes without running)"
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
                + "(\(RuleWords.cancelOnlySetsFlag))"
        }
        let cancelledDeps = scenario[operation: op].dependencies.filter { timeline[$0].cancelledWhenFinished }
        if !cancelledDeps.isEmpty {
            return "\(opName) started at \(time(s)) " + RuleWords.ranAlthoughCancelled(cancelledDeps, in: scenario)
        }
        return "\(opName) started at \(time(s)), \(whyThen(op, started: s)); every operation that starts has its place "
            + "in the order, and you left it out"
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
                return "it ran and finished at \(finished) "
                    + RuleWords.ranAlthoughCancelled(cancelledDeps, in: scenario)
            }
            if let c = f.cancelled {
                return
                    "it finished at \(finished), before the cancel at \(time(c)) came: cancelling a finished operation changes nothing"
            }
            if let rule = notCancelledBy(op) { return "it ran and finished at \(finished); \(rule)" }
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
            return
                "it started at \(started) and was cancelled at \(cancelled)\(causeText(f.cancelCause)) while it was executing: "
                + "cancel only sets the flag; \(stop), finishing at \(finished) with isCancelled true"
        case .skipped:
            let cancelled =
                "it was cancelled at \(f.cancelled.map(time) ?? "?")\(causeText(f.cancelCause)) before it started"
            guard f.finished == nil else { return cancelled + ": a cancelled operation finishes without running" }
            // Cancelled before it ran, and never finished: not the usual
            // skip, and said as one thing.
            return cancelled + ", and it never finished (\(stallReason(op) ?? "the run ended first")): it never ran "
                + "and never ended, so skipped and stuck both count"
        case .stuck:
            let reason = stallReason(op) ?? "the run ended before it finished"
            if let s = f.started { return "it started at \(time(s)) but never finished: \(reason)" }
            return "it never started: \(reason)"
        }
    }

}
