import ScenarioKit
import TextKit

/// Why an action did nothing: the engine ignored it (an `ignored` action
/// event), or the interface would not ask for it. One value, one renderer:
/// the trace, the JSON stream and the interface say each reason in the
/// same words.
public enum ActionRefusal: Sendable, Hashable {
    case noSuchOperation
    case noSuchQueue
    /// `cancel` of a barrier: `addBarrierBlock` gives no handle.
    case barrierHasNoHandle
    /// `priority` of a barrier.
    case barrierHasNoPriority
    case alreadyFinished
    case alreadyCancelled
    /// A priority change for an operation that already started.
    case alreadyStarted
    case alreadySuspended
    case notSuspended
    /// The value asked for is the value it has.
    case unchanged
    /// A cap below 1 (0 would stall the queue; below −1 Foundation traps).
    case capBelowOne
    /// `add` of an operation already added (Foundation would stop the program).
    case alreadyAdded
    /// `OperationQueue.main` ignores this property or method.
    case mainQueueIgnores(MainQueueIgnored)
    /// `start` of a synchronous operation with a dependency not finished:
    /// Foundation's `start()` would stop the program.
    case startNotReady
    /// `start` of an asynchronous operation with a dependency not
    /// finished: its own `start()` does not look, and would begin anyway.
    case startNotReadyAsync
    /// `start` of a synchronous operation that executes: Foundation's
    /// `start()` would stop the program.
    case startWhileExecuting
    /// `start` of an asynchronous operation still in flight: its own
    /// `start()` would begin its work a second time.
    case startWhileExecutingAsync
    /// `start` of an operation (or barrier) its queue holds: Foundation's
    /// `start()` would stop the program.
    case startInAQueue

    public enum MainQueueIgnored: String, Sendable, Hashable, CaseIterable {
        case isSuspended
        case maxConcurrentOperationCount
        case cancelAllOperations
    }

    /// Every reason, in declaration order (a new case goes here too: a
    /// recording's `ignored` text is read back through this list).
    public static let allCases: [ActionRefusal] =
        [
            .noSuchOperation, .noSuchQueue, .barrierHasNoHandle, .barrierHasNoPriority, .alreadyFinished,
            .alreadyCancelled, .alreadyStarted, .alreadySuspended, .notSuspended, .unchanged, .capBelowOne,
            .alreadyAdded,
        ] + MainQueueIgnored.allCases.map(ActionRefusal.mainQueueIgnores)
        + [.startNotReady, .startNotReadyAsync, .startWhileExecuting, .startWhileExecutingAsync, .startInAQueue]

    /// The reason as a clause: `already finished`, `OperationQueue.main
    /// ignores isSuspended` (what follows `ignored:` in a trace line).
    public var text: String {
        switch self {
        case .noSuchOperation: "no such operation"
        case .noSuchQueue: "no such queue"
        case .barrierHasNoHandle: "a barrier cannot be cancelled on its own (cancel-all cancels it while it waits)"
        case .barrierHasNoPriority: "a barrier has no queuePriority (it runs before every ready operation)"
        case .alreadyFinished: "already finished"
        case .alreadyCancelled: "already cancelled"
        case .alreadyStarted: "its priority no longer matters once it started"
        case .alreadySuspended: "already suspended"
        case .notSuspended: "not suspended"
        case .unchanged: "unchanged"
        case .capBelowOne: "a cap must be at least 1 (0 would stall the queue)"
        case .alreadyAdded: "already added (adding an operation twice would stop the program)"
        case .mainQueueIgnores(.cancelAllOperations): "OperationQueue.main ignores cancelAllOperations"
        case .mainQueueIgnores(let property): "OperationQueue.main ignores \(property.rawValue)"
        case .startNotReady:
            "not ready (a dependency has not finished): Foundation's start() would stop the program "
                + "(receiver is not yet ready to execute)"
        case .startNotReadyAsync:
            "not ready (a dependency has not finished): its own start() does not look at isReady, and would "
                + "begin before it"
        case .startWhileExecuting:
            "already executing: Foundation's start() would stop the program (receiver is already executing)"
        case .startWhileExecutingAsync:
            "already executing: its own start() would begin its work a second time"
        case .startInAQueue:
            "its queue starts it: Foundation's start() would stop the program (something is trying to start "
                + "the receiver simultaneously from more than one thread)"
        }
    }

    /// A refusal of `start` (`Action.start`): the call was not made, and
    /// the text says what Foundation, or the operation's own `start()`,
    /// would have done.
    public var refusesStart: Bool {
        switch self {
        case .startNotReady, .startNotReadyAsync, .startWhileExecuting, .startWhileExecutingAsync, .startInAQueue:
            true
        default: false
        }
    }

    /// The engine ignored `action`: `cancel fetch: ignored — already finished`.
    public func sentence(for action: Action, in scenario: Scenario, dash: String = "—") -> String {
        "\(ScenarioPrinter.actionText(action, in: scenario)): ignored \(dash) \(text)"
    }

    /// The interface did not ask for `action`: `max disk 0: a cap must be at least 1 …`.
    public func refusal(of action: Action, in scenario: Scenario) -> String {
        "\(ScenarioPrinter.actionText(action, in: scenario)): \(text)"
    }
}

extension StuckReason {
    /// Why it is stuck, as a clause that stands after a colon or in
    /// parentheses: `it waits for fetch, which never finishes`, `its queue
    /// net is suspended and nothing resumes it`. `waiting`: the run waits
    /// for the user, who may resume the queue (so nothing is said of what
    /// resumes it).
    public func clause(in scenario: Scenario, waiting: Bool = false) -> String {
        let name = scenario.opName
        switch self {
        case .neverPostedFinish:
            return "it never posted isFinished"
        case .mainThreadBlocked:
            return "the main thread, which runs it, is blocked in a wait"
        case .notStartedByHand:
            return "it is in no queue, and nothing is left to call its start()"
        case .queueSuspended(let q):
            return "its queue \(scenario.queueName(q)) is suspended" + (waiting ? "" : " and nothing resumes it")
        case .waitsFor(let dep, let root) where dep == root:
            return "it waits for \(name(dep)), which never finishes"
        case .waitsFor(let dep, let root):
            return "it waits for \(name(dep)), which waits for \(name(root)), which never finishes"
        case .waitsForSlot(let q, let cap, let holders):
            return "it waits for a slot of \(scenario.queueName(q)): "
                + Self.heldSlots(cap: cap, holders: holders, in: scenario)
        case .unknown:
            return "it is unfinished, for a reason the run cannot tell"
        }
    }
}

extension StuckReason {
    /// The clause, and for a chain its root's own reason when that is more
    /// than "never finishes" (a slot, a suspension, the main thread): `it
    /// waits for b1, which waits for a7, which never finishes; a7: it
    /// waits for a slot of dl: 2 of 2 slots held: a3, a5 started and never
    /// finished`. `reasons`: every stuck operation's, as the stall gave them.
    public func clause(
        in scenario: Scenario, waiting: Bool = false, reasons: [OperationID: StuckReason]
    ) -> String {
        let mine = clause(in: scenario, waiting: waiting)
        guard case .waitsFor(_, let root) = self, let rootReason = reasons[root] else { return mine }
        switch rootReason {
        case .neverPostedFinish, .waitsFor, .unknown: return mine
        default: return mine + "; \(scenario.opName(root)): " + rootReason.clause(in: scenario, waiting: waiting)
        }
    }
}

extension StuckReason {
    /// Who holds a full queue's slots, and why: `3 of 3 slots held: ep07,
    /// ep12, ep19 started and never finished` (every name, in scenario
    /// order; more holders than the cap when it was lowered under them).
    public static func heldSlots(cap: Int, holders: [OperationID], in scenario: Scenario) -> String {
        let n = holders.count
        let held =
            n <= cap
            ? "\(n) of \(Spelling.count(cap, "slot")) held"
            : "\(Spelling.count(n, "slot")) held, above its cap of \(cap)"
        let names = holders.map { scenario.opName($0) }.joined(separator: ", ")
        return "\(held): \(names) started and never finished"
    }
}

extension [OperationID: StuckReason] {
    /// The queues a stall waits for someone to resume (never the main
    /// queue, which ignores suspension), in the order of their operations:
    /// empty when nothing a user can resume would let the run go on.
    public func suspendedQueues(in scenario: Scenario) -> [QueueID] {
        var suspended: [QueueID] = []
        for op in keys.sorted() {
            if case .queueSuspended(let q) = self[op]!, scenario.queues.indices.contains(q.index),
                !scenario[queue: q].isMain, !suspended.contains(q)
            {
                suspended.append(q)
            }
        }
        return suspended
    }
}
