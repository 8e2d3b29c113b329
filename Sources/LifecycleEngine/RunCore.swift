import RunEvents
import Foundation
import ScenarioKit
#if canImport(Glibc)
import Glibc
#endif

/// Where an operation is in its life, as the run has announced it.
enum Phase: UInt8 {
    case notAdded, pending, ready, executing, finished
}

enum OperationKind: UInt8 {
    case work, blocks, async, barrier
}

/// The run's bookkeeping for one operation; only touched under the lock.
struct OperationRecord {
    var phase: Phase = .notAdded
    var cancelled = false
    var heldCancel = false
    var gateStarted = false
    var priority: PriorityLevel = .normal
    var thread: Int16 = -1
    /// Unfinished dependencies as the run derives them (declared ones, and
    /// the barriers of its queue it implicitly waits for).
    var unfinishedDeps: Int32 = 0
    /// Operations whose count drops when this one finishes.
    var dependents: [Int32] = []
    /// Everything this operation waits for (for stall reasons).
    var waitsOn: [Int32] = []
}

struct QueueRecord {
    var cap: Int
    var suspended: Bool
    let isMain: Bool
    let hasBarriers: Bool
    var operationCount = 0
    var executing = 0
    /// Added, announced ready, not started.
    var readyWaiting = 0
    /// Operations added to this queue (kept only when it has barriers).
    var members: [Int32] = []
    /// Barriers added whose block has not begun.
    var pendingBarriers: [Int32] = []

    var effectiveCap: Int { isMain ? 1 : (cap < 0 ? Int.max : cap) }
}

/// The life of a run: `start()` moves it from `created` to `running` (and
/// only then are Foundation's queues and operations built), `stop()` from
/// either to `stopped`, for good. A run stopped before it started never
/// built anything, so stopping it touches no Foundation object.
enum Lifecycle {
    case created, running, stopped
}

/// The engine of one run: real operations and queues, the state derived
/// from their announcements, the event log, the clock and the scheduler.
///
/// Lock order: `actionLock` → `condition` / `schedulerCondition` → `lock`. `lock` is innermost and
/// never held while waiting.
final class RunCore: @unchecked Sendable {
    let scenario: Scenario
    let lock = EngineLock()
    /// Sleepers (simulated work, the scheduler) wait on it; pause, resume,
    /// speed changes, new timers and stop broadcast it.
    let condition = NSCondition()
    /// The scheduler thread waits on it for timed actions and timers.
    let schedulerCondition = NSCondition()
    /// Serialises actions so "announce, then apply" pairs never interleave.
    let actionLock = NSRecursiveLock()
    let endCondition = NSCondition()
    let onEvents: (@Sendable () -> Void)?
    let stallPolicy: StallPolicy
    let onMainThreadWork: (@Sendable (MainThreadWork) -> Void)?

    // Static facts, by operation index.
    let kinds: [OperationKind]
    let queueOf: [Int32]
    let durations: [Double]
    let hasCompletion: [Bool]
    let neverFinishes: [Bool]
    let ignoresCancel: [Bool]
    /// `when` captions by operation index: the moment and the caption's
    /// index. Empty when the scenario has none (the hot path then skips).
    let whenCaptions: [Int: [(moment: CaptionMoment, caption: Int)]]
    /// `at` captions (indices into `scenario.captions`) in the order the
    /// run reaches them.
    let timedCaptions: [Int]

    // Under `lock`.
    var records: [OperationRecord]
    var queues: [QueueRecord]
    var log: [LifecycleEvent] = []
    var taken = 0
    var mailboxSignalled = false
    var seq = 0
    var clock: ScenarioClock
    /// Where the run is in its life (see `Lifecycle`).
    var lifecycle = Lifecycle.created
    /// No more events are recorded (the run ended or was stopped).
    var closed = false
    var endSignalPending = false
    /// Lesson mode: a caption pauses scenario time.
    var pausesAtCaptions: Bool
    /// `seq` of the last `.stall` announced (`StallPolicy.waitsForUser`),
    /// so that the same stall is not announced twice; -1 before any.
    var stallSeq = -1
    var unfinishedOps: Int
    /// Sync operations (and barrier blocks) doing simulated work.
    var workingCount = 0
    /// Async operations executing that a timer will finish.
    var asyncTimersPending = 0
    var timedActionsLeft: Int
    var completionsOwed = 0
    var completionsRun = 0
    var threads: [(pthread_t, Int16)] = []
    var nextThreadNumber: Int16 = 1
    var observation = ObserverRegistry()
    var pendingCallbacks: [() -> Void] = []

    // Set once in `build()`.
    var ops: [Operation] = []
    var gates: [Operation?] = []
    var realQueues: [OperationQueue] = []

    // Under `schedulerCondition`.
    var timers = TimerHeap()
    var nextTimedAction = 0
    var endSignalled = false

    init(scenario: Scenario, options: RunOptions, onEvents: (@Sendable () -> Void)?) {
        self.scenario = scenario
        self.onEvents = onEvents
        stallPolicy = options.stallPolicy
        onMainThreadWork = options.onMainThreadWork
        let specs = scenario.operations
        kinds = specs.map {
            switch $0.body {
            case .work: .work
            case .blocks: .blocks
            case .async: .async
            case .barrier: .barrier
            }
        }
        queueOf = specs.map { Int32($0.queue.index) }
        durations = specs.map { $0.body.totalDuration.seconds }
        hasCompletion = specs.map { $0.completion != nil && !$0.isBarrier }
        neverFinishes = specs.map { $0.neverFinishes && $0.body.isAsync }
        ignoresCancel = specs.map { $0.ignoresCancel }
        var whens: [Int: [(moment: CaptionMoment, caption: Int)]] = [:]
        var timed: [Int] = []
        for (index, caption) in scenario.captions.enumerated() {
            switch caption.trigger {
            case .when(let op, let moment): whens[op.index, default: []].append((moment, index))
            case .at: timed.append(index)
            }
        }
        whenCaptions = whens
        timedCaptions = timed.sorted {
            let (a, b) = (scenario.captions[$0].time!, scenario.captions[$1].time!)
            return a != b ? a < b : $0 < $1
        }
        pausesAtCaptions = options.pausesAtCaptions
        records = [OperationRecord](repeating: OperationRecord(), count: specs.count)
        var barrierQueues = Set<Int>()
        for s in specs where s.isBarrier { barrierQueues.insert(s.queue.index) }
        queues = scenario.queues.enumerated().map { i, q in
            QueueRecord(
                cap: q.isMain ? 1 : max(q.cap.foundationValue == 0 ? 1 : q.cap.foundationValue, -1),
                suspended: q.isMain ? false : q.startsSuspended, isMain: q.isMain,
                hasBarriers: barrierQueues.contains(i))
        }
        clock = ScenarioClock(speed: options.speed, paused: options.startsPaused)
        unfinishedOps = specs.count
        timedActionsLeft = scenario.actions.count
        // Roughly six events an operation; reserving avoids copying a
        // large log while operations wait for the lock.
        log.reserveCapacity(min(specs.count * 6 + scenario.queues.count * 4 + 64, 4_000_000))
    }

    // MARK: - Lock and recording

    @inline(__always) func lockedNow() -> Double { clock.now(monotonicNanoseconds()) }

    /// Releases the lock, then tells the consumer the mailbox has events
    /// (only when it went from empty to non-empty), wakes `waitForEnd`,
    /// and runs observer callbacks collected under the lock.
    @inline(__always) func unlockAndNotify() {
        var notify = false
        if !mailboxSignalled && log.count > taken && onEvents != nil {
            mailboxSignalled = true
            notify = true
        }
        let signalEnd = endSignalPending
        endSignalPending = false
        var callbacks: [() -> Void] = []
        if !pendingCallbacks.isEmpty { swap(&callbacks, &pendingCallbacks) }
        lock.unlock()
        if notify { onEvents?() }
        for callback in callbacks { callback() }
        if signalEnd {
            endCondition.lock()
            endSignalled = true
            endCondition.broadcast()
            endCondition.unlock()
            wakeSleepers()
        }
    }

    @inline(__always) func emit(_ kind: LifecycleEvent.Kind, _ t: Double, thread: ThreadTag? = nil) {
        if closed { return }
        seq &+= 1
        log.append(LifecycleEvent(seq: seq, time: t, kind: kind, thread: thread))
        if observation.count > 0 { observation.collect(kind, seq: seq, time: t, into: &pendingCallbacks) }
        if !whenCaptions.isEmpty, case .operation(let op, let key, _, .bool(true)) = kind {
            captionsLocked(for: op.index, key, t)
        }
    }

    /// The `when` captions of operation `i` whose moment `key` becoming
    /// true is, in file order.
    func captionsLocked(for i: Int, _ key: OperationKey, _ t: Double) {
        guard let captions = whenCaptions[i] else { return }
        let moment: CaptionMoment
        switch key {
        case .isReady: moment = .ready
        case .isExecuting: moment = .starts
        case .isFinished: moment = .finishes
        case .isCancelled: moment = .cancelled
        case .queuePriority: return
        }
        for entry in captions where entry.moment == moment { captionLocked(entry.caption, t) }
    }

    /// Announces caption `index`; in lesson mode, scenario time pauses here.
    func captionLocked(_ index: Int, _ t: Double) {
        let pause = pausesAtCaptions && !clock.isPaused
        if pause { clock.pause(monotonicNanoseconds()) }
        emit(.caption(index, paused: pause), t)
    }

    @inline(__always) func emitOp(_ i: Int, _ key: OperationKey, _ old: Bool?, _ new: Bool, _ t: Double) {
        emit(.operation(OperationID(i), key, old: old.map(KeyValue.bool), new: .bool(new)), t)
    }

    func threadTagLocked() -> Int16 {
        let me = pthread_self()
        for (thread, tag) in threads where pthread_equal(thread, me) != 0 { return tag }
        let tag: Int16
        if Thread.isMainThread {
            tag = 0
        } else {
            tag = nextThreadNumber
            nextThreadNumber += 1
        }
        threads.append((me, tag))
        return tag
    }

    // MARK: - Announcements (all under the lock)

    /// Adds operation `i` to the run's model: derives its readiness
    /// (including implicit waits for barriers of its queue) and announces
    /// its initial `isReady` and the queue's `operationCount`.
    func addLocked(_ i: Int, _ t: Double) {
        let q = Int(queueOf[i])
        if kinds[i] == .barrier {
            var preds: [Int32] = []
            for m in queues[q].members where records[Int(m)].phase != .finished {
                preds.append(m)
                records[Int(m)].dependents.append(Int32(i))
            }
            queues[q].members = preds
            records[i].unfinishedDeps = records[i].cancelled ? 0 : Int32(preds.count)
            records[i].waitsOn = preds
            queues[q].pendingBarriers.removeAll { records[Int($0)].phase.rawValue >= Phase.executing.rawValue }
            queues[q].pendingBarriers.append(Int32(i))
        } else if queues[q].hasBarriers {
            if !records[i].cancelled {
                for b in queues[q].pendingBarriers
                where records[Int(b)].phase.rawValue < Phase.executing.rawValue {
                    records[i].unfinishedDeps += 1
                    records[Int(b)].dependents.append(Int32(i))
                    records[i].waitsOn.append(b)
                }
            }
        }
        if queues[q].hasBarriers { queues[q].members.append(Int32(i)) }
        let ready = records[i].unfinishedDeps == 0
        records[i].phase = ready ? .ready : .pending
        if ready { queues[q].readyWaiting += 1 }
        emitOp(i, .isReady, nil, ready, t)
        if kinds[i] != .barrier {
            let n = queues[q].operationCount
            queues[q].operationCount = n + 1
            emit(.queue(QueueID(q), .operationCount, old: .int(n), new: .int(n + 1)), t)
        }
    }

    /// Marks operation `i` executing and announces it.
    func beginLocked(_ i: Int, _ t: Double) {
        let q = Int(queueOf[i])
        switch records[i].phase {
        case .pending:
            // The engine started it although the run still counted a
            // barrier it does not really wait for (see DECISIONS in the
            // report): it is ready in the engine's eyes, say so first.
            records[i].unfinishedDeps = 0
            emitOp(i, .isReady, false, true, t)
        case .ready:
            queues[q].readyWaiting -= 1
        default:
            break
        }
        records[i].phase = .executing
        let thread = threadTagLocked()
        records[i].thread = thread
        queues[q].executing += 1
        if kinds[i] == .async {
            if !neverFinishes[i] { asyncTimersPending += 1 }
        } else {
            workingCount += 1
        }
        emit(
            .operation(OperationID(i), .isExecuting, old: .bool(false), new: .bool(true)), t,
            thread: ThreadTag(Int(thread)))
    }

    /// Announces the finish of operation `i` and releases its dependents'
    /// readiness; then checks whether the run completed.
    func finishLocked(_ i: Int, _ t: Double) {
        let q = Int(queueOf[i])
        let phase = records[i].phase
        if phase == .finished { return }
        if phase == .executing {
            emitOp(i, .isExecuting, true, false, t)
            queues[q].executing -= 1
            if kinds[i] == .async {
                if !neverFinishes[i] { asyncTimersPending -= 1 }
            } else {
                workingCount -= 1
            }
        } else if phase == .ready {
            queues[q].readyWaiting -= 1
        }
        records[i].phase = .finished
        emitOp(i, .isFinished, false, true, t)
        if kinds[i] != .barrier && phase != .notAdded {
            let n = queues[q].operationCount
            queues[q].operationCount = n - 1
            emit(.queue(QueueID(q), .operationCount, old: .int(n), new: .int(n - 1)), t)
        }
        unfinishedOps -= 1
        if hasCompletion[i] { completionsOwed += 1 }
        let dependents = records[i].dependents
        if !dependents.isEmpty {
            records[i].dependents = []
            for d32 in dependents {
                let d = Int(d32)
                guard records[d].unfinishedDeps > 0 else { continue }
                records[d].unfinishedDeps -= 1
                if records[d].unfinishedDeps == 0 && records[d].phase == .pending {
                    records[d].phase = .ready
                    queues[Int(queueOf[d])].readyWaiting += 1
                    emitOp(d, .isReady, false, true, t)
                }
            }
        }
        checkCompletedLocked(t)
    }

    /// A cancel of an operation that has not started: announce
    /// `isCancelled`, then `isReady` if it was not ready (Foundation's
    /// `cancel()` zeroes its unfinished dependencies).
    func cancelBeforeStartLocked(_ i: Int, _ t: Double) {
        records[i].cancelled = true
        emitOp(i, .isCancelled, false, true, t)
        records[i].unfinishedDeps = 0
        if records[i].phase == .pending {
            records[i].phase = .ready
            queues[Int(queueOf[i])].readyWaiting += 1
            emitOp(i, .isReady, false, true, t)
        }
    }

    func checkCompletedLocked(_ t: Double) {
        if !closed && lifecycle == .running && unfinishedOps == 0 && timedActionsLeft == 0
            && completionsRun == completionsOwed
        {
            endLocked(.completed, t)
        }
    }

    func endLocked(_ outcome: RunOutcome, _ t: Double) {
        emit(.end(outcome), t)
        closed = true
        endSignalPending = true
    }

    // MARK: - Hooks called by the operations

    /// `start()` of a sync operation found it cancelled before it began:
    /// Foundation's `start()` will finish it without `main()`; announce
    /// that first. (The cancel that set the window bit announced under
    /// this lock, so this comes after its `isCancelled`.)
    func syncCancelledBeforeStart(_ i: Int) {
        lock.lock()
        if records[i].phase != .finished && records[i].phase != .executing {
            finishLocked(i, lockedNow())
        }
        unlockAndNotify()
    }

    /// Returns the scenario time at which the work began.
    func syncMainBegins(_ i: Int, _ op: EngineCancellable) -> Double {
        lock.lock()
        let t = lockedNow()
        beginLocked(i, t)
        if records[i].heldCancel {
            // A cancel that landed between our look at the flag and the
            // engine's: applied now, as a cancel of a running operation.
            records[i].heldCancel = false
            records[i].cancelled = true
            emitOp(i, .isCancelled, false, true, t)
            op.engineCancel()
        }
        unlockAndNotify()
        mainThreadWork(.began(OperationID(i)))
        return t
    }

    func syncMainEnds(_ i: Int) {
        lock.lock()
        finishLocked(i, lockedNow())
        unlockAndNotify()
        mainThreadWork(.ended(OperationID(i)))
    }

    /// Tells `onMainThreadWork`, when the work is on the main thread.
    func mainThreadWork(_ work: MainThreadWork) {
        if let onMainThreadWork, Thread.isMainThread { onMainThreadWork(work) }
    }

    func blockPhase(_ i: Int, _ n: Int, _ phase: BlockPhase) -> Double {
        lock.lock()
        let t = lockedNow()
        emit(.block(OperationID(i), index: n, phase: phase, thread: ThreadTag(Int(threadTagLocked()))), t)
        unlockAndNotify()
        return t
    }

    func asyncStart(_ i: Int, _ op: AsyncOperation) {
        lock.lock()
        let t = lockedNow()
        var postExecuting = false
        var postFinished = false
        var due: Double? = nil
        if lifecycle == .stopped {
            // The run was stopped: let it go at once, unannounced.
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            postFinished = true
        } else if records[i].phase == .finished {
            // Nothing: already finished (cannot happen through the queue).
        } else if records[i].cancelled {
            finishLocked(i, t)
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            postFinished = true
        } else {
            beginLocked(i, t)
            op.state.store(AsyncOperation.executing, ordering: .releasing)
            postExecuting = true
            if !neverFinishes[i] {
                if durations[i] <= 0 {
                    finishLocked(i, t)
                    op.state.store(AsyncOperation.finished, ordering: .releasing)
                    postFinished = true
                } else {
                    due = t + durations[i]
                }
            }
        }
        unlockAndNotify()
        op.post(executing: postExecuting, finished: postFinished)
        if let due { addTimer(due: due, op: i) }
    }

    func asyncFinish(_ i: Int) {
        guard let op = opObject(i) as? AsyncOperation else { return }
        lock.lock()
        var post = false
        if records[i].phase == .executing {
            finishLocked(i, lockedNow())
            op.state.store(AsyncOperation.finished, ordering: .releasing)
            post = true
        }
        unlockAndNotify()
        if post { op.post(executing: true, finished: true) }
    }

    /// Every `cancel()` of an operation of the run comes here (from an
    /// action, from `cancelAllOperations()`, from stop).
    func cancel(_ i: Int, _ op: EngineCancellable) {
        lock.lock()
        if lifecycle == .stopped {
            lock.unlock()
            op.engineCancel()
            return
        }
        let t = lockedNow()
        var postAsync: AsyncOperation? = nil
        let r = records[i]
        if r.phase == .finished || r.cancelled || r.heldCancel {
            // Nothing to do: Foundation's cancel() would be a no-op or a repeat.
        } else if kinds[i] == .async {
            if r.phase == .executing {
                records[i].cancelled = true
                emitOp(i, .isCancelled, false, true, t)
                op.engineCancel()
                if !neverFinishes[i] && !ignoresCancel[i], let a = op as? AsyncOperation {
                    finishLocked(i, t)
                    a.state.store(AsyncOperation.finished, ordering: .releasing)
                    postAsync = a
                }
            } else {
                cancelBeforeStartLocked(i, t)
                op.engineCancel()
            }
        } else if r.phase == .executing {
            records[i].cancelled = true
            emitOp(i, .isCancelled, false, true, t)
            op.engineCancel()
        } else if let window = op as? StartWindow, !window.claimCancelBeforeStart() {
            // start() got in first: hold the cancel until main() begins.
            records[i].heldCancel = true
        } else {
            cancelBeforeStartLocked(i, t)
            op.engineCancel()
        }
        unlockAndNotify()
        postAsync?.post(executing: true, finished: true)
    }

    func completionRan(_ i: Int) {
        lock.lock()
        emit(.completion(OperationID(i), thread: ThreadTag(Int(threadTagLocked()))), lockedNow())
        unlockAndNotify()
        for action in scenario.operations[i].completion ?? [] {
            perform(action, origin: .completion(OperationID(i)))
        }
        lock.lock()
        completionsRun += 1
        checkCompletedLocked(lockedNow())
        unlockAndNotify()
    }

    /// The block given to `addBarrierBlock`.
    func runBarrier(_ i: Int) {
        lock.lock()
        if lifecycle == .stopped || records[i].phase == .finished {
            // Cancelled by cancel-all before its block began: the run
            // already announced its finish and opened its gate.
            lock.unlock()
            return
        }
        let t = lockedNow()
        beginLocked(i, t)
        unlockAndNotify()
        mainThreadWork(.began(OperationID(i)))
        if durations[i] > 0 {
            simulate(until: t + durations[i], op: nil, cooperative: false)
        }
        lock.lock()
        finishLocked(i, lockedNow())
        let gate = takeGateLocked(i)
        unlockAndNotify()
        mainThreadWork(.ended(OperationID(i)))
        gate?.start()
    }

    /// The hidden gate of barrier `i`, if it has not been started yet.
    func takeGateLocked(_ i: Int) -> Operation? {
        if records[i].gateStarted { return nil }
        records[i].gateStarted = true
        return gates[i]
    }

    func opObject(_ i: Int) -> Operation? {
        lock.lock()
        defer { lock.unlock() }
        return i < ops.count ? ops[i] : nil
    }

    // MARK: - Simulated work and timers

    /// Sleeps, in slices of at most 10 ms real, until scenario time reaches
    /// `end`; returns early when `op` is cancelled (if cooperative) or the
    /// run stops. Holds while paused (waits on the condition, no polling).
    func simulate(until end: Double, op: Operation?, cooperative: Bool) {
        condition.lock()
        while true {
            if cooperative, let op, op.isCancelled { break }
            lock.lock()
            let isStopped = lifecycle == .stopped
            let t = lockedNow()
            let paused = clock.isStopped
            let speed = clock.speed
            lock.unlock()
            if isStopped || t >= end { break }
            if paused && Thread.isMainThread {
                // Holding work that runs on the main thread (an operation of
                // OperationQueue.main) would hold the thread that reads the
                // keys, including the one that resumes: the screen would
                // freeze for good. Such work runs out its remaining time in
                // real time at the current speed instead.
                condition.unlock()
                finishInRealTime((end - t) / speed, op: op, cooperative: cooperative)
                return
            }
            if paused {
                condition.wait()
                continue
            }
            let real = min(0.01, (end - t) / speed)
            _ = condition.wait(until: Date(timeIntervalSinceNow: max(real, 0.0001)))
        }
        condition.unlock()
    }

    /// Sleeps `seconds` of real time in slices of 10 ms, returning early on
    /// a cancel (if cooperative) or when the run stops.
    private func finishInRealTime(_ seconds: Double, op: Operation?, cooperative: Bool) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if cooperative, let op, op.isCancelled { return }
            lock.lock()
            let isStopped = lifecycle == .stopped
            lock.unlock()
            if isStopped { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func addTimer(due: Double, op: Int) {
        schedulerCondition.lock()
        timers.push(due: due, op: Int32(op))
        schedulerCondition.signal()
        schedulerCondition.unlock()
    }

    /// Wakes simulated work and the scheduler (pause, resume, speed, stop, end).
    func wakeSleepers() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
        schedulerCondition.lock()
        schedulerCondition.broadcast()
        schedulerCondition.unlock()
    }
}
