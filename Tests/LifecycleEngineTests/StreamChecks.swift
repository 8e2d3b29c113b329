import LifecycleEngine
import RunEvents
import ScenarioKit

/// The stream's invariants (DESIGN.md "Causal order", the brief's list),
/// checked independently of the Board module's checker.
enum StreamChecks {
    static func violations(_ events: [LifecycleEvent], _ scenario: Scenario) -> [String] {
        var out: [String] = []
        var lastSeq = 0
        var lastTime = -Double.infinity
        let n = scenario.operations.count
        var readyAt = [Int?](repeating: nil, count: n)
        var execAt = [Int?](repeating: nil, count: n)
        var execCount = [Int](repeating: 0, count: n)
        var finishedAt = [Int?](repeating: nil, count: n)
        var finishCount = [Int](repeating: 0, count: n)
        var cancelledAt = [Int?](repeating: nil, count: n)
        var execStopped = [Bool](repeating: false, count: n)
        var dispatchedAt = [Int?](repeating: nil, count: n)
        // Started by hand: in no queue, never added or dispatched, no slot.
        let byHand = scenario.startedByHand
        // A queue's slots: an operation holds one from its dispatch until
        // its finish. After a lowering from a to b, up to max(b, a −
        // finishes since) may hold one (what was dispatched still starts).
        var holding = [Int](repeating: 0, count: scenario.queues.count)
        var cap = scenario.queues.map { $0.isMain ? 1 : -1 }
        var overhang = [Int?](repeating: nil, count: scenario.queues.count)
        var finishesSince = [Int](repeating: 0, count: scenario.queues.count)
        func allowed(_ q: Int) -> Int {
            if scenario.queues[q].isMain { return 1 }
            guard cap[q] >= 0 else { return Int.max }
            return max(cap[q], (overhang[q] ?? 0) - finishesSince[q])
        }
        func take(_ i: Int, _ seq: Int) {
            let q = scenario.operations[i].queue.index
            holding[q] += 1
            if holding[q] > allowed(q) {
                out.append("seq \(seq): queue \(scenario.queues[q].name) holds \(holding[q]) > \(allowed(q)) allowed")
            }
        }
        func readyNotDispatched(_ q: Int) -> Int {
            (0..<n).filter {
                scenario.operations[$0].queue.index == q && readyAt[$0] != nil && dispatchedAt[$0] == nil
                    && finishedAt[$0] == nil
            }.count
        }
        for (k, e) in events.enumerated() {
            if e.seq <= lastSeq { out.append("seq \(e.seq) not increasing") }
            if e.time < lastTime { out.append("seq \(e.seq): time goes back") }
            lastSeq = e.seq
            lastTime = e.time
            if case .end = e.kind, k != events.count - 1 { out.append("end is not last") }
            switch e.kind {
            case .queue(let q, .maxConcurrentOperationCount, _, let new):
                let before = allowed(q.index)
                overhang[q.index] = before == Int.max ? holding[q.index] + readyNotDispatched(q.index) : before
                finishesSince[q.index] = 0
                cap[q.index] = new.intValue ?? -1
            case .dispatched(let id):
                let i = id.index
                if dispatchedAt[i] != nil {
                    out.append("seq \(e.seq): \(scenario.operations[i].name) dispatched twice")
                }
                if execAt[i] != nil || finishedAt[i] != nil {
                    out.append("seq \(e.seq): \(scenario.operations[i].name) dispatched after it started or finished")
                }
                if readyAt[i] == nil { out.append("\(scenario.operations[i].name) dispatched before ready") }
                dispatchedAt[i] = e.seq
                take(i, e.seq)
            case .operation(let id, let key, let old, let new):
                let i = id.index
                if finishedAt[i] != nil && key != .queuePriority {
                    out.append("seq \(e.seq): \(key) of finished op \(scenario.operations[i].name)")
                }
                let q = scenario.operations[i].queue.index
                switch key {
                case .isReady:
                    if new.boolValue == true && readyAt[i] == nil { readyAt[i] = e.seq }
                    if old == nil && execAt[i] != nil { out.append("seq \(e.seq): added after executing") }
                case .isExecuting:
                    if new.boolValue == true {
                        execCount[i] += 1
                        if execCount[i] > 1 { out.append("\(scenario.operations[i].name) started twice") }
                        execAt[i] = e.seq
                        if cancelledAt[i] != nil {
                            out.append("\(scenario.operations[i].name) cancelled before start, then executing")
                        }
                        if byHand.contains(id) {
                            if readyAt[i] != nil || dispatchedAt[i] != nil {
                                out.append("\(scenario.operations[i].name) started by hand, but added to a queue")
                            }
                            break
                        }
                        if readyAt[i] == nil { out.append("\(scenario.operations[i].name) executing before ready") }
                        if dispatchedAt[i] == nil {
                            out.append("\(scenario.operations[i].name) executing before it was dispatched")
                            dispatchedAt[i] = e.seq
                            take(i, e.seq)
                        }
                    } else {
                        if execAt[i] == nil || execStopped[i] {
                            out.append("\(scenario.operations[i].name) stops twice")
                        }
                        execStopped[i] = true
                    }
                case .isFinished:
                    finishCount[i] += 1
                    finishedAt[i] = e.seq
                    if dispatchedAt[i] != nil && finishCount[i] == 1 {
                        holding[q] -= 1
                        finishesSince[q] += 1
                    }
                    if execAt[i] != nil && !execStopped[i] {
                        out.append("\(scenario.operations[i].name) finished while executing")
                    }
                case .isCancelled:
                    if execAt[i] == nil { cancelledAt[i] = e.seq }
                case .queuePriority:
                    break
                }
            default:
                break
            }
        }
        for i in 0..<n {
            let name = scenario.operations[i].name
            if finishCount[i] > 1 { out.append("\(name) finished \(finishCount[i]) times") }
            for d in scenario.operations[i].dependencies {
                let dn = scenario.operations[d.index].name
                if let x = execAt[i], (finishedAt[d.index] ?? Int.max) > x {
                    out.append("\(name) executing before its dependency \(dn) finished")
                }
                if let r = readyAt[i], cancelledAt[i].map({ $0 > r }) ?? true,
                    (finishedAt[d.index] ?? Int.max) > r
                {
                    out.append("\(name) ready before its dependency \(dn) finished")
                }
            }
        }
        if case .end(.completed)? = events.last?.kind {
            for i in 0..<n where finishedAt[i] == nil {
                out.append("completed but \(scenario.operations[i].name) did not finish")
            }
        }
        return out
    }
}

/// Queries on a recorded stream, by operation name.
struct Stream {
    let events: [LifecycleEvent]
    let scenario: Scenario

    func id(_ name: String) -> Int { scenario.operationID(named: name)!.index }

    func seq(_ name: String, _ key: OperationKey, _ value: Bool = true) -> Int? {
        let i = id(name)
        for e in events {
            if case .operation(let id, key, let old, .bool(value)) = e.kind, id.index == i,
                old != nil || key == .isReady
            {
                return e.seq
            }
        }
        return nil
    }

    func time(_ name: String, _ key: OperationKey, _ value: Bool = true) -> Double? {
        guard let s = seq(name, key, value) else { return nil }
        return events.first { $0.seq == s }?.time
    }

    func started(_ name: String) -> Int? { seq(name, .isExecuting) }
    func finished(_ name: String) -> Int? { seq(name, .isFinished) }
    func cancelled(_ name: String) -> Bool { seq(name, .isCancelled) != nil }

    /// Names in the order they posted isExecuting true.
    var startOrder: [String] {
        events.compactMap {
            if case .operation(let id, .isExecuting, _, .bool(true)) = $0.kind {
                return scenario.operations[id.index].name
            }
            return nil
        }
    }

    var outcome: RunOutcome? {
        if case .end(let o)? = events.last?.kind { return o }
        return nil
    }

    func actionSeq(_ index: Int) -> Int? {
        events.first {
            if case .action(_, .timed(index), _) = $0.kind { return true }
            return false
        }?.seq
    }

    /// The largest number of `queue`'s operations executing at once.
    func peak(_ queue: String) -> Int {
        let q = scenario.queueID(named: queue)!
        var now = 0
        var peak = 0
        for e in events {
            if case .operation(let id, .isExecuting, _, .bool(let v)) = e.kind,
                scenario.operations[id.index].queue == q
            {
                now += v ? 1 : -1
                peak = max(peak, now)
            }
        }
        return peak
    }
}
