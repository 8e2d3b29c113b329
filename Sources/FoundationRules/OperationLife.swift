/// An operation's life as its key-value notifications and its dispatch
/// tell it, and the steps Foundation's `Operation` never takes: the one
/// statement of the life a recording must show (`LifeCheck`) and a live
/// run is held to (`InvariantChecker`).
///
/// Every operation is added once (its first `isReady`), dispatched once,
/// executes once (`isExecuting` true, then false), and finishes once
/// (`isFinished` true, never false again); a cancel may come at any moment
/// before the finish (also before the add) and is never undone; nothing
/// follows the finish but its completion block, which runs once. One
/// cancelled before it started never executes: its `start()` finishes it
/// without running it. One started by hand is in no queue: it is neither
/// added nor dispatched. Probes: `barriercancel`, `cancelwaiting`, and the
/// traps `start-cancelled` and `start-twice` (.ci/probes/trap-facts.swift).
public struct OperationLife: Sendable, Hashable {
    /// The stages it has been through.
    public struct Stages: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let added = Stages(rawValue: 1 << 0)
        public static let dispatched = Stages(rawValue: 1 << 1)
        /// Its `isExecuting` went true (once, for good).
        public static let started = Stages(rawValue: 1 << 2)
        /// Its `isExecuting` is true now.
        public static let executing = Stages(rawValue: 1 << 3)
        public static let finished = Stages(rawValue: 1 << 4)
        public static let cancelled = Stages(rawValue: 1 << 5)
        public static let completionRan = Stages(rawValue: 1 << 6)
        /// Cancelled while it had not started.
        public static let cancelledBeforeStart = Stages(rawValue: 1 << 7)
    }

    /// One thing the stream says of it.
    public enum Step: Sendable, Hashable {
        /// Its first `isReady`: its queue has it.
        case added
        case dispatched
        case executing(Bool)
        case finished(Bool)
        case cancelled(Bool)
        /// Another `isReady`: a flag like the others, but no stage.
        case ready(Bool)
        /// Its `start()` saw it cancelled and returned without posting
        /// `isFinished`: it never starts again.
        case stranded
        case completionRan
    }

    /// A step Foundation's operation never takes, by what its life was.
    public enum Broken: Sendable, Hashable {
        case addedTwice
        /// `isFinished` true again.
        case finishedTwice
        /// Any other flag after the finish.
        case afterFinish
        case cancelUndone
        /// A flag before the add, by an operation its queue starts.
        case beforeAdd
        case executingTwice
        /// `isExecuting` false before it was true, or after it went false.
        case stoppedNotExecuting(started: Bool)
        case finishedWhileExecuting
        case finishUndone
        /// Executing, though it was cancelled before it started.
        case executedThoughCancelled
        /// Executing, or finished without running, in a queue that never
        /// dispatched it (only where dispatches are observed).
        case notDispatched(finishing: Bool)
        case dispatchedByHand
        case dispatchedBeforeAdd
        case dispatchedAfterFinish
        case dispatchedAfterStart
        case dispatchedTwice
        case completionBeforeFinish
        case completionTwice
        /// Stranded, though it was not a cancelled operation waiting to start.
        case strandedNotWaiting
    }

    public private(set) var stages: Stages = []

    public init() {}

    public func has(_ stage: Stages) -> Bool { stages.contains(stage) }

    /// Takes `step` (it is taken whether or not it breaks a rule, so one
    /// mistake is told once, not as every consequence) and returns the rule
    /// it broke. `inAQueue`: false for an operation started by hand;
    /// `dispatchObserved`: the stream announces each dispatch, so starting
    /// or finishing unrun in a queue needs one first.
    public mutating func take(_ step: Step, inAQueue: Bool = true, dispatchObserved: Bool = false) -> Broken? {
        let before = stages
        apply(step)
        switch step {
        case .added:
            return before.contains(.added) ? .addedTwice : nil
        case .dispatched:
            if !inAQueue { return .dispatchedByHand }
            if !before.contains(.added) { return .dispatchedBeforeAdd }
            if before.contains(.finished) { return .dispatchedAfterFinish }
            if before.contains(.started) { return .dispatchedAfterStart }
            return before.contains(.dispatched) ? .dispatchedTwice : nil
        case .completionRan:
            if !before.contains(.finished) { return .completionBeforeFinish }
            return before.contains(.completionRan) ? .completionTwice : nil
        case .stranded:
            let waiting = before.contains(.cancelled) && !before.contains(.started) && !before.contains(.finished)
            return waiting ? nil : .strandedNotWaiting
        case .executing(let value), .finished(let value), .cancelled(let value), .ready(let value):
            return flagFault(step, value, before, inAQueue: inAQueue, dispatchObserved: dispatchObserved)
        }
    }

    private func flagFault(
        _ step: Step, _ value: Bool, _ before: Stages, inAQueue: Bool, dispatchObserved: Bool
    ) -> Broken? {
        if before.contains(.finished) {
            if case .finished(true) = step { return .finishedTwice }
            return .afterFinish
        }
        if case .cancelled = step { return !value && before.contains(.cancelled) ? .cancelUndone : nil }
        guard before.contains(.added) || !inAQueue else { return .beforeAdd }
        let undispatched = inAQueue && dispatchObserved && !before.contains(.dispatched)
        switch (step, value) {
        case (.executing, true):
            if before.contains(.started) { return .executingTwice }
            if before.contains(.cancelledBeforeStart) { return .executedThoughCancelled }
            return undispatched ? .notDispatched(finishing: false) : nil
        case (.executing, false):
            return before.contains(.executing) ? nil : .stoppedNotExecuting(started: before.contains(.started))
        case (.finished, true):
            if before.contains(.executing) { return .finishedWhileExecuting }
            return undispatched && !before.contains(.started) ? .notDispatched(finishing: true) : nil
        case (.finished, false):
            return .finishUndone
        default:
            return nil
        }
    }

    private mutating func apply(_ step: Step) {
        switch step {
        case .added: stages.insert(.added)
        case .dispatched: stages.insert(.dispatched)
        case .executing(true):
            stages.formUnion([.started, .executing])
        case .executing(false): stages.remove(.executing)
        case .finished(true):
            stages.insert(.finished)
            stages.remove(.executing)
        case .finished(false): break
        case .cancelled(true):
            if !stages.contains(.started) && !stages.contains(.finished) { stages.insert(.cancelledBeforeStart) }
            stages.insert(.cancelled)
        case .cancelled(false), .ready: break
        case .stranded: stages.insert(.started)
        case .completionRan: stages.insert(.completionRan)
        }
    }
}
