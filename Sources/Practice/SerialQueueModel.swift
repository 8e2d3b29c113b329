import FoundationRules
import ScenarioKit
import TextKit

/// The order in which a serial queue dispatches its operations, as
/// swift-corelibs-foundation decides it, from a moment when every one of
/// them is in the queue and none is dispatched yet (a queue resumed after
/// the adds, or one whose only ready operation is added last).
///
/// Each time the slot is free the queue takes the first ready operation in
/// its walk (`DispatchRule.precedes`): the earliest bucket (barriers first,
/// then veryHigh … veryLow), the one added first among equals. An operation is ready when every dependency has
/// finished; a cancelled one is ready at once, takes its turn and finishes
/// without running. A finish on the queue releases its dependents there
/// before it frees the slot (`_operationFinished` comes after the
/// releases), so the next choice sees all of them: which is released
/// first never matters on one serial queue.
struct SerialQueueModel {
    struct Item: Sendable {
        var name: String
        var bucket: DispatchBucket
        /// Indices of the items it waits for, on this queue.
        var dependencies: [Int] = []
        var cancelled = false

        var isBarrier: Bool { bucket == .barrier }
        var bucketWord: String { bucket.level?.rawValue ?? "barrier" }
    }

    struct Step: Sendable {
        /// The item dispatched.
        var index: Int
        /// The others ready at that moment, in the queue's order.
        var alsoReady: [Int]
        /// Not ready yet, though in a higher bucket than the one dispatched.
        var heldBack: [Int]
    }

    var items: [Item]

    init(items: [Item]) { self.items = items }

    /// The model of `ops` (one queue's, in the order they are added), the
    /// queue's cap being `capAtAdd` while they are added: a bucket is the
    /// one `PriorityRule.filing` names. A barrier waits for every operation before it and every one
    /// after it waits for the barrier. Dependencies on other queues' ops
    /// are left out: the caller makes sure they finished before this queue
    /// can dispatch.
    init(ops: [QuestionDraft.Op], capAtAdd: Int, cancelled: Set<String>) {
        var index: [String: Int] = [:]
        for (i, op) in ops.enumerated() { index[op.name] = i }
        var items: [Item] = []
        var barriers: [Int] = []
        for (i, op) in ops.enumerated() {
            if op.body.isBarrier {
                items.append(Item(name: op.name, bucket: .barrier, dependencies: Array(0..<i)))
                barriers.append(i)
                continue
            }
            let limit = CapRule.limit(foundationValue: capAtAdd)
            let bucket = DispatchBucket(
                PriorityRule.filing(explicit: op.priority, qos: op.qos, limitAtAdd: limit).level)
            let own = op.after.compactMap { index[$0] }
            items.append(
                Item(
                    name: op.name, bucket: bucket, dependencies: own + barriers,
                    cancelled: cancelled.contains(op.name)))
        }
        self.items = items
    }

    /// Every dispatch in order; nil when some item can never be dispatched.
    func steps() -> [Step]? {
        var done = Set<Int>()
        var steps: [Step] = []
        while done.count < items.count {
            let waiting = items.indices.filter { !done.contains($0) }
            let ready = waiting.filter { isReady($0, done) }.sorted { before($0, $1) }
            guard let chosen = ready.first else { return nil }
            let held = waiting.filter { !isReady($0, done) && items[$0].bucket < items[chosen].bucket }
            steps.append(Step(index: chosen, alsoReady: Array(ready.dropFirst()), heldBack: held))
            done.insert(chosen)
        }
        return steps
    }

    /// The operations that start, in order: not the cancelled ones, not
    /// the barriers (a start order leaves them out unless named).
    func startOrder() -> [String]? {
        steps()?.map { items[$0.index] }.filter { !$0.cancelled && !$0.isBarrier }.map(\.name)
    }

    private func isReady(_ i: Int, _ done: Set<Int>) -> Bool {
        items[i].cancelled || items[i].dependencies.allSatisfy(done.contains)
    }

    /// `DispatchRule.precedes`, each item filed once, in add order.
    private func before(_ a: Int, _ b: Int) -> Bool {
        DispatchRule.precedes(.init(bucket: items[a].bucket, filed: a), .init(bucket: items[b].bucket, filed: b))
    }

    /// One sentence per dispatch, numbered by start (the first one
    /// `first`): why this one now.
    func explanation(first: Int = 1) -> [String] {
        guard let steps = steps() else { return [] }
        var lines: [String] = []
        var started = first - 1
        var done = Set<Int>()
        var mentioned = Set<Int>()
        for step in steps {
            let item = items[step.index]
            var text: String
            if item.cancelled {
                text =
                    "\(item.name) was cancelled before the queue could start anything, so it is ready at once, "
                    + "whatever it waits for; at its turn (\(item.bucketWord)) it finishes without running: it never "
                    + "starts"
                let dependents = items.filter { $0.dependencies.contains(step.index) && !$0.cancelled }
                if !dependents.isEmpty {
                    text += ", and that counts as finished for \(Spelling.list(dependents.map(\.name)))"
                }
            } else {
                if !item.isBarrier { started += 1 }
                let label = item.isBarrier ? "the barrier \(item.name)" : "\(started). \(item.name)"
                text = label + " — " + reason(step)
            }
            let heldBack = step.heldBack.filter { !mentioned.contains($0) }
            mentioned.formUnion(heldBack)
            if !heldBack.isEmpty {
                let held = heldBack.map { i in
                    let waits = items[i].dependencies.filter { !done.contains($0) }.map { items[$0].name }
                    return "\(items[i].name) (\(items[i].bucketWord)) still waits for \(Spelling.list(waits))"
                }
                text += "; " + held.joined(separator: ", ") + ": priority never overtakes a dependency"
            }
            lines.append(text)
            done.insert(step.index)
        }
        return lines
    }

    private func reason(_ step: Step) -> String {
        let item = items[step.index]
        if item.isBarrier {
            return "everything added before it has finished, and a barrier goes before every priority"
        }
        guard !step.alsoReady.isEmpty else { return "the only one ready" }
        let ties = step.alsoReady.filter { items[$0].bucket == item.bucket }
        if ties.isEmpty {
            let others = step.alsoReady.map { "\(items[$0].name) \(items[$0].bucketWord)" }
            return "the highest priority of the ready ones (\(item.bucketWord); \(others.joined(separator: ", ")))"
        }
        let names = ties.map { items[$0].name }
        return "ready with \(Spelling.list(names)), \(ties.count == 1 ? "both" : "all") \(item.bucketWord): "
            + "\(item.name) was added first"
    }
}
