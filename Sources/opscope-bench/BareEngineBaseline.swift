import CommandSupport
import Foundation
import ScenarioKit

/// The same graph as a scenario, as plain `BlockOperation`s with empty
/// blocks on plain `OperationQueue`s, unobserved: what the benchmark
/// compares an observed run against.
///
/// Same queues (caps; never suspended), same operations in the same
/// insertion order (one `addOperation` each, as the run does), same
/// dependencies (a dependency on a barrier goes through a gate started at
/// the end of the barrier block, as in the run). Durations, actions and
/// completion blocks are ignored: it measures the engine's own cost.
enum BareEngineBaseline {
    /// Builds, runs and waits for the graph; returns the real seconds
    /// taken, construction included (as for a `ScenarioRun` from `init`).
    static func run(scenario: Scenario) -> Double {
        let begin = DispatchTime.now().uptimeNanoseconds
        let queues = scenario.queues.map { spec -> OperationQueue in
            let q = OperationQueue()
            let cap = spec.isMain ? 1 : spec.cap.foundationValue
            q.maxConcurrentOperationCount = cap == 0 ? 1 : max(cap, -1)
            return q
        }
        var ops: [Operation] = []
        ops.reserveCapacity(scenario.operations.count)
        for spec in scenario.operations {
            if spec.isBarrier {
                ops.append(Operation())  // the gate
            } else {
                let op = BlockOperation {}
                if let p = spec.priority { op.queuePriority = p.foundation }
                if let qos = spec.qos { op.qualityOfService = qos.foundation }
                ops.append(op)
            }
        }
        for (i, spec) in scenario.operations.enumerated() where !spec.isBarrier {
            var seen = Set<Int>()
            for dep in spec.dependencies where dep.index != i && seen.insert(dep.index).inserted {
                ops[i].addDependency(ops[dep.index])
            }
        }
        let gatesToWait = ops.enumerated().filter { scenario.operations[$0.offset].isBarrier }.map(\.element)
        for (i, spec) in scenario.operations.enumerated() {
            let queue = queues[spec.queue.index]
            if spec.isBarrier {
                let gate = ops[i]
                queue.addBarrierBlock { gate.start() }
            } else {
                queue.addOperation(ops[i])
            }
        }
        for q in queues { q.waitUntilAllOperationsAreFinished() }
        for gate in gatesToWait { gate.waitUntilFinished() }
        return Double(DispatchTime.now().uptimeNanoseconds - begin) * 1e-9
    }
}
