import ScenarioKit

/// The draw behind a question whose answer depends on when things happen:
/// asynchronous operations of lengths that are multiples of
/// `TimedModel.grid` on one or two queues, a few dependencies, and (from
/// level 1 for the cancels, level 2 for the rest) actions at multiples of
/// the grid after 0ms: a cancel while an operation runs, before it starts
/// or after it finished; a suspension and its resume; a cap change; from
/// level 3 an operation that forgets to post isFinished (always, or only
/// when cancelled before it starts), one that ignores a cancel, and one
/// added later.
struct TimedPlan: Sendable {
    var model: TimedModel
    /// Queues that start suspended (resumed by an action).
    var startsSuspended: Set<Int> = []

    /// What a plan is drawn for: its answer is how the operations end
    /// (cancels matter), or the board at a moment (everything does).
    enum Purpose { case outcome, columns }

    static func draw(level: Int, for purpose: Purpose, names: inout NamePool, random r: inout SplitMix64) -> TimedPlan?
    {
        let g = TimedModel.grid
        let queueCount = level == 1 ? (r.chance(50) ? 1 : 2) : (r.chance(65) ? 2 : 1)
        let queues = (0..<queueCount).map { _ in TimedModel.Queue(name: names.queue(), cap: r.int(in: 1...3)) }
        let count = r.int(in: 4...6)
        var ops: [TimedModel.Op] = []
        for i in 0..<count {
            // Each queue gets one at least (a queue with none would be a warning).
            let queue = i < queueCount ? i : r.below(queueCount)
            var op = TimedModel.Op(name: names.op(), queue: queue, length: g * r.pick([1, 2, 2, 3]))
            if i > 0 && r.chance(40) {
                op.after.append(r.below(i))
                let extra = r.below(i)
                if r.chance(15) && !op.after.contains(extra) { op.after.append(extra) }
            }
            if r.chance(20) {
                let level = r.pick(drawnPriorities)
                op.priority = level == .normal ? nil : level
            }
            ops.append(op)
        }
        var plan = TimedPlan(model: TimedModel(queues: queues, ops: ops, actions: []))
        // Where the operations run without any action: the cancels aim at
        // an operation while it runs, before it starts or after it ended.
        guard let base = plan.model.runs()?.first else { return nil }
        var timed: [TimedModel.Action] = []
        let cancels = purpose == .outcome ? r.int(in: 1...2) : (level == 1 ? 0 : r.int(in: 0...1))
        var targets = r.shuffled(Array(ops.indices)).prefix(cancels)
        if level == 1, purpose == .outcome {
            // Level 1 asks about a cancel while an operation runs: aim the
            // first at one long enough to be caught in flight.
            guard let long = r.shuffled(Array(ops.indices)).first(where: { ops[$0].length >= 2 * g }) else {
                return nil
            }
            targets = [long] + targets.filter { $0 != long }.prefix(cancels - 1)
        }
        for (n, i) in targets.enumerated() {
            let life = base.lives[i]
            guard let started = life.started, let finished = life.finished else { continue }
            let inFlight = (started / g + 1)..<(finished / g)
            let at: Int
            if (n == 0 && level == 1 && purpose == .outcome) || (r.chance(55) && !inFlight.isEmpty) {
                guard !inFlight.isEmpty else { return nil }
                at = g * r.int(in: inFlight.lowerBound...(inFlight.upperBound - 1))
            } else {
                at = g * r.int(in: 1...max(1, base.end / g))
            }
            timed.append(TimedModel.Action(at: at, act: .cancel(i)))
            if level >= 3 && r.chance(40) {
                plan.model.ops[i].ending = .neverIfCancelled
            } else if level >= 3 && r.chance(35) {
                plan.model.ops[i].ignoresCancel = true
            }
        }
        if level >= 2 {
            let q = r.below(queueCount)
            let end = max(2, base.end / g)
            if r.chance(purpose == .columns ? 50 : 30) {
                let from = r.int(in: 1...end)
                timed.append(TimedModel.Action(at: g * from, act: .suspend(q)))
                timed.append(TimedModel.Action(at: g * (from + r.int(in: 1...3)), act: .resume(q)))
            } else if r.chance(purpose == .columns ? 50 : 25) {
                plan.model.queues[q].suspended = true
                plan.startsSuspended.insert(q)
                timed.append(TimedModel.Action(at: g * r.int(in: 1...2), act: .resume(q)))
            }
            if r.chance(purpose == .columns ? 55 : 25) {
                let q = r.below(queueCount)
                let to = r.pick([1, 2, 3, 4].filter { $0 != queues[q].cap })
                timed.append(TimedModel.Action(at: g * r.int(in: 1...end), act: .setCap(q, to)))
            }
        }
        if level >= 3 {
            if r.chance(25),
                let i = r.shuffled(Array(ops.indices)).first(where: {
                    plan.model.ops[$0].ending == .posts && !plan.model.ops[$0].ignoresCancel
                })
            {
                plan.model.ops[i].ending = .never
            }
            if r.chance(20) {
                let i = r.below(count)
                if plan.model.ops[i].ending == .posts && !targets.contains(i) {
                    plan.model.ops[i].addedLater = true
                    timed.append(TimedModel.Action(at: g * r.int(in: 1...3), act: .add(i)))
                }
            }
        }
        // In the order performed; equal times keep the order drawn.
        plan.model.actions = timed.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
        return plan
    }

    /// Every way the run can go, when they all go the same way (the same
    /// moments for every operation, the same actions that act); nil
    /// otherwise, or when the model does not follow one of them.
    func run() -> TimedModel.Run? {
        guard let runs = model.runs(), let first = runs.first else { return nil }
        guard runs.allSatisfy({ $0.lives == first.lives && $0.acted == first.acted }) else { return nil }
        return first
    }

    /// The concepts the plan uses, as the run shows them.
    func concepts(_ run: TimedModel.Run) -> Set<Concept> {
        var found: Set<Concept> = [.async]
        if model.ops.contains(where: { !$0.after.isEmpty }) { found.insert(.dependencies) }
        if model.ops.contains(where: { $0.priority != nil }) { found.insert(.priority) }
        let waitedForSlot = run.lives.contains { life in
            if case .slotFreed = life.cause, let ready = life.ready, let dispatched = life.dispatched {
                return ready < dispatched
            }
            return false
        }
        for action in model.actions {
            switch action.act {
            case .cancel: found.insert(.cancellation)
            case .suspend, .resume: found.insert(.suspension)
            case .setCap: found.insert(.cap)
            case .add: break
            }
        }
        if waitedForSlot { found.insert(.cap) }
        return found
    }

    /// The scenario's queues, operations and actions.
    func fill(_ draft: inout QuestionDraft) {
        draft.queues = model.queues.enumerated().map { q, queue in
            QuestionDraft.Queue(
                name: queue.name,
                options: [queue.cap == 1 ? "serial" : "max \(queue.cap)"]
                    + (startsSuspended.contains(q) ? ["suspended"] : []))
        }
        draft.ops = model.ops.map { op in
            let body: QuestionDraft.Body =
                switch op.ending {
                case .posts: .async(op.length)
                case .never: .neverFinishes(op.length)
                case .neverIfCancelled: .forgetsIfCancelled(op.length)
                }
            var written = QuestionDraft.Op(
                name: op.name, queue: model.queues[op.queue].name, body: body,
                after: op.after.map { model.ops[$0].name },
                priority: op.priority)
            written.ignoresCancel = op.ignoresCancel
            written.addedLater = op.addedLater
            return written
        }
        draft.actions = model.actions.map { QuestionDraft.Action(at: $0.at, actionText($0.act)) }
    }

    func actionText(_ act: TimedModel.Act) -> String {
        switch act {
        case .cancel(let i): "cancel \(model.ops[i].name)"
        case .suspend(let q): "suspend \(model.queues[q].name)"
        case .resume(let q): "resume \(model.queues[q].name)"
        case .setCap(let q, let n): "max \(model.queues[q].name) \(n)"
        case .add(let i): "add \(model.ops[i].name)"
        }
    }
}
