/// The barrier rule of `addBarrierBlock`, in one place: on one queue, a
/// barrier waits for everything added to the queue before it, and
/// everything added after it waits for the barrier.
///
/// Everything that draws or explains the rule asks this file: the graph
/// view (`G`), the dot and Mermaid exports, and the critical path (`H`,
/// `opscope why`), which names the prerequisite a barrier edge brings. So
/// the edges `G` draws are the ones `H` follows.
///
/// The edges are the rule's transitive reduction along each queue's add
/// order: everything added since the previous barrier (or, when nothing
/// was, that barrier) into a barrier, and a barrier into everything added
/// after it up to the next barrier (which gets its own edge). Their
/// closure is the whole rule (a test holds them to `BarrierRule.orders`),
/// and a queue of n operations and k barriers has at most n + k edges,
/// never n × k.
public enum BarrierRule {
    /// Whether the rule orders `earlier` before `later`, given that
    /// `earlier` was added to its queue first: both on one queue, and one
    /// of them a barrier.
    public static func orders(_ earlier: OperationID, before later: OperationID, in scenario: Scenario) -> Bool {
        guard earlier != later else { return false }
        let (a, b) = (scenario[operation: earlier], scenario[operation: later])
        return a.queue == b.queue && (a.isBarrier || b.isBarrier)
    }

    /// The rule's edges along `addOrder` (operations in the order they
    /// reach their queues), each from what waits first to what waits for
    /// it, in that order.
    public static func edges(addOrder: [OperationID], in scenario: Scenario) -> [Scenario.BarrierEdge] {
        guard scenario.operations.contains(where: \.isBarrier) else { return [] }
        var lastBarrier = [OperationID?](repeating: nil, count: scenario.queues.count)
        var sinceBarrier = [[OperationID]](repeating: [], count: scenario.queues.count)
        var edges: [Scenario.BarrierEdge] = []
        for op in addOrder {
            let spec = scenario[operation: op]
            let q = spec.queue.index
            guard scenario.queues.indices.contains(q) else { continue }
            if spec.isBarrier {
                let before = sinceBarrier[q].isEmpty ? lastBarrier[q].map { [$0] } ?? [] : sinceBarrier[q]
                for earlier in before where orders(earlier, before: op, in: scenario) {
                    edges.append(Scenario.BarrierEdge(from: earlier, to: op, barrier: op))
                }
                lastBarrier[q] = op
                sinceBarrier[q] = []
            } else {
                if let barrier = lastBarrier[q], orders(barrier, before: op, in: scenario) {
                    edges.append(Scenario.BarrierEdge(from: barrier, to: op, barrier: barrier))
                }
                sinceBarrier[q].append(op)
            }
        }
        return edges
    }
}

extension Scenario {
    /// An order the barrier rule of a queue makes: `to` waits for `from`
    /// because `barrier` (one of the two) is a barrier of their queue.
    public struct BarrierEdge: Sendable, Hashable {
        public var from: OperationID
        public var to: OperationID
        /// The barrier that makes the order: `from` or `to`.
        public var barrier: OperationID
    }

    /// The order operations and barriers reach their queues: those added
    /// as the run begins in file order, then those of `add` actions in the
    /// actions' order (by time; equal times in file order), as the engine
    /// adds them. Operations started by hand are in no queue and left out.
    public var addOrder: [OperationID] {
        let byHand = startedByHand
        var order = addedAtStart
        for timed in actions {
            for op in timed.action.addedOperations where contains(op) && !byHand.contains(op) { order.append(op) }
        }
        return order
    }

    /// The barrier rule's edges along the file's add order
    /// (`BarrierRule.edges`): what each barrier waits for, and what waits
    /// for it.
    public var barrierEdges: [BarrierEdge] {
        BarrierRule.edges(addOrder: addOrder, in: self)
    }

    /// Per operation, what the barrier rule makes it wait for directly
    /// (the `from` of `barrierEdges` into it).
    public var barrierWaits: [[OperationID]] {
        var waits = [[OperationID]](repeating: [], count: operations.count)
        for edge in barrierEdges { waits[edge.to.index].append(edge.from) }
        return waits
    }
}
