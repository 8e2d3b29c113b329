import RunEvents
import ScenarioKit
import TextKit

/// The chain said in one sentence, and its links grouped by what they
/// waited for: `H` and `opscope why` open with the sentence; `H` lists the
/// groups. The sentence names the link that cost the most time, as the
/// run had it (a dependency that ran, a slot of a queue and who held it, a
/// suspension, a cap, a thread, the main thread, an `at` line).
extension CriticalPath {
    /// What a stretch of the chain waited for. A link that ran counts
    /// towards the wait it ended (the one after it: the dependency it was,
    /// the slot or the thread it gave back).
    public enum Cause: Sendable, Hashable {
        case dependency
        case slot(QueueID)
        case suspension(QueueID)
        case cap(QueueID)
        case workerThread
        case mainThread
        case added
        case unexplained
    }

    /// Consecutive links of one cause, in time order.
    public struct Group: Sendable, Hashable {
        public var cause: Cause
        /// Indices into `steps`.
        public var steps: Range<Int>
        /// Scenario seconds: the links' costs added up.
        public var cost: Double
    }

    /// A link costs nothing as the chain says it: under half a millisecond.
    public static let noWait = 0.0005

    /// The cause of each step, found in one pass from the last.
    public func causes(in scenario: Scenario) -> [Cause] {
        var causes = [Cause](repeating: .unexplained, count: steps.count)
        var next = Cause.unexplained
        for i in steps.indices.reversed() {
            if case .waited(let op, let release) = steps[i].link {
                next = Self.cause(of: release, for: op, in: scenario)
            }
            causes[i] = next
        }
        return causes
    }

    static func cause(of release: Release, for op: OperationID, in scenario: Scenario) -> Cause {
        let queue = scenario[operation: op].queue
        let isMain = scenario.queues.indices.contains(queue.index) && scenario[queue: queue].isMain
        switch release {
        case .prerequisite: return .dependency
        case .slot: return .slot(queue)
        case .resumed: return .suspension(queue)
        case .capRaised: return .cap(queue)
        case .added: return .added
        case .startedByHand: return .mainThread
        case .thread, .threadFreed: return isMain ? .mainThread : .workerThread
        case .unexplained: return .unexplained
        }
    }

    /// The links grouped: each run of consecutive links of one cause.
    public func groups(in scenario: Scenario) -> [Group] {
        let causes = causes(in: scenario)
        var groups: [Group] = []
        for i in steps.indices {
            if let last = groups.last, last.cause == causes[i] {
                groups[groups.count - 1].steps = last.steps.lowerBound..<(i + 1)
                groups[groups.count - 1].cost += steps[i].cost
            } else {
                groups.append(Group(cause: causes[i], steps: i..<(i + 1), cost: steps[i].cost))
            }
        }
        return groups
    }

    /// One line of the chain as `H` lists it (`Listing`).
    public enum Entry: Sendable, Hashable {
        /// The line of `groups[index]`: what it waited for, its cost, its links.
        case group(Int)
        /// The line of `steps[index]`.
        case step(Int)
        /// `count` links in a row of no wait, folded.
        case folded(Int)
    }

    /// The chain as `H` lists it, without its words: what each line is,
    /// so that only the lines shown are put in words (a chain can have
    /// thousands).
    public struct Listing: Sendable {
        public var groups: [Group]
        public var entries: [Entry]
    }

    /// For each group its line, then its links, two or more in a row that
    /// cost nothing folded into one line, but never the last (what let the
    /// operation go).
    public func listing(in scenario: Scenario) -> Listing {
        let groups = groups(in: scenario)
        var entries: [Entry] = []
        for (g, group) in groups.enumerated() {
            entries.append(.group(g))
            var free = 0
            var freeStart = 0
            func flush() {
                if free == 1 { entries.append(.step(freeStart)) }
                if free > 1 { entries.append(.folded(free)) }
                free = 0
            }
            for i in group.steps {
                // The last link, what let the operation go, is always shown.
                if steps[i].cost < Self.noWait, i < steps.count - 1 {
                    if free == 0 { freeStart = i }
                    free += 1
                    continue
                }
                flush()
                entries.append(.step(i))
            }
            flush()
        }
        return Listing(groups: groups, entries: entries)
    }

    /// The words of `entry`: `  waiting for a slot of net (cap 2): 400ms, 3
    /// links`, a link as `lines(in:)` says it (two cells further in), or
    /// `    … 12 links of no wait`. `byHand`: `scenario.startedByHand`.
    public func text(
        of entry: Entry, in listing: Listing, timeline: RunTimeline, byHand: Set<OperationID>
    ) -> String {
        switch entry {
        case .group(let g):
            let group = listing.groups[g]
            let count = group.steps.count
            return "  \(Self.title(group.cause, in: timeline, at: group.steps.upperBound - 1, path: self)): "
                + "\(Self.costText(group.cost)), \(count) link\(count == 1 ? "" : "s")"
        case .step(let i):
            return "  " + line(steps[i], timeline: timeline, byHand: byHand)
        case .folded(let count):
            return "    … \(count) links of no wait"
        }
    }

    /// The chain as `H` lists it, every line in words (`listing`, `text`).
    public func groupedLines(in timeline: RunTimeline) -> [String] {
        let listing = listing(in: timeline.scenario)
        let byHand = timeline.scenario.startedByHand
        return listing.entries.map { text(of: $0, in: listing, timeline: timeline, byHand: byHand) }
    }

    /// `waiting for a slot of net (cap 2)`, the words of a group's line.
    static func title(_ cause: Cause, in timeline: RunTimeline, at step: Int, path: CriticalPath) -> String {
        let scenario = timeline.scenario
        switch cause {
        case .dependency: return "waiting for dependencies to finish"
        case .slot(let q):
            return "waiting for a slot of \(scenario.queueName(q)) (\(capText(q, in: timeline, at: step, path: path)))"
        case .suspension(let q): return "waiting while \(scenario.queueName(q)) was suspended"
        case .cap(let q): return "waiting for \(Spelling.possessive(scenario.queueName(q))) cap to rise"
        case .workerThread: return "waiting for a worker thread"
        case .mainThread: return "waiting for the main thread"
        case .added: return "waiting to be added"
        case .unexplained: return "waiting for what the run's events do not say"
        }
    }

    /// `cap 2`, `serial`, `default cap`: the cap of `queue` when the
    /// operation of `steps[step]` was dispatched (a cap changed by then
    /// counts).
    static func capText(_ queue: QueueID, in timeline: RunTimeline, at step: Int, path: CriticalPath) -> String {
        var cap = timeline.scenario[queue: queue].cap.foundationValue
        if case .waited(let op, _) = path.steps[step].link, let dispatched = timeline[op].dispatched,
            let set = timeline.cap(of: queue, at: dispatched.seq)
        {
            cap = set
        }
        if cap == 1 { return "serial" }
        return cap < 0 ? "the default cap" : "cap \(cap)"
    }
}

// MARK: - The sentence

extension CriticalPath {
    /// The decisive link: its step's index, what it cost (the whole wait it
    /// stands for: a slot wait is the operation's time from ready to
    /// dispatch, not the last link of it) and the operation it is about.
    struct Decisive {
        var step: Int
        var cost: Double
        var subject: OperationID
    }

    /// `merge started at 1.104s: it waited for img4, which waited 400ms
    /// for a slot of net (cap 2), held by img1 and img2`.
    public func summary(in timeline: RunTimeline) -> String {
        let scenario = timeline.scenario
        let head = "\(scenario.opName(operation)) started at \(Spelling.seconds(started)): "
        guard let decisive = decisive(in: timeline), decisive.cost >= Self.noWait else {
            return head + "nothing held it back (every link of its chain cost under 1ms)"
        }
        let clause = Self.clause(decisive, path: self, timeline: timeline)
        let via = chainOperations(before: decisive.step)
        var text = head
        switch via.count {
        case 0: text += "it "
        case 1: text += "it waited for \(scenario.opName(via[0])), which "
        case 2: text += "it waited for \(scenario.opName(via[0])), which waited for \(scenario.opName(via[1])), which "
        default:
            let others = via.count - 2
            text +=
                "it waited for \(scenario.opName(via[0])), which waited through \(others) other\(others == 1 ? "" : "s") "
                + "for \(scenario.opName(via[via.count - 1])), which "
        }
        return text + clause
    }

    /// The operation each step is about: what ran, what waited; an `at`
    /// line's step is about the operation of the step after it.
    func subjects() -> [OperationID] {
        var subjects = [OperationID](repeating: operation, count: steps.count)
        var next = operation
        for i in steps.indices.reversed() {
            switch steps[i].link {
            case .ran(let op), .waited(let op, _), .completionBlock(let op), .finishedWithoutRunning(let op):
                next = op
            case .timedAction:
                break
            }
            subjects[i] = next
        }
        return subjects
    }

    /// The operations from the one asked about back to the subject of
    /// `step`, that one included, the one asked about not: what it waited
    /// for, in turn.
    func chainOperations(before step: Int) -> [OperationID] {
        let subjects = subjects()
        var via: [OperationID] = []
        var last = operation
        for i in stride(from: steps.count - 1, through: step, by: -1) where subjects[i] != last {
            last = subjects[i]
            via.append(last)
        }
        return via
    }

    /// The link that cost the most (to the millisecond); of equal ones a
    /// wait before a run, else the latest.
    func decisive(in timeline: RunTimeline) -> Decisive? {
        var best: Decisive?
        var bestIsWait = false
        for (i, step) in steps.enumerated() {
            let next = i + 1 < steps.count ? steps[i + 1].link : nil
            var cost = step.cost
            let subject: OperationID
            var isWait = true
            switch step.link {
            case .ran(let op):
                // A run that gave a slot or a thread back is part of that wait.
                if case .waited(_, .slot(op))? = next { continue }
                if case .waited(_, .threadFreed(op, _))? = next { continue }
                subject = op
                isWait = false
            case .timedAction:
                // Said by the wait it ended.
                continue
            case .waited(let op, let release):
                subject = op
                let facts = timeline[op]
                let previous = i > 0 ? steps[i - 1].cost : 0
                switch release {
                case .slot, .resumed, .capRaised:
                    if let ready = facts.ready, let dispatched = facts.dispatched, ready.seq <= dispatched.seq {
                        cost = max(cost, dispatched.time - ready.time)
                    }
                    cost = max(cost, previous)
                case .threadFreed:
                    if let dispatched = facts.dispatched, let started = facts.started {
                        cost = max(cost, started.time - dispatched.time)
                    }
                case .added, .startedByHand:
                    if i > 0, case .timedAction = steps[i - 1].link { cost += previous }
                case .prerequisite, .thread, .unexplained:
                    break
                }
            case .completionBlock(let op), .finishedWithoutRunning(let op):
                subject = op
            }
            let rounded = (cost * 1000).rounded()
            let bestRounded = ((best?.cost ?? -1) * 1000).rounded()
            // Of equal costs the later link, nearer the start it held back;
            // but a wait before a run.
            if best == nil || rounded > bestRounded || (rounded == bestRounded && (isWait || !bestIsWait)) {
                best = Decisive(step: i, cost: cost, subject: subject)
                bestIsWait = isWait
            }
        }
        return best
    }

    /// The decisive link in words, after "which" (or "it").
    static func clause(_ decisive: Decisive, path: CriticalPath, timeline: RunTimeline) -> String {
        let scenario = timeline.scenario
        let name = scenario.opName
        let cost = costText(decisive.cost)
        func queueOf(_ op: OperationID) -> String { scenario.queueName(scenario[operation: op].queue) }
        func by(_ origin: ActionOrigin?) -> String {
            origin.map { StallCause.originText($0, in: scenario) } ?? "an action"
        }
        switch path.steps[decisive.step].link {
        case .ran(let op):
            let isAsync = scenario[operation: op].body.isAsync
            let verb = isAsync ? "ran \(cost) (start() to isFinished)" : "ran \(cost)"
            if timeline.scenario.startedByHand.contains(op) { return "\(verb), started by hand on the main thread" }
            return "\(verb) on \(queueOf(op))"
        case .waited(let op, .slot):
            let q = scenario[operation: op].queue
            let cap = capText(q, in: timeline, at: decisive.step, path: path)
            let holders = slotHolders(of: op, in: timeline)
            let held: String
            if holders.isEmpty {
                held = ""
            } else if holders.count <= max(1, scenario[queue: q].cap.foundationValue) {
                held = ", held by \(Spelling.list(holders.map(name)))"
            } else {
                let shown = holders.prefix(3).map(name)
                held = ", held in turn by \(shown.joined(separator: ", ")) and \(holders.count - 3) more"
            }
            return "waited \(cost) for a slot of \(scenario.queueName(q)) (\(cap))\(held)"
        case .waited(let op, .resumed(let origin)):
            return "waited \(cost) while \(queueOf(op)) was suspended, until \(by(origin)) resumed it"
        case .waited(let op, .capRaised(let n, let origin)):
            return
                "waited \(cost) for \(Spelling.possessive(queueOf(op))) cap to rise, until \(by(origin)) made it \(n)"
        case .waited(let op, .thread):
            let isMain = scenario[queue: scenario[operation: op].queue].isMain
            return "was dispatched, then waited \(cost) for \(isMain ? "the main thread" : "a worker thread")"
        case .waited(_, .threadFreed(let holder, let thread)):
            return "was dispatched, then waited \(cost) for thread \(thread), which \(name(holder)) held"
        case .waited(_, .added(let origin)):
            guard let origin else { return "was added as the run began" }
            let at = timeline[decisive.subject].added.map { " at \(Spelling.seconds($0.time))" } ?? ""
            return "was added only\(at), by \(by(origin))"
        case .waited(_, .startedByHand(let origin)):
            // The main thread busy, or the `at` line not yet come.
            let busy = path.steps[decisive.step].cost
            if busy * 2 < decisive.cost, let origin {
                let at = Spelling.seconds(path.steps[decisive.step].from)
                return "was started by hand on the main thread only at \(at), by \(by(origin))"
            }
            let line = origin.map { " for " + StallCause.originText($0, in: scenario) } ?? ""
            return "waited \(cost) for the main thread to call its start() by hand\(line)"
        case .waited(_, .prerequisite(let other)):
            return "waited \(cost) after its dependency \(name(other)) finished"
        case .waited(_, .unexplained):
            return "waited \(cost); the run's events do not say for what"
        case .timedAction(let index):
            return "waited \(cost) for \(StallCause.originText(.timed(index), in: scenario))"
        case .completionBlock:
            return "finished, and its completion block took \(cost) to perform the action"
        case .finishedWithoutRunning:
            return "was cancelled before it started and took \(cost) to finish without running"
        }
    }

    /// The operations of `op`'s queue that held a slot while it waited
    /// (from ready to dispatched), in the order they started. One pass
    /// over the operations: asked only for the decisive link.
    static func slotHolders(of op: OperationID, in timeline: RunTimeline) -> [OperationID] {
        let scenario = timeline.scenario
        let facts = timeline[op]
        guard let ready = facts.ready, let dispatched = facts.dispatched else { return [] }
        let queue = scenario[operation: op].queue
        let byHand = scenario.startedByHand
        var holders: [(OperationID, Int)] = []
        for i in scenario.operations.indices where i != op.index && scenario.operations[i].queue == queue {
            let other = OperationID(i)
            guard !byHand.contains(other), let started = timeline[other].started, started.seq < dispatched.seq
            else { continue }
            let stopped = timeline[other].moments.stopped ?? timeline[other].finished
            if let stopped, stopped.seq <= ready.seq { continue }
            holders.append((other, started.seq))
        }
        return holders.sorted { $0.1 < $1.1 }.map(\.0)
    }
}
