import FoundationRules
import ScenarioKit

/// Checks, event by event, that a stream tells a life each operation could
/// have had, and numbers its queues could have shown: the rules a
/// recording must keep to be read (`RecordingDecoder`), and the first of
/// the rules `InvariantChecker` holds a live run to. What the views draw
/// relies on them: a stop without a start would count a queue's running
/// operations below zero, a finish before the add would draw a lane from
/// nowhere.
///
/// Every operation's life goes: added (its `isReady` with no old value),
/// then dispatched once, then `isExecuting` true once and false once, then
/// `isFinished` true once; a cancel may come at any moment before the
/// finish (also before the add), and never goes back; `queuePriority` may
/// change at any time. Besides:
/// - a block of a `blocks` operation starts and returns while its
///   operation executes, and returns only while one of them has started
///   and not returned;
/// - a completion block runs once, after its operation finished;
/// - a thread's number is at most the threads a run of the scenario can
///   number (`mostThreads`: threads are numbered from 1 as the run first
///   sees them, and each ran a start, a completion block or a block);
/// - `operationCount` is never negative; a cap
///   (`maxConcurrentOperationCount`) is −1 (the system decides) or at
///   least 1: Foundation stops the program below −1, and the language
///   refuses 0, which would stall a queue without a word;
/// - the main thread's waits do not overlap (a wait returns before the
///   next starts, and returns only after it started); no operation of
///   the main queue starts while the main thread waits, and
///   `waitUntilFinished()` returns only once its operation finished;
/// - an operation started by hand (a `start` action names it) is never
///   added or dispatched: it starts (or, cancelled, finishes without
///   running) only inside a `start()` the main thread called for it; those
///   calls overlap neither each other nor a wait, no operation of the main
///   queue starts during one, and the call of a synchronous operation
///   returns only once it finished;
/// - a stall or a stalled end names only unfinished operations as stuck;
///   a completed end comes once every operation of the scenario finished
///   (the engine ends a run completed only then), and nothing follows an
///   end.
///
/// Pure, and a few bytes per operation: a recording of millions of
/// operations is checked as it is read.
public struct LifeCheck: Sendable {
    /// The first rule an event broke: its message (lower-case, names in
    /// quotes), and which of the event's values shows it, for a
    /// recording's column.
    public struct Fault: Sendable, Hashable {
        public var message: String
        package var place: Place
    }

    /// Where in an event line a fault shows.
    package enum Place: Sendable, Hashable {
        case kind, key, old, new, phase, thread, status, stuck
    }

    /// What the stream has said of one operation so far: its life
    /// (`OperationLife`, the rules of which are Foundation's), its blocks
    /// and the work its `main()` left running.
    struct Life: Sendable {
        var op = OperationLife()
        /// Blocks started and not yet returned.
        var openBlocks: Int32 = 0
        /// Work its `main()` left running has started and not ended.
        var leftoverRunning = false

        func has(_ stage: OperationLife.Stages) -> Bool { op.has(stage) }
    }

    let scenario: Scenario
    var lives: [Life]
    private var finishedCount = 0
    private let mostThreads: Int
    private var endSeq: Int?
    /// The wait the main thread is in, if any.
    var mainWait: Action?
    /// The operation whose `start()` the main thread is in, if any.
    var handStart: OperationID?
    /// By operation index: started by hand (empty when none is).
    let byHand: [Bool]

    /// The stream announces every dispatch (`dispatched` events; recordings
    /// of format version 1 have none): starting, or finishing without
    /// running, in a queue then needs one first.
    private let observesDispatch: Bool

    public init(scenario: Scenario, observesDispatch: Bool = false) {
        self.scenario = scenario
        self.observesDispatch = observesDispatch
        lives = Array(repeating: Life(), count: scenario.operations.count)
        mostThreads = Self.mostThreads(in: scenario)
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : scenario.operations.indices.map { hand.contains(OperationID($0)) }
    }

    /// The most threads other than the main one a run of `scenario` can
    /// number: a thread is numbered when it first runs something, and
    /// there is one start and one completion block per operation, and one
    /// run per execution block.
    public static func mostThreads(in scenario: Scenario) -> Int {
        var blocks = 0
        for spec in scenario.operations {
            if case .blocks(let durations) = spec.body { blocks += durations.count }
        }
        return 2 * scenario.operations.count + blocks
    }

    /// The first rule `event` breaks, nil when it keeps them all. The event
    /// is taken into account either way, so that a caller who goes on past
    /// a fault (`InvariantChecker`) hears of each mistake once, not of
    /// every consequence. Operations and queues the scenario does not have
    /// are left to the caller.
    public mutating func visit(_ event: LifecycleEvent) -> Fault? {
        if let endSeq {
            return Fault(message: "an event after the end of the run (the end was seq \(endSeq))", place: .kind)
        }
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            guard scenario.contains(op) else { return nil }
            let fault = event.thread.flatMap(see)
            if key == .isExecuting, new == .bool(true), !isByHand(op),
                scenario[queue: scenario[operation: op].queue].isMain
            {
                if let mainWait {
                    return Fault(
                        message: "\(quoted(op)) started on the main queue while the main thread was blocked in "
                            + "'\(ScenarioPrinter.actionText(mainWait, in: scenario))'", place: .new)
                }
                if let handStart {
                    return Fault(
                        message: "\(quoted(op)) started on the main queue while the main thread was in "
                            + "\(startText(handStart))", place: .new)
                }
            }
            if isByHand(op), let fault = handFault(op, key, initial: old == nil, new) {
                _ = visitOperation(op, key, initial: old == nil, new)
                return fault
            }
            return visitOperation(op, key, initial: old == nil, new) ?? fault
        case .mainThreadWait(let action, let phase):
            if let handStart, phase == .started {
                mainWait = action
                return Fault(
                    message: "the main thread began '\(ScenarioPrinter.actionText(action, in: scenario))' while it "
                        + "was still in \(startText(handStart))", place: .phase)
            }
            return visitWait(action, phase)
        case .startCall(let op, let phase):
            guard scenario.contains(op) else { return nil }
            return visitStartCall(op, phase)
        case .leftover(let op, let phase):
            guard scenario.contains(op) else { return nil }
            return visitLeftover(op, phase)
        case .stranded(let op):
            guard scenario.contains(op) else { return nil }
            let called = isByHand(op) ? handStart == op : lives[op.index].has(.added)
            // Its start() was called: it never starts again.
            guard lives[op.index].op.take(.stranded) == nil, called else {
                return fault(.strandedNotWaiting, op, nil, true)
            }
            return nil
        case .dispatched(let op):
            guard scenario.contains(op) else { return nil }
            return visitDispatch(op)
        case .block(let op, let index, let phase, let thread):
            guard scenario.contains(op) else { return nil }
            let fault = see(thread)
            return visitBlock(op, index, phase) ?? fault
        case .completion(let op, let thread):
            guard scenario.contains(op) else { return nil }
            let fault = see(thread)
            return visitCompletion(op) ?? fault
        case .queue(let q, let key, let old, let new):
            guard scenario.contains(q) else { return nil }
            return visitQueue(q, key, old: old, new: new)
        case .stall(let stuck):
            return stuckFinished(stuck, by: "the stall")
        case .end(let outcome):
            endSeq = event.seq
            switch outcome {
            case .stalled(let stuck): return stuckFinished(stuck, by: "the stalled end")
            case .completed: return unfinishedAtCompletion()
            }
        case .action, .caption:
            return nil
        }
    }

    // MARK: - Operations

    private mutating func visitOperation(
        _ op: OperationID, _ key: OperationKey, initial: Bool, _ new: KeyValue
    ) -> Fault? {
        guard key != .queuePriority, let value = new.boolValue else { return nil }
        let step: OperationLife.Step
        switch key {
        case .isReady: step = initial ? .added : .ready(value)
        case .isExecuting: step = .executing(value)
        case .isFinished: step = .finished(value)
        case .isCancelled: step = .cancelled(value)
        case .queuePriority: return nil
        }
        let wasFinished = lives[op.index].has(.finished)
        // A barrier cancelled while it waits finishes with no dispatch.
        let dispatchObserved = observesDispatch && !(key == .isFinished && scenario[operation: op].isBarrier)
        var broken = lives[op.index].op.take(step, inAQueue: !isByHand(op), dispatchObserved: dispatchObserved)
        // The user's class decides for itself whether a cancel before its
        // start keeps it from executing: that it went executing anyway is
        // the bug its run shows, not a stream that cannot be.
        if broken == .executedThoughCancelled, scenario[operation: op].body.customClass != nil { broken = nil }
        if !wasFinished && lives[op.index].has(.finished) { finishedCount += 1 }
        return broken.map { fault($0, op, key, value) }
    }

    private mutating func visitDispatch(_ op: OperationID) -> Fault? {
        lives[op.index].op.take(.dispatched, inAQueue: !isByHand(op)).map { fault($0, op, nil, true) }
    }

    /// The words of a broken rule of an operation's life. (Made only for a
    /// fault: the check runs on every line of a recording.)
    private func fault(_ broken: OperationLife.Broken, _ op: OperationID, _ key: OperationKey?, _ value: Bool) -> Fault
    {
        let name = quoted(op)
        let flag = "\(key?.rawValue ?? "") \(value)"
        switch broken {
        case .addedTwice: return Fault(message: "\(name) was added to its queue twice", place: .old)
        case .finishedTwice: return Fault(message: "\(name) announced isFinished true twice", place: .new)
        case .afterFinish:
            return Fault(
                message: "\(name) announced \(flag) after it finished", place: key == .isFinished ? .new : .key)
        case .cancelUndone:
            return Fault(
                message: "\(name) announced isCancelled false after true: a cancel is never undone", place: .new)
        case .beforeAdd:
            return Fault(
                message: "\(name) announced \(flag) before it was added to its queue "
                    + "(its first isReady, with a null old value)", place: .key)
        case .executingTwice:
            return Fault(message: "\(name) announced isExecuting true twice: an operation runs once", place: .new)
        case .stoppedNotExecuting(let started):
            let when = started ? "after it had stopped" : "before it started"
            return Fault(message: "\(name) announced isExecuting false \(when)", place: .new)
        case .finishedWhileExecuting:
            return Fault(
                message: "\(name) announced isFinished true while it was executing (its isExecuting false "
                    + "comes first)", place: .new)
        case .finishUndone:
            return Fault(message: "\(name) announced isFinished false: isFinished only ever turns true", place: .new)
        case .executedThoughCancelled:
            return Fault(
                message: "\(name) started executing although it was cancelled before it started", place: .new)
        case .notDispatched(finishing: false):
            return Fault(message: "\(name) started executing before it was dispatched", place: .new)
        case .notDispatched(finishing: true):
            return Fault(
                message: "\(name) finished without running although it was never dispatched", place: .new)
        case .dispatchedByHand:
            return Fault(
                message: "\(name) was dispatched, but it is started by hand: no queue holds it", place: .kind)
        case .dispatchedBeforeAdd:
            return Fault(message: "\(name) was dispatched before it was added to its queue", place: .kind)
        case .dispatchedAfterFinish: return Fault(message: "\(name) was dispatched after it finished", place: .kind)
        case .dispatchedAfterStart: return Fault(message: "\(name) was dispatched after it started", place: .kind)
        case .dispatchedTwice: return Fault(message: "\(name) was dispatched twice", place: .kind)
        case .completionBeforeFinish:
            return Fault(message: "the completion block of \(name) ran before \(name) finished", place: .kind)
        case .completionTwice: return Fault(message: "the completion block of \(name) ran twice", place: .kind)
        case .strandedNotWaiting:
            return Fault(
                message: "\(name) was stranded by its start() though it was not a cancelled operation waiting to "
                    + "start", place: .kind)
        }
    }

    private mutating func visitBlock(_ op: OperationID, _ index: Int, _ phase: BlockPhase) -> Fault? {
        var name: String { quoted(op) }
        var what: String { "block \(index) of \(name) \(phase.rawValue)" }
        let life = lives[op.index]
        switch phase {
        case .started: lives[op.index].openBlocks = life.openBlocks &+ 1
        case .returned: lives[op.index].openBlocks = max(0, life.openBlocks - 1)
        }
        if !life.has(.started) {
            return Fault(message: "\(what) before \(name) started executing", place: .kind)
        }
        if !life.has(.executing) {
            let when = life.has(.finished) ? "finished" : "stopped executing"
            return Fault(message: "\(what) after \(name) \(when)", place: .kind)
        }
        if phase == .returned && life.openBlocks == 0 {
            return Fault(message: "\(what), but no block of \(name) had started and not returned", place: .phase)
        }
        return nil
    }

    private mutating func visitCompletion(_ op: OperationID) -> Fault? {
        lives[op.index].op.take(.completionRan).map { fault($0, op, nil, true) }
    }

    /// A thread's number is within the threads a run can see.
    private func see(_ thread: ThreadTag) -> Fault? {
        guard thread.number > mostThreads else { return nil }
        return Fault(
            message: "thread \(thread) is past the threads a run of this scenario numbers: at most "
                + "\(mostThreads) besides the main one, one for each start, completion block and execution block",
            place: .thread)
    }

    // MARK: - Queues and the end

    private func visitQueue(_ q: QueueID, _ key: QueueKey, old: KeyValue?, new: KeyValue) -> Fault? {
        func fault(_ value: KeyValue?, _ place: Place) -> Fault? {
            guard let n = value?.intValue else { return nil }
            var name: String { "'\(scenario.queueName(q))'" }
            switch key {
            case .operationCount where n < 0:
                return Fault(message: "\(name) has an operationCount of \(n): a count is never negative", place: place)
            case .maxConcurrentOperationCount where n == 0 || n < -1:
                return Fault(
                    message: "\(name) has a cap of \(n): a cap is -1 (the system decides) or 1 and more", place: place)
            default:
                return nil
            }
        }
        return fault(old, .old) ?? fault(new, .new)
    }

    private func stuckFinished(_ stuck: [OperationID: StuckReason], by what: String) -> Fault? {
        for op in stuck.keys.sorted() where scenario.contains(op) && lives[op.index].has(.finished) {
            return Fault(message: "\(what) names \(quoted(op)) as stuck but it finished", place: .stuck)
        }
        return nil
    }

    private func unfinishedAtCompletion() -> Fault? {
        let unfinished = lives.count - finishedCount
        guard unfinished > 0, let first = lives.firstIndex(where: { !$0.has(.finished) }) else { return nil }
        let more = unfinished > 1 ? " (nor \(unfinished - 1) more)" : ""
        return Fault(
            message: "the run ended completed but \(quoted(OperationID(first))) had not finished\(more)",
            place: .status)
    }

    /// What the stream has said of `op`'s life so far.
    public func life(of op: OperationID) -> OperationLife { lives[op.index].op }

    func quoted(_ op: OperationID) -> String { "'\(scenario.opName(op))'" }

    /// `'fetch.start()'`.
    func startText(_ op: OperationID) -> String { "'\(scenario.opName(op)).start()'" }
}
