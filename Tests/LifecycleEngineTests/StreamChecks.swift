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
        var executing = [Int](repeating: 0, count: scenario.queues.count)
        var cap = scenario.queues.map { $0.isMain ? 1 : -1 }
        var allowance = cap
        for (k, e) in events.enumerated() {
            if e.seq <= lastSeq { out.append("seq \(e.seq) not increasing") }
            if e.time < lastTime { out.append("seq \(e.seq): time goes back") }
            lastSeq = e.seq
            lastTime = e.time
            if case .end = e.kind, k != events.count - 1 { out.append("end is not last") }
            switch e.kind {
            case .queue(let q, .maxConcurrentOperationCount, _, let new):
                let value = new.intValue ?? -1
                cap[q.index] = value
                let limit = value < 0 ? Int.max : value
                if limit >= (allowance[q.index] < 0 ? Int.max : allowance[q.index]) || executing[q.index] <= limit {
                    allowance[q.index] = value
                }
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
                        if readyAt[i] == nil { out.append("\(scenario.operations[i].name) executing before ready") }
                        if cancelledAt[i] != nil {
                            out.append("\(scenario.operations[i].name) cancelled before start, then executing")
                        }
                        executing[q] += 1
                        let limit = allowance[q] < 0 ? Int.max : allowance[q]
                        if executing[q] > limit {
                            out.append(
                                "seq \(e.seq): queue \(scenario.queues[q].name) runs \(executing[q]) > cap \(allowance[q])"
                            )
                        }
                    } else {
                        if execAt[i] == nil || execStopped[i] {
                            out.append("\(scenario.operations[i].name) stops twice")
                        }
                        execStopped[i] = true
                        executing[q] -= 1
                        let c = cap[q] < 0 ? Int.max : cap[q]
                        if executing[q] <= c { allowance[q] = cap[q] }
                    }
                case .isFinished:
                    finishCount[i] += 1
                    finishedAt[i] = e.seq
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
