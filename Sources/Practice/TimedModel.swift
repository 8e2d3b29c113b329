import Board
import FoundationRules
import ScenarioKit

/// Asynchronous operations on queues, run by swift-corelibs-foundation's
/// rules at nominal moments: the model behind every generated question
/// whose answer depends on when things happen (a cancel while an operation
/// runs, a suspension or a cap change mid-run, the board at a moment).
///
/// Why nominal moments are enough: every operation is asynchronous (its
/// `start()` returns at once and it holds no worker thread, so a queue
/// starts what it dispatches at once, whatever the number of cores, and
/// the pool's slow ramp never comes in), and every length and every action
/// time is a multiple of `grid`. So everything happens at a multiple of
/// `grid`, give or take the few milliseconds a start or a timer takes, and
/// two things at different multiples are at least `grid` apart: 100 ms of
/// real time at `confirmSpeed`, 200 ms at `quiz`'s default ×4. A moment
/// asked about is a multiple at which nothing happens.
///
/// What happens at the same nominal moment may come in any order: two
/// timers, a timer and an action, the dependents one finish releases onto
/// a queue with less room than their number (Foundation releases them in
/// the order of a `Set`). The model tries every such order (`runs()`), and
/// a question is asked only when all of them give its answer.
struct TimedModel: Sendable {
    /// Milliseconds of scenario time between two moments that matter.
    static let grid = 800
    /// Scenario seconds per real second for the confirming runs: a `grid`
    /// is 100 ms of real time.
    static let confirmSpeed = 8.0
    /// No run of a generated question goes past this (scenario ms): 600 ms
    /// of real time at `confirmSpeed`, so that three confirming runs at once
    /// take well under a second. A run that stalls must end three grids
    /// earlier: the engine declares a stall only once nothing happened for
    /// 200 ms of real time, and looks for one now and then.
    static let horizon = 6 * grid
    /// Orders tried before the model gives up on a draw.
    static let maxRuns = 96

    enum Ending: Sendable, Hashable {
        /// Posts isFinished when its time is up (or at once when cancelled).
        case posts
        /// `never-finishes`: never posts it.
        case never
        /// `never-finishes if-cancelled`: cancelled before it starts, its
        /// start() returns without posting it; its queue counts it as
        /// running for good.
        case neverIfCancelled
    }

    struct Queue: Sendable {
        var name: String
        var cap: Int
        var suspended = false
    }

    struct Op: Sendable {
        var name: String
        var queue: Int
        /// Milliseconds of scenario time, a multiple of `grid`.
        var length: Int
        var after: [Int] = []
        var priority: PriorityLevel?
        var ending = Ending.posts
        var ignoresCancel = false
        /// Added by an `at` action, not at the start.
        var addedLater = false
        /// The list of its queue it waits in (no QoS and no barrier here).
        var bucket: DispatchBucket { DispatchBucket(priority ?? .normal) }
    }

    enum Act: Sendable, Hashable {
        case cancel(Int)
        case suspend(Int)
        case resume(Int)
        case setCap(Int, Int)
        case add(Int)
    }

    struct Action: Sendable {
        /// Milliseconds of scenario time, a multiple of `grid`, above 0.
        var at: Int
        var act: Act
    }

    /// Why an operation was dispatched when it was.
    enum Cause: Sendable, Hashable {
        /// Ready as it was added, with a slot free.
        case added
        /// The finish of this operation made it ready, with a slot free.
        case released(Int)
        /// This operation's finish freed the slot it took.
        case slotFreed(Int)
        /// Its queue resumed.
        case resumed
        /// Its queue's cap was raised.
        case capRaised
        /// A cancel made it ready, with a slot free.
        case cancelled
    }

    /// One operation's life in one run, in nominal milliseconds.
    struct Life: Sendable, Hashable {
        var added: Int?
        var ready: Int?
        var dispatched: Int?
        var cause: Cause?
        var started: Int?
        var finished: Int?
        /// When the cancel set its flag (a cancel after the finish does nothing).
        var cancelled: Int?
        /// Cancelled before it started and `never-finishes if-cancelled`:
        /// when its start() returned without a word.
        var stranded: Int?

        var finalState: FinalState {
            if started == nil, cancelled != nil { return .skipped }
            guard finished != nil else { return .stuck }
            return cancelled != nil ? .cancelled : .finished
        }

        /// The board's column at `t` (a moment at which nothing happens),
        /// or nil before it was added.
        func column(at t: Int) -> Phase? {
            guard let added, added < t else { return nil }
            if let finished, finished < t { return cancelled != nil ? .cancelled : .finished }
            if let started, started < t { return .executing }
            if let stranded, stranded < t { return .executing }
            if let ready, ready < t { return .ready }
            return .pending
        }

        /// Every moment something happened to it.
        var moments: [Int] { [added, ready, dispatched, started, finished, cancelled, stranded].compactMap { $0 } }
    }

    /// One way the run can go: each operation's life, and the moments of
    /// the actions (an action that did nothing says so).
    struct Run: Sendable {
        var lives: [Life]
        /// Per action: false when it changed nothing (a cancel of an
        /// operation already finished).
        var acted: [Bool]
        /// When the last operation that never posts isFinished would have
        /// ended its work: the run cannot end stalled before (0: none).
        var forgottenUntil = 0
        /// Every moment at which something happened.
        var moments: Set<Int> {
            Set(lives.flatMap(\.moments)).union([0])
        }
        /// The last moment something happened.
        var lastMoment: Int { lives.flatMap(\.moments).max() ?? 0 }
        /// When the run ends: its last moment, or, when it stalls, not
        /// before the forgetful operations' work would have ended.
        var end: Int { max(lastMoment, forgottenUntil) }
        var stalls: Bool { lives.contains { $0.finished == nil } }
    }

    var queues: [Queue]
    var ops: [Op]
    /// In the order performed: times never decrease.
    var actions: [Action]

    /// Every way the run can go (a run per order of what happens at one
    /// nominal moment), or nil when some order is one the model does not
    /// follow: a cancelled operation that releases others as its queue
    /// skips it; two actions at one moment (the second could find an
    /// operation the first let its queue dispatch not yet started: its
    /// start() runs on a thread of the pool); more than `maxRuns` orders; a
    /// run past `horizon`.
    func runs() -> [Run]? {
        for (earlier, later) in zip(actions, actions.dropFirst()) where earlier.at == later.at { return nil }
        var found: [Run] = []
        var stack: [[Int]] = [[]]
        while let prefix = stack.popLast() {
            var sim = TimedSimulation(model: self, choices: prefix)
            guard let run = sim.run() else { return nil }
            found.append(run)
            guard found.count <= Self.maxRuns else { return nil }
            for depth in prefix.count..<sim.taken.count {
                for other in 1..<sim.arities[depth] {
                    stack.append(Array(sim.taken[0..<depth]) + [other])
                }
            }
        }
        return found
    }

    /// The operations that wait for each one.
    var dependents: [[Int]] {
        var result = Array(repeating: [Int](), count: ops.count)
        for (i, op) in ops.enumerated() {
            for d in op.after { result[d].append(i) }
        }
        return result
    }
}
