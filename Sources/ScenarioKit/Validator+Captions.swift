extension Validator {
    /// At most one `speed`: the first one counts, the others are errors.
    mutating func checkSpeeds() -> SpeedSyntax? {
        guard let first = tree.speeds.first else { return nil }
        for extra in tree.speeds.dropFirst() {
            report(.duplicateSpeed(firstLine: first.location.line, at: extra.location))
        }
        return first
    }

    /// Resolves the operation of each `when` caption (an unknown name
    /// suggests the nearest operation or barrier) and warns about a
    /// `cancelled` caption that nothing in the file can make happen.
    /// `actions` are the resolved `at` actions; the completion blocks must
    /// already be resolved.
    mutating func resolveCaptions(actions: [TimedAction]) -> [Caption] {
        var captions: [Caption] = []
        captions.reserveCapacity(tree.captions.count)
        var cancellable: Set<Int>?
        for syntax in tree.captions {
            switch syntax.trigger {
            case .at(let time):
                captions.append(Caption(trigger: .at(time), text: syntax.text, location: syntax.location))
            case .when(let name, let moment):
                guard let op = resolveOperation(name) else { continue }
                if moment.value == .cancelled {
                    if cancellable == nil { cancellable = cancellableOperations(actions: actions) }
                    if cancellable?.contains(op.index) == false {
                        let queue = queues[operationQueues[op.index]].name
                        report(
                            .captionNeverCancelled(
                                name.text, isBarrier: tree.operations[op.index].isBarrier, queue: queue,
                                at: moment.location))
                    }
                }
                captions.append(
                    Caption(trigger: .when(op, moment.value), text: syntax.text, location: syntax.location))
            }
        }
        return captions
    }

    /// The operations (indices) that some `at` action or completion block
    /// of the file may cancel: `cancel OP`, or `cancel-all` of OP's queue.
    /// The main queue ignores `cancelAllOperations()` (the engine ignores the
    /// action, and `check` warns), so a `cancel-all` of it cancels nothing.
    private func cancellableOperations(actions: [TimedAction]) -> Set<Int> {
        var operations = Set<Int>()
        var cancelledQueues = Set<Int>()
        let performed = actions.map(\.action) + completions.flatMap { $0 ?? [] }
        for action in performed {
            switch action {
            case .cancel(let op): operations.insert(op.index)
            case .cancelAll(let queue) where !queues[queue.index].isMain: cancelledQueues.insert(queue.index)
            default: break
            }
        }
        for (index, queue) in operationQueues.enumerated() where cancelledQueues.contains(queue) {
            operations.insert(index)
        }
        return operations
    }
}
