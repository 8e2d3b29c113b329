import RunEvents
import ScenarioKit

/// The chain of what held an operation back in one run: from the start of
/// the run to the moment it started, each link an interval of scenario
/// time and what filled it (an operation running, an operation waiting in
/// its queue until something let it go, a timed action still to come).
/// The links tile the interval, so their costs add up to the start time.
///
/// Built from the stream alone (`RunTimeline`): an operation's dispatch,
/// readiness and start are observed events, and so is what came last
/// before each (the dependency that finished, the slot a finish freed,
/// the resume, the cap raised). Where the stream shows no event that let
/// an operation go, the link says only the interval (`.waited`), never a
/// rule.
public struct CriticalPath: Sendable, Hashable {
    public enum Link: Sendable, Hashable {
        /// `op` ran (from its start until it stopped executing).
        case ran(OperationID)
        /// `op` was ready or dispatched and waited until `cause` let it go.
        case waited(OperationID, until: Release)
        /// The run had not yet come to the timed action (`at` line) that
        /// added `op` or let it go.
        case timedAction(Int)
        /// A completion block of `op` ran before the action it performed.
        case completionBlock(OperationID)
        /// `op`, cancelled before it started, was dispatched (or let go)
        /// and finished without running.
        case finishedWithoutRunning(OperationID)
    }

    /// What let a waiting operation go.
    public enum Release: Sendable, Hashable {
        /// Its last dependency (or, on a queue with a barrier, what it
        /// waits for there) finished.
        case prerequisite(OperationID)
        /// A slot of its queue was freed: `op` stopped executing.
        case slot(OperationID)
        /// Its queue was resumed by this action.
        case resumed(ActionOrigin?)
        /// Its queue's cap was raised by this action.
        case capRaised(Int, ActionOrigin?)
        /// It was added by this action (its first moment).
        case added(ActionOrigin?)
        /// It is in no queue: the main thread called its `start()` by hand
        /// for this action (an `at` line), at its time or, when the main
        /// thread was busy then, once it was free.
        case startedByHand(ActionOrigin?)
        /// Dispatched, then started on a thread: nothing in the stream
        /// between says what it waited for (a worker thread, or the main
        /// thread for the main queue).
        case thread
        /// Dispatched, then started on the thread `op` had just given
        /// back: `op` (synchronous work) stopped executing on it after the
        /// dispatch, right before this start on the same thread.
        case threadFreed(OperationID, ThreadTag)
        /// The stream shows nothing that let it go at that moment.
        case unexplained
    }

    public struct Step: Sendable, Hashable {
        public var link: Link
        /// Scenario seconds.
        public var from: Double
        public var to: Double
        public var cost: Double { max(0, to - from) }
    }

    /// A dispatch that starts within this (scenario seconds) started as a
    /// thread took it up; a longer gap is a link of its own, a wait for a
    /// thread (which another operation may have held).
    public static let threadWait = 0.002

    public var operation: OperationID
    /// When it started (scenario seconds).
    public var started: Double
    /// In time order, from the run's start (or the first link the stream
    /// explains) to `started`.
    public var steps: [Step]
}

/// What building a chain looked at, counted: the queue moments, actions
/// and operations read to find each link. A test holds it to the run's
/// size (linear, never a pass over the run per link).
public struct CriticalPathWork: Sendable, Hashable {
    public var inspected = 0
    public init() {}
}

/// Lookups a chain needs more than once, each made at most once per chain
/// (and only when a link asks): who is started by hand, the `start` and
/// `add` actions per operation, the synchronous operations' stops per
/// thread. Each is one pass over the scenario or the run.
struct CriticalPathIndex {
    let timeline: RunTimeline
    lazy var byHand: Set<OperationID> = timeline.scenario.startedByHand
    lazy var addedLater: Set<OperationID> = timeline.scenario.addedLater
    /// Per operation, the `start` and `add` actions carried out for it, in order.
    lazy var actions: [OperationID: [(event: LifecycleEvent, isStart: Bool)]] = {
        var found: [OperationID: [(event: LifecycleEvent, isStart: Bool)]] = [:]
        for event in timeline.events {
            switch event.kind {
            case .action(.start(let op), _, nil): found[op, default: []].append((event, true))
            case .action(_, .startBatch, nil):
                // The start's batch adds at time zero, as the run begins: no
                // action of its own let any operation go.
                break
            case .action(let action, _, nil):
                for op in action.addedOperations { found[op, default: []].append((event, false)) }
            default: break
            }
        }
        return found
    }()
    /// Per thread, the synchronous operations' stops on it, in stream order.
    lazy var stops: [ThreadTag: [(op: OperationID, stopped: Stamp)]] = {
        var found: [ThreadTag: [(op: OperationID, stopped: Stamp)]] = [:]
        for (i, spec) in timeline.scenario.operations.enumerated() where !spec.body.isAsync {
            let facts = timeline[OperationID(i)]
            guard let thread = facts.thread, let stopped = facts.moments.stopped else { continue }
            found[thread, default: []].append((OperationID(i), stopped))
        }
        for key in found.keys { found[key]!.sort { $0.stopped.seq < $1.stopped.seq } }
        return found
    }()

    init(_ timeline: RunTimeline) { self.timeline = timeline }
}

extension RunTimeline {
    /// The chain of what held `op` back, or nil when it never started.
    /// Bounded: each operation appears at most once as a link that runs,
    /// so a chain has at most about three links per operation.
    public func criticalPath(to op: OperationID) -> CriticalPath? {
        var work = CriticalPathWork()
        return criticalPath(to: op, work: &work)
    }

    /// The chain, counting in `work` what it looked at: linear in the
    /// run's size. Each link finds what let its operation go by a binary
    /// search of its queue's moments and a walk back from its dispatch to
    /// its readiness, not a pass over the queue's whole history.
    public func criticalPath(to op: OperationID, work: inout CriticalPathWork) -> CriticalPath? {
        guard scenario.contains(op), let start = self[op].started else { return nil }
        var index = CriticalPathIndex(self)
        var steps: [CriticalPath.Step] = []
        var current = op
        var t = start.time
        var seen = Set<OperationID>()
        var remaining = scenario.operations.count * 3 + 8
        func step(_ link: CriticalPath.Link, from: Double) {
            steps.append(CriticalPath.Step(link: link, from: min(from, t), to: t))
            t = min(from, t)
        }
        while remaining > 0, seen.insert(current).inserted {
            remaining -= 1
            work.inspected += 1
            var pivot: Stamp
            if let started = self[current].started {
                if current != op { step(.ran(current), from: started.time) }
                pivot = started
            } else if current != op, let finished = self[current].finished {
                // Cancelled before it started: its finish is what released the next.
                let at = self[current].dispatched.flatMap { $0.seq < finished.seq ? $0 : nil } ?? finished
                step(.finishedWithoutRunning(current), from: at.time)
                pivot = at
            } else {
                break
            }
            let started = pivot
            if self[current].started != nil, let dispatched = self[current].dispatched, dispatched.seq < started.seq {
                if started.time - dispatched.time > CriticalPath.threadWait {
                    if let (holder, stopped) = threadHolder(
                        before: started, after: dispatched, of: current, index: &index, work: &work)
                    {
                        step(.waited(current, until: .threadFreed(holder, self[current].thread!)), from: stopped.time)
                        if !seen.contains(holder) {
                            // The holder's run is the next link; the dispatch
                            // came while it ran, so the chain goes on from it.
                            current = holder
                            continue
                        }
                    }
                    // Dispatched, then started later: the stream says only that.
                    step(.waited(current, until: .thread), from: dispatched.time)
                }
                pivot = dispatched
            }
            if index.byHand.contains(current) {
                // No queue let it go: the main thread's call did, for an `at` line.
                let call = startCall(of: current, before: pivot.seq, index: &index)
                var from = call?.stamp.time ?? pivot.time
                if case .timed(let index)? = call?.origin, scenario.actions.indices.contains(index) {
                    from = min(from, scenario.actions[index].time.seconds)
                }
                step(.waited(current, until: .startedByHand(call?.origin)), from: from)
                if case .timed(let index)? = call?.origin, t > 0 { step(.timedAction(index), from: 0) }
                break
            }
            let release = self.release(of: current, before: pivot, index: &index, work: &work)
            let from = release.release == .added(nil) ? 0 : release.at.time
            step(.waited(current, until: release.release), from: from)
            var next: OperationID?
            switch release.release {
            case .prerequisite(let other), .slot(let other):
                next = other
            case .resumed(let origin), .capRaised(_, let origin), .added(let origin):
                switch origin {
                case .timed(let index)?:
                    if t > 0 { step(.timedAction(index), from: 0) }
                case .completion(let other)?:
                    if let finished = self[other].finished, !seen.contains(other) {
                        step(.completionBlock(other), from: finished.time)
                        next = other
                    }
                case .user?, .startBatch?, nil:
                    break
                }
            case .thread, .threadFreed, .unexplained, .startedByHand:
                break
            }
            guard let next else { break }
            current = next
        }
        return CriticalPath(operation: op, started: start.time, steps: steps.reversed())
    }

    /// What let `op` go by `pivot` (its dispatch, or its start without
    /// one), and when: the latest observed moment among its readiness (and
    /// the prerequisite that brought it), its queue's freed slots, resumes
    /// and cap changes since it was ready.
    func release(
        of op: OperationID, before pivot: Stamp, index: inout CriticalPathIndex, work: inout CriticalPathWork
    ) -> (release: CriticalPath.Release, at: Stamp) {
        let facts = self[op]
        let spec = scenario[operation: op]
        guard let ready = facts.ready, ready.seq <= pivot.seq else { return (.unexplained, pivot) }
        var best: (release: CriticalPath.Release, at: Stamp)
        if let (prerequisite, finished) = lastPrerequisite(of: op, before: ready.seq) {
            best = (.prerequisite(prerequisite), finished)
        } else if let added = facts.added {
            let origin = addOrigin(of: op, before: added.seq, index: &index)
            // Without an `add` action it was added as the run began.
            best = (.added(origin), added)
            if origin == nil && index.addedLater.contains(op) { best = (.unexplained, added) }
        } else {
            best = (.unexplained, ready)
        }
        // The latest of the queue's moments in (ready, pivot]: found from
        // the pivot back, so a link reads only the moments of its own wait.
        let moments = queueMoments[spec.queue.index]
        var i = Self.firstIndex(in: moments, after: pivot.seq) - 1
        while i >= 0, moments[i].stamp.seq > ready.seq {
            work.inspected += 1
            let (stamp, moment) = moments[i]
            switch moment {
            case .slotFreed(let other) where other != op:
                return (.slot(other), stamp)
            case .resumed:
                return (.resumed(actionOrigin(on: spec.queue, before: stamp.seq)), stamp)
            case .capChanged(let cap):
                return (.capRaised(cap, actionOrigin(on: spec.queue, before: stamp.seq)), stamp)
            default:
                i -= 1
            }
        }
        return best
    }

    /// Among what `op` waits for (its dependencies; on its queue, what the
    /// barrier rule orders before it, as the graph draws it:
    /// `BarrierRule`), the one that finished last before `seq`.
    func lastPrerequisite(of op: OperationID, before seq: Int) -> (OperationID, Stamp)? {
        var candidates = Array(scenario[operation: op].dependencies)
        if barrierWaits.indices.contains(op.index) { candidates += barrierWaits[op.index] }
        var best: (OperationID, Stamp)?
        for id in candidates {
            guard let finished = self[id].finished, finished.seq <= seq else { continue }
            if finished.seq > (best?.1.seq ?? Int.min) { best = (id, finished) }
        }
        return best
    }

    /// The index of the first of `moments` stamped after `seq` (their
    /// count when none is): they are in stream order.
    static func firstIndex<T>(in moments: [(stamp: Stamp, moment: T)], after seq: Int) -> Int {
        var (low, high) = (0, moments.count)
        while low < high {
            let mid = (low + high) / 2
            if moments[mid].stamp.seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The synchronous operation that stopped executing on the thread `op`
    /// started on, last before that start and after its dispatch.
    func threadHolder(
        before started: Stamp, after dispatched: Stamp, of op: OperationID, index: inout CriticalPathIndex,
        work: inout CriticalPathWork
    ) -> (OperationID, Stamp)? {
        guard let thread = self[op].thread, let stops = index.stops[thread] else { return nil }
        // The last stop before the start, found by halves, then back past `op` itself.
        var (low, high) = (0, stops.count)
        while low < high {
            let mid = (low + high) / 2
            if stops[mid].stopped.seq < started.seq { low = mid + 1 } else { high = mid }
        }
        var i = low - 1
        while i >= 0, stops[i].stopped.seq > dispatched.seq {
            work.inspected += 1
            if stops[i].op != op { return (stops[i].op, stops[i].stopped) }
            i -= 1
        }
        return nil
    }

    /// The origin of the last action on `queue` carried out before `seq`.
    func actionOrigin(on queue: QueueID, before seq: Int) -> ActionOrigin? {
        let actions = queueActions[queue.index]
        var (low, high) = (0, actions.count)
        while low < high {
            let mid = (low + high) / 2
            if actions[mid].stamp.seq < seq { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? actions[low - 1].cause.origin : nil
    }

    /// Operation `op` is started by hand (a `start` action names it).
    public func isByHand(_ op: OperationID) -> Bool {
        scenario.actions.contains { if case .start(op) = $0.action { true } else { false } }
    }

    /// The `start` action whose call started `op` (the last one carried
    /// out before `seq`), with its moment.
    public func startCall(of op: OperationID, before seq: Int) -> (origin: ActionOrigin, stamp: Stamp)? {
        var index = CriticalPathIndex(self)
        return startCall(of: op, before: seq, index: &index)
    }

    func startCall(of op: OperationID, before seq: Int, index: inout CriticalPathIndex) -> (
        origin: ActionOrigin, stamp: Stamp
    )? {
        for (event, isStart) in (index.actions[op] ?? []).reversed() where isStart && event.seq < seq {
            if case .action(.start(let started), let origin, nil) = event.kind, started == op {
                return (origin, Stamp(seq: event.seq, time: event.time))
            }
        }
        return nil
    }

    /// The `add` action that added `op`, when one did (before `seq`).
    func addOrigin(of op: OperationID, before seq: Int, index: inout CriticalPathIndex) -> ActionOrigin? {
        for (event, isStart) in (index.actions[op] ?? []).reversed() where !isStart && event.seq < seq {
            if case .action(_, let origin, nil) = event.kind { return origin }
        }
        return nil
    }
}
