import FoundationRules
import ScenarioKit
import TextKit

/// Start-order questions. Every one is a serial queue that can dispatch
/// only once all its operations are in it, so each choice sees every ready
/// operation at once and is made by the rule alone (`SerialQueueModel`):
/// level 1 by a single operation without dependencies added last, levels
/// 2 and 3 by a queue that starts suspended and resumes at 0ms.
enum StartOrderRecipes {
    /// Priorities and dependencies on one serial queue. Only `root` has no
    /// dependency and it is added last: until then nothing is ready, so
    /// nothing starts while the others are added.
    static func level1(_ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        let queue = names.queue()
        let count = r.int(in: 5...7)
        let root = names.op()
        let others = (1..<count).map { _ in names.op() }
        var after: [String: [String]] = [:]
        for (i, name) in others.enumerated() {
            guard i > 0, r.chance(45) else {
                after[name] = [root]
                continue
            }
            var dependencies = [others[r.below(i)]]
            let extra = others[r.below(i)]
            if r.chance(25), !dependencies.contains(extra) { dependencies.append(extra) }
            after[name] = dependencies
        }
        let ops = (r.shuffled(others) + [root]).map { name in
            let level = r.pick(drawnPriorities)
            return QuestionDraft.Op(
                name: name, queue: queue, body: .work(workLength(&r)), after: after[name] ?? [],
                priority: level == .normal ? nil : level)
        }
        let model = SerialQueueModel(ops: ops, capAtAdd: 1, cancelled: [])
        guard let order = model.startOrder(),
            SerialPlan.decidedByPriority(model)
        else { return nil }

        var draft = QuestionDraft(title: "Priorities and dependencies on a serial queue")
        draft.queues = [QuestionDraft.Queue(name: queue, options: ["serial"])]
        draft.ops = ops
        draft.question = startOrderQuestion(ops)
        draft.notes = [
            "Only \(root) has no dependency, and it is added last: until then no operation is ready, so none "
                + "starts while the others are being added. From then on, each time \(queue) is free it starts the "
                + "ready operation with the highest queuePriority, the one added first among equals."
        ]
        draft.notes += model.explanation()
        draft.notes.append(QuestionDraft.answerNote(order.joined(separator: ", ")))
        return Candidate(
            draft: draft, prediction: .startOrder(order), concepts: [.dependencies, .priority],
            confirmSpeed: Candidate.timeFreeSpeed)
    }

    /// Quality of service, an explicit priority, a cap lowered to 1, a
    /// cancel before the start and a cancelled dependency, on one queue
    /// that starts suspended and resumes at 0ms.
    static func level2(_ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        let queue = names.queue()
        let cap = r.pick([1, 2, 2, 3])
        let options = SerialPlan.Options(
            capAtAdd: cap, qosPercent: 65, priorityPercent: 30, edges: 0...2, cancel: r.chance(55))
        let plan = SerialPlan(queue: queue, count: r.int(in: 5...7), options: options, names: &names, random: &r)
        let model = plan.model
        guard plan.ops.contains(where: { $0.qos != nil && $0.priority == nil }),
            let order = model.startOrder(),
            SerialPlan.decidedByPriority(model)
        else { return nil }

        var draft = QuestionDraft(title: "Quality of service, priority and a resumed queue")
        draft.queues = [
            QuestionDraft.Queue(
                name: queue, options: cap == 1 ? ["serial", "suspended"] : ["max \(cap)", "suspended"])
        ]
        draft.ops = plan.ops
        draft.actions =
            ((cap == 1 ? [] : ["max \(queue) 1"]) + plan.cancels.map { "cancel \($0)" } + ["resume \(queue)"])
            .map { QuestionDraft.Action($0) }
        draft.question = startOrderQuestion(plan.ops)
        draft.notes = [bucketRule(queue: queue, cap: cap), bucketList(plan, glossed: cap != 1)]
        draft.notes.append(
            "\(queue) starts suspended: every operation is in it when it resumes at 0ms"
                + (plan.cancels.isEmpty ? "" : ", after the cancel")
                + ", so the queue chooses among all the ready ones at once.")
        draft.notes += model.explanation()
        draft.notes.append(QuestionDraft.answerNote(order.joined(separator: ", ")))
        var concepts = plan.concepts.union([.suspension])
        if cap != 1 { concepts.insert(.cap) }
        return Candidate(
            draft: draft, prediction: .startOrder(order), concepts: concepts, confirmSpeed: Candidate.timeFreeSpeed)
    }

    /// `In which order do the 6 operations start (the barrier gate is not
    /// one of them)?`: what the answer is out of, barriers never in it.
    static func startOrderQuestion(_ ops: [QuestionDraft.Op]) -> String {
        let barriers = ops.filter(\.body.isBarrier).map(\.name)
        let count = ops.count - barriers.count
        guard !barriers.isEmpty else { return "In which order do the \(count) operations start?" }
        let them = barriers.count == 1 ? "the barrier \(barriers[0]) is" : "the barriers \(Spelling.list(barriers)) are"
        return "In which order do the \(count) operations start (\(them) not one of them)?"
    }

    /// How each operation's bucket is decided on this queue.
    static func bucketRule(queue: String, cap: Int) -> String {
        if cap == 1 {
            return "\(queue) is serial while the operations are added. This Foundation files an operation by its "
                + "qualityOfService only when its queue's cap is not 1, so here a qos changes nothing: each one "
                + "without a queuePriority is normal."
        }
        return "\(queue) has max \(cap) while the operations are added, so each one without a queuePriority is "
            + "filed in a priority bucket (\(PriorityLevel.bucketGloss)) by its qualityOfService (userInteractive → veryHigh, userInitiated → high, default → normal, "
            + "utility → low, background → veryLow), while its queuePriority still reads normal. At 0ms the cap "
            + "drops to 1 before \(queue) resumes: one at a time, by those buckets. An explicit queuePriority "
            + "always wins over a qos."
    }

    /// `Buckets: fetch veryHigh (qos userInteractive), …`; unless
    /// `glossed` (a note before it said what a bucket is), it says so first.
    static func bucketList(_ plan: SerialPlan, glossed: Bool) -> String {
        let model = plan.model
        let parts = zip(plan.ops, model.items).filter { !$0.1.isBarrier }.map { op, item in
            var why: [String] = []
            if let priority = op.priority { why.append("priority \(priority.rawValue)") }
            if let qos = op.qos {
                let counts = op.priority == nil && plan.options.capAtAdd != 1
                why.append("qos \(qos.rawValue)" + (counts ? "" : ", which does not count"))
            }
            return "\(op.name) \(item.bucketWord)" + (why.isEmpty ? "" : " (\(why.joined(separator: "; ")))")
        }
        let head = glossed ? "Buckets: " : "Buckets (\(PriorityLevel.bucketGloss)): "
        return head + parts.joined(separator: ", ") + "."
    }
}

extension SerialPlan {
    /// Some step of `model` was decided by priority: two or more were
    /// ready, in different buckets.
    static func decidedByPriority(_ model: SerialQueueModel) -> Bool {
        model.steps()?.contains { step in
            step.alsoReady.contains { model.items[$0].bucket != model.items[step.index].bucket }
        } ?? false
    }
}
