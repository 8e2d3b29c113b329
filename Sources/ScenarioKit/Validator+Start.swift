/// What the file lets the validator tell of `at TIME start OP` before a
/// run: an operation both added and started by hand (Foundation stops the
/// program either way), a start that may come before the operation's
/// dependencies finished, a second start of an asynchronous operation, and
/// an `on` clause that puts an operation started by hand in no queue.
extension Validator {
    /// `actions` and `syntaxes` are parallel, in time order (equal times in
    /// file order): the first start of an operation is the one its
    /// dependencies may not be ready for, and a later one of an
    /// asynchronous operation may come while it still executes.
    mutating func checkHandStarts(_ actions: [TimedAction], syntaxes: [ActionSyntax]) {
        var addLine: [Int: Int] = [:]
        for batch in startBatches {
            for op in batch.operations where addLine[op.index] == nil { addLine[op.index] = batch.location.line }
        }
        for action in actions {
            for op in action.action.addedOperations where addLine[op.index] == nil {
                addLine[op.index] = action.location.line
            }
        }
        var firstStart: [Int: Int] = [:]
        for (action, syntax) in zip(actions, syntaxes) {
            guard case .start(let op) = action.action, case .start(let name) = syntax.kind else { continue }
            let spec = tree.operations[op.index]
            if spec.isBarrier { continue }
            if let line = addLine[op.index] {
                report(.startedAndAdded(name.text, addLine: line, at: name.location))
                continue
            }
            if let line = firstStart[op.index] {
                if spec.body?.isAsync == true {
                    report(.asyncStartedAgain(name.text, firstLine: line, at: name.location))
                }
                continue
            }
            firstStart[op.index] = action.location.line
            let waits = dependencies[op.index]
            if !waits.isEmpty {
                report(
                    .startMayComeBeforeDependencies(
                        name.text, dependencies: waits.map { tree.operations[$0.index].name.text },
                        isAsync: spec.body?.isAsync == true, at: name.location))
            }
            if let queue = spec.queue {
                report(.queueOfStartedByHand(name.text, queue: queue.text, at: queue.location))
            }
        }
    }
}
