/// `add A, B, …`: several operations in one `addOperations` call, at the
/// start (a top-level statement) or at a time (`at TIME add A, B, …`).
extension Validator {
    /// Resolves the names of one batch add: every one an operation (not a
    /// barrier: `addBarrierBlock` adds one alone) of the same queue, added
    /// nowhere else (`firstAdd`: the line each operation is first added
    /// on). nil after reporting when one is not.
    mutating func resolveBatch(_ names: [Name], firstAdd: inout [Int: Int]) -> [OperationID]? {
        var ids: [OperationID] = []
        var failed = false
        var first: (name: Name, queue: Int)?
        for name in names {
            guard let op = resolveOperation(name) else {
                failed = true
                continue
            }
            if tree.operations[op.index].isBarrier {
                report(.barrierInBatch(name.text, at: name.location))
                failed = true
                continue
            }
            if let firstLine = firstAdd[op.index] {
                report(.addedTwice(name.text, firstLine: firstLine, at: name.location))
                failed = true
                continue
            }
            firstAdd[op.index] = name.location.line
            let queue = operationQueues[op.index]
            if let first, first.queue != queue {
                report(
                    .batchAcrossQueues(
                        name.text, queue: queues[queue].name, first: first.name.text,
                        firstQueue: queues[first.queue].name, at: name.location))
                failed = true
                continue
            }
            if first == nil { first = (name, queue) }
            ids.append(op)
        }
        return failed ? nil : ids
    }

    /// The top-level `add` statements, in file order; each needs two or
    /// more operations (one is added at the start on its own anyway).
    mutating func resolveStartBatches(firstAdd: inout [Int: Int]) -> [AddBatch] {
        var batches: [AddBatch] = []
        for syntax in tree.startAdds {
            if syntax.names.count < 2 {
                report(.startAddNeedsTwo(at: syntax.location))
                continue
            }
            guard let ids = resolveBatch(syntax.names, firstAdd: &firstAdd) else { continue }
            batches.append(AddBatch(operations: ids, location: syntax.location))
        }
        return batches
    }
}
