import FoundationRules

// The operations of the exported program: a subclass or a block each,
// and the barriers' cancellations.
extension ProgramWriter {
    mutating func operations() {
        lines += ["", "    // MARK: Operations"]
        for (index, op) in scenario.operations.enumerated() {
            let name = operationNames[index]
            let literal = SwiftIdentifiers.stringLiteral(op.name)
            lines.append("")
            switch op.body {
            case .work(let d):
                let seconds = SwiftIdentifiers.seconds(d)
                if let left = scenario.leftover(of: OperationID(index)) {
                    lines.append(
                        "    // \(op.name): \(ScenarioPrinter.format(d)) of synchronous work, then main() starts "
                            + "\(ScenarioPrinter.format(left)) of work of its own and returns without waiting for it.")
                    let cancelArgument = op.ignoresCancel ? ", checksCancellation: false" : ""
                    lines.append(
                        "    let \(name) = WorkLeftRunning(\(literal), seconds: \(seconds), "
                            + "leftRunning: \(SwiftIdentifiers.seconds(left))\(cancelArgument))")
                } else if op.ignoresCancel {
                    lines.append(
                        "    // \(op.name): \(ScenarioPrinter.format(d)) of synchronous work that never checks isCancelled."
                    )
                    lines.append("    let \(name) = NonCooperativeWork(\(literal), seconds: \(seconds))")
                } else {
                    lines.append("    // \(op.name): \(ScenarioPrinter.format(d)) of synchronous work.")
                    lines.append("    let \(name) = SimulatedWork(\(literal), seconds: \(seconds))")
                }
            case .blocks(let ds):
                let list = ds.map(SwiftIdentifiers.seconds).joined(separator: ", ")
                lines.append(
                    "    // \(op.name): a BlockOperation with \(ds.count) execution block\(ds.count == 1 ? "" : "s").")
                let cancelArgument = op.ignoresCancel ? ", checksCancellation: false" : ""
                lines.append(
                    "    let \(name) = SimulatedBlocks(\(literal), blockSeconds: [\(list)]\(cancelArgument))")
            case .async(let d):
                let seconds = SwiftIdentifiers.seconds(d)
                if op.neverFinishes {
                    lines.append(
                        "    // \(op.name): an asynchronous operation with the bug: it never posts isFinished.")
                    lines.append("    let \(name) = ForgetfulAsyncOperation(\(literal), seconds: \(seconds))")
                } else if scenario.forgetsIfCancelled.contains(OperationID(index)) {
                    lines.append(
                        "    // \(op.name): asynchronous, \(ScenarioPrinter.format(d)); the bug: cancelled before it "
                            + "starts, its start() never posts isFinished.")
                    let cancelArgument = op.ignoresCancel ? ", stopsWhenCancelled: false" : ""
                    lines.append(
                        "    let \(name) = ForgetsWhenCancelledAsyncOperation(\(literal), seconds: \(seconds)"
                            + "\(cancelArgument))")
                } else if op.ignoresCancel {
                    lines.append(
                        "    // \(op.name): asynchronous, \(ScenarioPrinter.format(d)); cancel() does not end it early."
                    )
                    lines.append(
                        "    let \(name) = AsyncOperation(\(literal), seconds: \(seconds), stopsWhenCancelled: false)")
                } else {
                    lines.append(
                        "    // \(op.name): asynchronous, it finishes \(ScenarioPrinter.format(d)) after it starts.")
                    lines.append("    let \(name) = AsyncOperation(\(literal), seconds: \(seconds))")
                }
            case .custom(let type):
                lines.append(
                    "    // \(op.name): your class \(type), watched by a subclass that prints its start.")
                lines.append("    let \(name) = Watched\(type)()")
                lines.append("    \(name).name = \(literal)")
            case .barrier(let d):
                let queue = scenario[queue: op.queue].name
                lines.append(
                    "    // \(op.name): a barrier on \(queue), \(d == .zero ? "an instant block" : ScenarioPrinter.format(d) + " of work")."
                )
                var arguments = "\(literal), seconds: \(SwiftIdentifiers.seconds(d))"
                if let standIn = barrierStandIns[index] {
                    lines.append("    let \(standIn) = BlockOperation()")
                    lines.append("    \(standIn).name = \(SwiftIdentifiers.stringLiteral(op.name + " (barrier done)"))")
                    arguments += ", done: \(standIn)"
                }
                lines.append("    let \(name) = Barrier(\(arguments))")
                whenCaptions(of: index)
                continue
            }
            if scenario.startedByHand.contains(OperationID(index)) {
                lines.append(
                    "    // \(op.name) is never added to a queue: the main thread starts it by hand (see below).")
            }
            if let priority = op.priority {
                explainOnce(
                    "priority",
                    "queuePriority orders the ready operations of one queue: higher first, then the one added first. "
                        + "It never overtakes a dependency.")
                lines.append("    \(name).queuePriority = .\(priority.rawValue)")
            }
            if let qos = op.qos {
                explainOnce(
                    "qos",
                    "qualityOfService tells the system how urgent the thread that runs the operation is; it is not "
                        + "the queue's order.")
                lines.append("    \(name).qualityOfService = .\(qos.rawValue)")
                let limit = scenario[queue: op.queue].limit
                let filing = PriorityRule.filing(explicit: op.priority, qos: qos, limitAtAdd: limit)
                if filing.source == .qos {
                    lines += SwiftIdentifiers.comment(
                        "With no queuePriority of its own, on a queue whose cap is not 1, swift-corelibs-foundation "
                            + "queues it as if its priority were .\(filing.level.rawValue) (from its quality of "
                            + "service), although queuePriority still reads .normal.", indent: "    ", width: 72)
                }
            }
            whenCaptions(of: index)
        }
        barrierCancellations()
    }

    /// The `BarrierCancellation` of each queue whose barriers a cancel-all
    /// may cancel.
    mutating func barrierCancellations() {
        guard !cancellations.isEmpty else { return }
        lines.append("")
        lines += SwiftIdentifiers.comment(
            "A cancel-all cancels the barriers of its queue that have not begun, and Foundation finishes them only "
                + "when the queue dispatches them: the cancel-all and the resume of such a queue go through a "
                + "BarrierCancellation, which sees that moment.", indent: "    ", width: 72)
        for index in scenario.queues.indices {
            guard let name = cancellations[index] else { continue }
            let barriers = scenario.operations.indices
                .filter { scenario.operations[$0].isBarrier && scenario.operations[$0].queue.index == index }
                .map { operationNames[$0] }
            lines.append(
                "    let \(name) = BarrierCancellation(\(queueNames[index]), barriers: [\(barriers.joined(separator: ", "))])"
            )
        }
    }
}
