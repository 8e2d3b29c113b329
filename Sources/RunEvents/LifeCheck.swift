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

    /// What the stream has said of one operation so far.
    private struct Life: Sendable {
        var flags: UInt8 = 0
        /// Blocks started and not yet returned.
        var openBlocks: Int32 = 0

        static let added: UInt8 = 1
        static let dispatched: UInt8 = 2
        static let started: UInt8 = 4
        static let executing: UInt8 = 8
        static let finished: UInt8 = 16
        static let cancelled: UInt8 = 32
        static let completionRan: UInt8 = 64
        /// Work its `main()` left running has started and not ended.
        static let leftoverRunning: UInt8 = 128

        func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
        mutating func set(_ flag: UInt8, _ on: Bool = true) { flags = on ? flags | flag : flags & ~flag }
    }

    private let scenario: Scenario
    private var lives: [Life]
    private var finishedCount = 0
    private let mostThreads: Int
    private var endSeq: Int?
    /// The wait the main thread is in, if any.
    private var mainWait: Action?
    /// The operation whose `start()` the main thread is in, if any.
    private var handStart: OperationID?
    /// By operation index: started by hand (empty when none is).
    private let byHand: [Bool]

    public init(scenario: Scenario) {
        self.scenario = scenario
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
            let life = lives[op.index]
            let called = isByHand(op) ? handStart == op : life.has(Life.added)
            guard called, life.has(Life.cancelled), !life.has(Life.started), !life.has(Life.finished)
            else {
                return Fault(
                    message: "\(quoted(op)) was stranded by its start() though it was not a cancelled operation "
                        + "waiting to start", place: .kind)
            }
            // Its start() was called: it never starts again.
            lives[op.index].set(Life.started)
            return nil
        case .dispatched(let op):
            guard scenario.contains(op) else { return nil }
            if isByHand(op) {
                lives[op.index].set(Life.dispatched)
                return Fault(
                    message: "\(quoted(op)) was dispatched, but it is started by hand: no queue holds it", place: .kind)
            }
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

    // MARK: - Work left running

    private mutating func visitLeftover(_ op: OperationID, _ phase: BlockPhase) -> Fault? {
        let life = lives[op.index]
        switch phase {
        case .started:
            guard life.has(Life.executing), !life.has(Life.leftoverRunning) else {
                return Fault(
                    message: "\(quoted(op)) left work running while it was not executing, or twice", place: .phase)
            }
            lives[op.index].set(Life.leftoverRunning)
        case .returned:
            guard life.has(Life.leftoverRunning) else {
                return Fault(message: "the work \(quoted(op)) left running ended before it began", place: .phase)
            }
            lives[op.index].set(Life.leftoverRunning, false)
        }
        return nil
    }

    // MARK: - The main thread's waits

    private mutating func visitWait(_ action: Action, _ phase: BlockPhase) -> Fault? {
        let text = "'" + ScenarioPrinter.actionText(action, in: scenario) + "'"
        switch phase {
        case .started:
            defer { mainWait = action }
            guard let mainWait else { return nil }
            return Fault(
                message: "the main thread began \(text) while it was still blocked in "
                    + "'\(ScenarioPrinter.actionText(mainWait, in: scenario))'", place: .phase)
        case .returned:
            defer { mainWait = nil }
            guard mainWait == action else {
                return Fault(message: "the main thread returned from \(text), which it had not begun", place: .phase)
            }
            if case .wait(let op) = action, scenario.contains(op), !lives[op.index].has(Life.finished) {
                return Fault(
                    message: "the main thread returned from \(text) before \(quoted(op)) finished", place: .phase)
            }
            return nil
        }
    }

    // MARK: - Operations started by hand

    @inline(__always) private func isByHand(_ op: OperationID) -> Bool { !byHand.isEmpty && byHand[op.index] }

    /// The rules of an operation started by hand that the others do not
    /// have: never added; executing, or finished without having run, only
    /// inside a `start()` the main thread called for it.
    private func handFault(_ op: OperationID, _ key: OperationKey, initial: Bool, _ new: KeyValue) -> Fault? {
        let life = lives[op.index]
        if key == .isReady && initial {
            return Fault(message: "\(quoted(op)) was added to a queue, but it is started by hand", place: .old)
        }
        let begins = key == .isExecuting && new == .bool(true)
        let skips = key == .isFinished && new == .bool(true) && !life.has(Life.started) && !life.has(Life.finished)
        guard (begins || skips) && handStart != op else { return nil }
        let what = begins ? "began executing" : "finished without running"
        return Fault(
            message: "\(quoted(op)) \(what) outside a start() of it, and it is started by hand", place: .key)
    }

    private mutating func visitStartCall(_ op: OperationID, _ phase: BlockPhase) -> Fault? {
        let call = startText(op)
        switch phase {
        case .started:
            defer { handStart = op }
            if let handStart {
                return Fault(
                    message: "the main thread called \(call) while it was still in \(startText(handStart))",
                    place: .phase)
            }
            if let mainWait {
                return Fault(
                    message: "the main thread called \(call) while it was still blocked in "
                        + "'\(ScenarioPrinter.actionText(mainWait, in: scenario))'", place: .phase)
            }
            if !isByHand(op) {
                return Fault(message: "\(call) was called by hand, but its queue starts it", place: .kind)
            }
            return nil
        case .returned:
            defer { handStart = nil }
            guard handStart == op else {
                return Fault(message: "the main thread returned from \(call), which it had not called", place: .phase)
            }
            let life = lives[op.index]
            if !scenario[operation: op].body.isAsync, !life.has(Life.finished) {
                return Fault(
                    message: "the main thread returned from \(call) before \(quoted(op)) finished: a synchronous "
                        + "operation's start() returns once it finished", place: .phase)
            }
            return nil
        }
    }

    // MARK: - Operations

    private mutating func visitOperation(
        _ op: OperationID, _ key: OperationKey, initial: Bool, _ new: KeyValue
    ) -> Fault? {
        guard key != .queuePriority, let value = new.boolValue else { return nil }
        let life = lives[op.index]
        let fault = operationFault(op, key, initial: initial, value, life)
        var after = life
        switch (key, value) {
        case (.isReady, _) where initial: after.set(Life.added)
        case (.isCancelled, true): after.set(Life.cancelled)
        case (.isExecuting, true):
            after.set(Life.started)
            after.set(Life.executing)
        case (.isExecuting, false): after.set(Life.executing, false)
        case (.isFinished, true):
            after.set(Life.finished)
            after.set(Life.executing, false)
            if !life.has(Life.finished) { finishedCount += 1 }
        default: break
        }
        lives[op.index] = after
        return fault
    }

    /// The first rule a change of an operation's flag breaks, by what its
    /// life was before it. (Its words are made only for a fault: this runs
    /// on every line of a recording.)
    private func operationFault(
        _ op: OperationID, _ key: OperationKey, initial: Bool, _ value: Bool, _ life: Life
    ) -> Fault? {
        var name: String { quoted(op) }
        if key == .isReady && initial {
            guard life.has(Life.added) else { return nil }
            return Fault(message: "\(name) was added to its queue twice", place: .old)
        }
        if life.has(Life.finished) {
            let said =
                key == .isFinished && value ? "isFinished true twice" : "\(key.rawValue) \(value) after it finished"
            return Fault(message: "\(name) announced \(said)", place: key == .isFinished ? .new : .key)
        }
        if key == .isCancelled {
            guard !value && life.has(Life.cancelled) else { return nil }
            return Fault(
                message: "\(name) announced isCancelled false after true: a cancel is never undone", place: .new)
        }
        guard life.has(Life.added) || isByHand(op) else {
            return Fault(
                message: "\(name) announced \(key.rawValue) \(value) before it was added to its queue "
                    + "(its first isReady, with a null old value)", place: .key)
        }
        switch (key, value) {
        case (.isExecuting, true) where life.has(Life.started):
            return Fault(message: "\(name) announced isExecuting true twice: an operation runs once", place: .new)
        case (.isExecuting, false) where !life.has(Life.executing):
            let when = life.has(Life.started) ? "after it had stopped" : "before it started"
            return Fault(message: "\(name) announced isExecuting false \(when)", place: .new)
        case (.isFinished, true) where life.has(Life.executing):
            return Fault(
                message: "\(name) announced isFinished true while it was executing (its isExecuting false "
                    + "comes first)", place: .new)
        case (.isFinished, false):
            return Fault(message: "\(name) announced isFinished false: isFinished only ever turns true", place: .new)
        default:
            return nil
        }
    }

    private mutating func visitDispatch(_ op: OperationID) -> Fault? {
        var name: String { quoted(op) }
        let life = lives[op.index]
        lives[op.index].set(Life.dispatched)
        if !life.has(Life.added) {
            return Fault(message: "\(name) was dispatched before it was added to its queue", place: .kind)
        }
        if life.has(Life.finished) { return Fault(message: "\(name) was dispatched after it finished", place: .kind) }
        if life.has(Life.started) { return Fault(message: "\(name) was dispatched after it started", place: .kind) }
        if life.has(Life.dispatched) { return Fault(message: "\(name) was dispatched twice", place: .kind) }
        return nil
    }

    private mutating func visitBlock(_ op: OperationID, _ index: Int, _ phase: BlockPhase) -> Fault? {
        var name: String { quoted(op) }
        var what: String { "block \(index) of \(name) \(phase.rawValue)" }
        let life = lives[op.index]
        switch phase {
        case .started: lives[op.index].openBlocks = life.openBlocks &+ 1
        case .returned: lives[op.index].openBlocks = max(0, life.openBlocks - 1)
        }
        if !life.has(Life.started) {
            return Fault(message: "\(what) before \(name) started executing", place: .kind)
        }
        if !life.has(Life.executing) {
            let when = life.has(Life.finished) ? "finished" : "stopped executing"
            return Fault(message: "\(what) after \(name) \(when)", place: .kind)
        }
        if phase == .returned && life.openBlocks == 0 {
            return Fault(message: "\(what), but no block of \(name) had started and not returned", place: .phase)
        }
        return nil
    }

    private mutating func visitCompletion(_ op: OperationID) -> Fault? {
        var name: String { quoted(op) }
        let life = lives[op.index]
        lives[op.index].set(Life.completionRan)
        if !life.has(Life.finished) {
            return Fault(message: "the completion block of \(name) ran before \(name) finished", place: .kind)
        }
        if life.has(Life.completionRan) {
            return Fault(message: "the completion block of \(name) ran twice", place: .kind)
        }
        return nil
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
        for op in stuck.keys.sorted() where scenario.contains(op) && lives[op.index].has(Life.finished) {
            return Fault(message: "\(what) names \(quoted(op)) as stuck but it finished", place: .stuck)
        }
        return nil
    }

    private func unfinishedAtCompletion() -> Fault? {
        let unfinished = lives.count - finishedCount
        guard unfinished > 0, let first = lives.firstIndex(where: { !$0.has(Life.finished) }) else { return nil }
        let more = unfinished > 1 ? " (nor \(unfinished - 1) more)" : ""
        return Fault(
            message: "the run ended completed but \(quoted(OperationID(first))) had not finished\(more)",
            place: .status)
    }

    private func quoted(_ op: OperationID) -> String { "'\(scenario.opName(op))'" }

    /// `'fetch.start()'`.
    private func startText(_ op: OperationID) -> String { "'\(scenario.opName(op)).start()'" }
}
