import FoundationRules
import RunEvents
import ScenarioKit
import TextKit

/// The state `InvariantChecker` keeps while it walks a stream, one event at
/// a time. Kept apart from the public entry point so each rule reads as one
/// small method.
struct InvariantWalk {
    /// What the walk keeps of one operation besides its life, which
    /// `LifeCheck` keeps (`OperationLife`).
    private struct Track {
        /// Position in the order operations were added; nil before the add.
        var addOrder: Int?
        var isReady = false
        /// Barrier ordering: barriers added before it on its queue, or (for
        /// a barrier) what was in its queue when it was added.
        var implicitDependencies: [OperationID] = []
    }

    let scenario: Scenario
    /// The stream announces every dispatch (`dispatched` events; recordings
    /// of format version 1 have none): a start or a finish without running
    /// then needs one before it.
    let observesDispatch: Bool
    private(set) var violations: [InvariantViolation] = []
    /// The rules of each operation's life, shared with the recording
    /// decoder, and the life itself; the walk adds the engine's rules of
    /// order and caps.
    private var life: LifeCheck
    private var ops: [Track]
    private var queues: [CapAllowance]
    private var lastSeq: Int?
    private var lastTime: Double?
    private var addCount = 0
    /// Per queue, in add order: the operations added so far, and the
    /// barriers among them. Kept so an add costs O(barriers), not O(all
    /// operations): streams of 100,000 operations are checked too.
    private var addedByQueue: [[Int]]
    private var barriersByQueue: [[Int]]
    private let queueOf: [Int]
    private let isBarrier: [Bool]
    /// Started by hand, in no queue: never dispatched, and no slot of its
    /// queue's cap (empty when no operation is).
    private let byHand: [Bool]

    init(scenario: Scenario, observesDispatch: Bool = true) {
        self.scenario = scenario
        self.observesDispatch = observesDispatch
        life = LifeCheck(scenario: scenario, observesDispatch: observesDispatch)
        ops = Array(repeating: Track(), count: scenario.operations.count)
        queues = scenario.queues.map(CapAllowance.init(spec:))
        addedByQueue = Array(repeating: [], count: scenario.queues.count)
        barriersByQueue = Array(repeating: [], count: scenario.queues.count)
        queueOf = scenario.operations.map(\.queue.index)
        isBarrier = scenario.operations.map(\.isBarrier)
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : scenario.operations.indices.map { hand.contains(OperationID($0)) }
    }

    mutating func visit(_ event: LifecycleEvent) {
        checkStamp(event)
        // The life before the event: the walk's rules read it.
        var before = OperationLife()
        switch event.kind {
        case .operation(let op, _, _, _), .dispatched(let op):
            if scenario.contains(op) { before = life.life(of: op) }
        default:
            break
        }
        if let fault = life.visit(event) { report(event.seq, fault.message) }
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            guard scenario.contains(op) else {
                return report(event.seq, "event for unknown operation #\(op.index)")
            }
            visitOperation(event.seq, op, key, old: old, new: new, before: before)
        case .dispatched(let op):
            guard scenario.contains(op) else {
                return report(event.seq, "event for unknown operation #\(op.index)")
            }
            visitDispatch(event.seq, op, before: before)
        case .queue(let q, let key, _, let new):
            guard scenario.contains(q) else {
                return report(event.seq, "event for unknown queue #\(q.index)")
            }
            if key == .maxConcurrentOperationCount, let value = new.intValue {
                queues[q.index].setCap(value, dispatchable: dispatchable(on: q))
            }
        case .block(let op, _, _, _), .completion(let op, _):
            guard scenario.contains(op) else {
                return report(event.seq, "event for unknown operation #\(op.index)")
            }
        case .action, .mainThreadWait, .startCall, .leftover, .stranded, .stall, .caption, .end:
            break
        }
    }

    private func isByHand(_ op: OperationID) -> Bool { !byHand.isEmpty && byHand[op.index] }

    // MARK: - Rules

    private mutating func checkStamp(_ event: LifecycleEvent) {
        if let lastSeq, event.seq <= lastSeq {
            report(event.seq, "seq \(event.seq) does not increase on seq \(lastSeq)")
        }
        if let lastTime, event.time < lastTime {
            report(
                event.seq,
                "time goes back from \(Spelling.seconds(lastTime)) to \(Spelling.seconds(event.time))")
        }
        lastSeq = event.seq
        lastTime = event.time
    }

    private mutating func visitOperation(
        _ seq: Int, _ op: OperationID, _ key: OperationKey, old: KeyValue?, new: KeyValue, before: OperationLife
    ) {
        // What comes after the finish is `LifeCheck`'s to report.
        if before.has(.finished) && key != .queuePriority { return }
        guard let value = new.boolValue else { return }
        switch key {
        case .isReady: visitReady(seq, op, initial: old == nil, value, before: before)
        case .isExecuting where value: visitStart(seq, op)
        case .isFinished where value && !isByHand(op): queues[queue(of: op)].finish(op)
        default: break
        }
    }

    private mutating func visitReady(
        _ seq: Int, _ op: OperationID, initial: Bool, _ value: Bool, before: OperationLife
    ) {
        let name = scenario.opName(op)
        if initial && ops[op.index].addOrder == nil { recordAdd(op) }
        let wasReady = ops[op.index].isReady
        ops[op.index].isReady = value
        guard ops[op.index].addOrder != nil else { return }
        if value && (!wasReady || initial) && !before.has(.cancelled) {
            for dep in unfinished(Array(scenario[operation: op].dependencies)) {
                report(seq, "\(name) became ready before its dependency \(scenario.opName(dep)) finished")
            }
        }
        if !value && wasReady && before.has(.started) {
            report(seq, "\(name) stopped being ready after it started")
        }
    }

    /// Its `isExecuting` went true: what it waits for finished first, and
    /// (in a queue) it holds a slot. Starting twice, after a cancel before
    /// the start, or with no dispatch are `LifeCheck`'s.
    private mutating func visitStart(_ seq: Int, _ op: OperationID) {
        let name = scenario.opName(op)
        let deps = scenario[operation: op].dependencies + ops[op.index].implicitDependencies
        for dep in unfinished(deps) {
            let what = scenario[operation: dep].isBarrier ? "the barrier" : "its dependency"
            report(seq, "\(name) started executing before \(what) \(scenario.opName(dep)) finished")
        }
        // Started by hand, it was never dispatched and takes no slot.
        if !isByHand(op) { takeSlot(seq, op) }
    }

    /// A dispatch comes once (`LifeCheck`), once what it waits for
    /// finished (or it was cancelled), and it takes a slot of its queue's
    /// cap.
    private mutating func visitDispatch(_ seq: Int, _ op: OperationID, before: OperationLife) {
        let name = scenario.opName(op)
        // One started by hand is never dispatched: `LifeCheck` says so.
        if isByHand(op) { return }
        if !before.has(.cancelled) {
            // A barrier really depends on what its queue held; anything
            // else on the barriers of its queue still waiting at its add.
            let implicit = ops[op.index].implicitDependencies
            let certain = isBarrier[op.index] ? implicit : []
            let barriers = isBarrier[op.index] ? [] : implicit.filter { !mayHaveBeenDispatched($0) }
            for dep in unfinished(scenario[operation: op].dependencies + certain + barriers) {
                let what = scenario[operation: dep].isBarrier ? "the barrier" : "its dependency"
                report(seq, "\(name) was dispatched before \(what) \(scenario.opName(dep)) finished")
            }
        }
        takeSlot(seq, op)
    }

    /// `op` takes a slot of its queue (at its dispatch, or its start in a
    /// stream without dispatches): never more than the cap allows.
    private mutating func takeSlot(_ seq: Int, _ op: OperationID) {
        let q = queue(of: op)
        guard queues[q].take(op) else { return }
        let holding = queues[q].holding
        report(
            seq,
            "queue \(scenario.queueName(QueueID(q))) has \(holding.count) operations dispatched or executing "
                + "(\(scenario.opNames(holding))), more than its cap allows (\(queues[q].allowed ?? 0))")
    }

    // MARK: - Helpers

    /// Numbers the add and records the barrier ordering Foundation imposes:
    /// a barrier waits for everything unfinished in its queue, and what is
    /// added after it waits for it.
    private mutating func recordAdd(_ op: OperationID) {
        ops[op.index].addOrder = addCount
        addCount += 1
        let q = queueOf[op.index]
        // A barrier waits for everything unfinished in its queue; anything
        // else waits for the unfinished barriers of its queue.
        let candidates = isBarrier[op.index] ? addedByQueue[q] : barriersByQueue[q]
        ops[op.index].implicitDependencies = candidates.map(OperationID.init).filter { !isFinished($0) }
        addedByQueue[q].append(op.index)
        if isBarrier[op.index] { barriersByQueue[q].append(op.index) }
    }

    /// Whether the stream allows that `barrier` was already dispatched: all
    /// it waits for has finished. Foundation makes an operation depend only
    /// on the barriers of its queue not yet dispatched when it is really
    /// added; one added later is dispatched at once and waits on the
    /// dispatch queue until the barrier's block returns (docs/SCENARIO-
    /// LANGUAGE.md, `barrier`; `.ci/probes` "barrier"). An add is announced before Foundation has it, so
    /// only a barrier still waiting for something at the dispatch was
    /// certainly not dispatched at the add.
    private func mayHaveBeenDispatched(_ barrier: OperationID) -> Bool {
        unfinished(scenario[operation: barrier].dependencies + ops[barrier.index].implicitDependencies).isEmpty
    }

    private func unfinished(_ deps: [OperationID]) -> [OperationID] {
        deps.filter { scenario.contains($0) && !isFinished($0) }
    }

    private func isFinished(_ op: OperationID) -> Bool { life.life(of: op).has(.finished) }

    private func queue(of op: OperationID) -> Int { queueOf[op.index] }

    /// Ready operations of `q` that hold no slot yet: what an unlimited
    /// queue may already have dispatched without the stream saying so.
    private func dispatchable(on q: QueueID) -> Int {
        scenario.operations.indices.filter { i in
            let stages = life.life(of: OperationID(i))
            return scenario.operations[i].queue == q && ops[i].addOrder != nil && ops[i].isReady
                && !stages.has(.finished) && !stages.has(.started) && !stages.has(.dispatched)
        }.count
    }

    private mutating func report(_ seq: Int, _ message: String) {
        violations.append(InvariantViolation(seq: seq, message: message))
    }
}
