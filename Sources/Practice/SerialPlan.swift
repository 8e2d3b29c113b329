import FoundationRules
import ScenarioKit

/// The operations of one serial queue, drawn for a start-order question:
/// priorities, quality of service, a few dependencies, perhaps a barrier
/// and a cancel, and the model that orders them.
struct SerialPlan: Sendable {
    struct Options: Sendable {
        /// The queue's cap while the operations are added (QoS becomes a
        /// bucket only when it is not 1).
        var capAtAdd = 1
        var qosPercent = 0
        var priorityPercent = 60
        /// How many dependencies to draw between the queue's operations.
        var edges = 0...2
        var cancel = false
        var barrier = false
        var asyncPercent = 0
    }

    var ops: [QuestionDraft.Op]
    /// Operations cancelled at 0ms, while the queue is still suspended.
    var cancels: [String]
    var options: Options

    var model: SerialQueueModel { SerialQueueModel(ops: ops, capAtAdd: options.capAtAdd, cancelled: Set(cancels)) }

    var concepts: Set<Concept> {
        var found = Set<Concept>()
        if ops.contains(where: { $0.priority != nil }) { found.insert(.priority) }
        if ops.contains(where: { $0.qos != nil }) { found.insert(.qos) }
        if ops.contains(where: { !$0.after.isEmpty }) { found.insert(.dependencies) }
        if !cancels.isEmpty { found.insert(.cancellation) }
        if ops.contains(where: { $0.body.isBarrier }) { found.insert(.barriers) }
        if ops.contains(where: { if case .async = $0.body { true } else { false } }) { found.insert(.async) }
        return found
    }

    /// `count` operations (and a barrier among them when asked, with at
    /// least two before it and one after) on `queue`.
    init(queue: String, count: Int, options: Options, names: inout NamePool, random r: inout SplitMix64) {
        self.options = options
        var ops: [QuestionDraft.Op] = (0..<count).map { _ in
            let body: QuestionDraft.Body =
                r.chance(options.asyncPercent) ? .async(workLength(&r)) : .work(workLength(&r))
            var op = QuestionDraft.Op(name: names.op(), queue: queue, body: body)
            if r.chance(options.qosPercent) { op.qos = r.pick(QoSLevel.allCases) }
            if r.chance(options.priorityPercent) {
                let level = r.pick(drawnPriorities)
                op.priority = level == .normal && op.qos == nil ? nil : level
            }
            return op
        }
        // A barrier at `cut` splits the queue in two sides; a dependency
        // across it would wait for itself.
        let cut = options.barrier && count >= 3 ? r.int(in: 2...(count - 1)) : count
        let side = { (i: Int) in i < cut ? 0 : 1 }
        let rank = r.shuffled(Array(0..<count))
        let wanted = r.int(in: options.edges)
        var made = 0
        for _ in 0..<(wanted * 6) where made < wanted {
            let i = r.below(count)
            let j = r.below(count)
            guard i != j, side(i) == side(j) else { continue }
            let (later, earlier) = rank[i] > rank[j] ? (i, j) : (j, i)
            guard !ops[later].after.contains(ops[earlier].name) else { continue }
            ops[later].after.append(ops[earlier].name)
            made += 1
        }
        var cancels: [String] = []
        if options.cancel {
            let released = ops.indices.filter { i in ops.contains { $0.after.contains(ops[i].name) } }
            let chosen = released.isEmpty || r.chance(25) ? r.below(count) : r.pick(released)
            cancels.append(ops[chosen].name)
        }
        if cut < count {
            ops.insert(QuestionDraft.Op(name: names.op(), queue: queue, body: .barrier), at: cut)
        }
        self.ops = ops
        self.cancels = cancels
    }
}
