import ScenarioKit
import TextKit

extension StartOrderRecipes {
    /// Two serial queues, one after the other. The first (`a`) starts
    /// suspended and resumes at 0ms; it may hold a barrier, a cancel and
    /// asynchronous operations. The second (`b`) cannot start anything
    /// before `a` is done, by one of two constructions:
    /// - it starts suspended and only the completion block of `a`'s last
    ///   operation resumes it (a completion block runs after its operation
    ///   finished);
    /// - its one root waits for `a`'s last operation, and every other
    ///   operation of `b` waits for the root or for one that does (a single
    ///   release per finish: several released at once onto an idle queue
    ///   would start in the order of a `Set`).
    static func level3(_ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        let a = names.queue()
        let b = names.queue()
        let byCompletion = r.chance(50)
        let barrierInA = r.chance(40)
        let aOptions = SerialPlan.Options(
            qosPercent: 20, priorityPercent: 55, edges: 0...1, cancel: r.chance(35), barrier: barrierInA,
            asyncPercent: 50)
        var aPlan = SerialPlan(queue: a, count: r.int(in: 3...5), options: aOptions, names: &names, random: &r)
        guard let aSteps = aPlan.model.steps(), let last = aSteps.last else { return nil }
        let lastItem = aPlan.model.items[last.index]
        guard !lastItem.isBarrier, !lastItem.cancelled else { return nil }
        let z = lastItem.name

        var draft = QuestionDraft(title: "One queue after another")
        var bOps: [QuestionDraft.Op]
        var bModel: SerialQueueModel
        var concepts = aPlan.concepts.union([.suspension])
        var how: String
        if byCompletion {
            let bOptions = SerialPlan.Options(
                priorityPercent: 60, edges: 0...1, barrier: !barrierInA && r.chance(40), asyncPercent: 50)
            let bPlan = SerialPlan(queue: b, count: r.int(in: 3...4), options: bOptions, names: &names, random: &r)
            aPlan.ops[aPlan.ops.firstIndex { $0.name == z }!].completion = "resume \(b)"
            bOps = bPlan.ops
            bModel = bPlan.model
            concepts.formUnion(bPlan.concepts)
            concepts.insert(.completionBlocks)
            draft.queues = [
                .init(name: a, options: ["serial", "suspended"]), .init(name: b, options: ["serial", "suspended"]),
            ]
            how =
                "\(a) starts suspended and resumes at 0ms. \(b) starts suspended too, and only \(Spelling.possessive(z)) completion "
                + "block resumes it. A completion block runs after its operation has finished, and \(z) is the last "
                + "of \(a) to start: so all of \(a) has run before anything on \(b) can start."
        } else {
            bOps = chainedOps(queue: b, after: z, count: r.int(in: 3...4), names: &names, random: &r)
            bModel = SerialQueueModel(ops: bOps, capAtAdd: 1, cancelled: [])
            concepts.insert(.dependencies)
            if bOps.contains(where: { $0.priority != nil }) { concepts.insert(.priority) }
            if bOps.contains(where: { if case .async = $0.body { true } else { false } }) { concepts.insert(.async) }
            draft.queues = [.init(name: a, options: ["serial", "suspended"]), .init(name: b, options: ["serial"])]
            let root = bOps.first { $0.after == [z] }!.name
            how =
                "\(a) starts suspended and resumes at 0ms. On \(b), \(root) waits for \(z), the last of \(a) to "
                + "start, and every other operation of \(b) waits for \(root) or for one that does: nothing on \(b) "
                + "can start before \(a) is done. Dependencies may cross queues; priorities never do."
        }
        guard let aOrder = aPlan.model.startOrder(), let bOrder = bModel.startOrder() else { return nil }
        let order = aOrder + bOrder
        let all = aPlan.ops + bOps
        guard SerialPlan.decidedByPriority(aPlan.model) || SerialPlan.decidedByPriority(bModel)
        else { return nil }

        draft.ops = all
        draft.actions = (aPlan.cancels.map { "cancel \($0)" } + ["resume \(a)"]).map { QuestionDraft.Action($0) }
        draft.question = startOrderQuestion(all)
        draft.notes = [how]
        if aPlan.ops.contains(where: { $0.qos != nil }) { draft.notes.append(bucketRule(queue: a, cap: 1)) }
        if aPlan.ops.contains(where: { $0.body.isBarrier }) || bOps.contains(where: { $0.body.isBarrier }) {
            draft.notes.append(
                "A barrier waits for every operation added to its queue before it, and every one added after it "
                    + "waits for the barrier.")
        }
        if concepts.contains(.async) {
            draft.notes.append(
                "An asynchronous operation holds its serial queue's one slot from its start() until it posts "
                    + "isFinished, like a synchronous one: the order is the same.")
        }
        draft.notes += aPlan.model.explanation().map { "On \(a): " + $0 }
        draft.notes += bModel.explanation(first: aOrder.count + 1).map { "On \(b): " + $0 }
        draft.notes.append(QuestionDraft.answerNote(order.joined(separator: ", ")))
        return Candidate(
            draft: draft, prediction: .startOrder(order), concepts: concepts, confirmSpeed: Candidate.timeFreeSpeed)
    }

    /// `count` operations on `queue`: one root that waits for `after` (on
    /// another queue), the others each waiting for the root or for one
    /// drawn before them, so that each finish releases what it releases
    /// onto a queue it holds.
    static func chainedOps(
        queue: String, after: String, count: Int, names: inout NamePool, random r: inout SplitMix64
    ) -> [QuestionDraft.Op] {
        let root = names.op()
        let others = (1..<count).map { _ in names.op() }
        var ops: [QuestionDraft.Op] = []
        let body = { (r: inout SplitMix64) -> QuestionDraft.Body in
            r.chance(50) ? .async(workLength(&r)) : .work(workLength(&r))
        }
        ops.append(QuestionDraft.Op(name: root, queue: queue, body: body(&r), after: [after]))
        for (i, name) in others.enumerated() {
            let on = i > 0 && r.chance(40) ? others[r.below(i)] : root
            let level = r.pick(drawnPriorities)
            ops.append(
                QuestionDraft.Op(
                    name: name, queue: queue, body: body(&r), after: [on], priority: level == .normal ? nil : level))
        }
        return r.shuffled(ops)
    }
}
