import TextKit

/// The program's second half: the adds at time zero, the timed actions,
/// the wait for the end, the expectations as comments.
extension ProgramWriter {
    mutating func addAtTimeZero() {
        lines += ["", "    // MARK: Start", ""]
        lines += SwiftIdentifiers.comment(
            "Time zero. Operations are added in file order: among ready operations of the same priority, a queue "
                + "starts the one added first. A queue may start an operation as soon as it is added.",
            indent: "    ", width: 72)
        if !scenario.actions.isEmpty {
            lines.append("    let t0 = DispatchTime.now()  // the timed actions count from here")
        }
        let batches = scenario.startBatchBeginning
        var inBatch = 0
        for op in scenario.addedAtStart {
            if inBatch > 0 {
                inBatch -= 1
                continue
            }
            if let b = batches[op] {
                let ops = scenario.startBatches[b].operations
                lines += batchCode(ops, indent: "    ")
                inBatch = ops.count - 1
                continue
            }
            lines += addCode(op.index, indent: "    ")
        }
    }

    /// One `addOperations` call for the operations of one queue: the queue
    /// looks at all of them before it starts one.
    func batchCode(_ ops: [OperationID], indent: String) -> [String] {
        guard let first = ops.first else { return [] }
        let queue = queueNames[scenario[operation: first].queue.index]
        let names = ops.map { operationNames[$0.index] }.joined(separator: ", ")
        return [
            "\(indent)\(queue).addOperations([\(names)], waitUntilFinished: false)  // one call: the queue picks among all of them"
        ]
    }

    func addCode(_ index: Int, indent: String) -> [String] {
        let op = scenario.operations[index]
        let queue = queueNames[op.queue.index]
        if op.isBarrier {
            return ["\(indent)\(operationNames[index]).add(to: \(queue))  // queue.addBarrierBlock"]
        }
        return ["\(indent)\(queue).addOperation(\(operationNames[index]))"]
    }

    /// Swift statements performing `action`.
    func actionCode(_ action: Action, indent: String) -> [String] {
        switch action {
        case .cancel(let id):
            return [
                "\(indent)\(operationNames[id.index]).cancel()  // only sets isCancelled; the operation decides what to do"
            ]
        case .cancelAll(let id):
            if let cancellation = cancellations[id.index] {
                return [
                    "\(indent)\(cancellation).cancelAllOperations()  // \(queueNames[id.index]).cancelAllOperations(), barriers included"
                ]
            }
            return [
                "\(indent)\(queueNames[id.index]).cancelAllOperations()  // cancel() on each operation still in the queue"
            ]
        case .suspend(let id):
            return [
                "\(indent)\(queueNames[id.index]).isSuspended = true  // starts nothing more; running operations go on"
            ]
        case .resume(let id):
            if let cancellation = cancellations[id.index] {
                return ["\(indent)\(cancellation).resume()  // \(queueNames[id.index]).isSuspended = false"]
            }
            return ["\(indent)\(queueNames[id.index]).isSuspended = false"]
        case .setCap(let id, .systemDefault):
            return [
                "\(indent)\(queueNames[id.index]).maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount"
            ]
        case .setCap(let id, .limit(let n)):
            return [
                "\(indent)\(queueNames[id.index]).maxConcurrentOperationCount = \(n)  // a lower cap stops nothing that runs"
            ]
        case .setPriority(let id, let level):
            return ["\(indent)\(operationNames[id.index]).queuePriority = .\(level.rawValue)"]
        case .add(let id):
            return addCode(id.index, indent: indent)
        case .addBatch(let ids):
            return batchCode(ids, indent: indent)
        case .wait(let id):
            return mainThreadWait(
                "\(operationNames[id.index]).waitUntilFinished()", for: scenario[operation: id].name, indent: indent)
        case .waitAll(let id):
            return mainThreadWait(
                "\(queueNames[id.index]).waitUntilAllOperationsAreFinished()", for: scenario[queue: id].name,
                indent: indent)
        case .start(let id):
            return startCode(id.index, indent: indent)
        }
    }

    /// A wait made on the main thread: the block goes to the main queue,
    /// which the main thread serves (`waitForTheEnd`); while it waits, it
    /// runs nothing else, the main queue's operations included.
    /// `target` (the operation's or queue's name) is what the tally says
    /// the main thread waits for, for the report of a wait that never
    /// returned.
    private func mainThreadWait(_ call: String, for target: String, indent: String) -> [String] {
        [
            "\(indent)DispatchQueue.main.async {",
            "\(indent)    say(\(SwiftIdentifiers.stringLiteral("main thread: " + call + " begins")))",
            "\(indent)    tally.mainThreadWait = \(SwiftIdentifiers.stringLiteral(target))",
            "\(indent)    \(call)  // blocks the main thread until it returns",
            "\(indent)    tally.mainThreadWait = nil",
            "\(indent)    say(\(SwiftIdentifiers.stringLiteral("main thread: " + call + " returned")))",
            "\(indent)}",
        ]
    }

    /// The timed actions, with the `at` captions as comments before the
    /// actions of their time (or of the next time).
    mutating func timedActions() {
        let captions = scenario.timedCaptions.compactMap { caption in
            caption.time.map { (time: $0, caption: caption) }
        }
        guard !scenario.actions.isEmpty || !captions.isEmpty else { return }
        if scenario.actions.isEmpty {
            lines += ["", "    // MARK: Timed captions", ""]
        } else {
            let mark = captions.isEmpty ? "Timed actions" : "Timed actions and captions"
            lines += ["", "    // MARK: \(mark)", ""]
            lines += SwiftIdentifiers.comment(
                "Scheduled on a serial queue of their own, never on the global pool: synchronous operations block "
                    + "its worker threads, and a timer there could fire late.", indent: "    ", width: 72)
            lines.append("    let timeline = DispatchQueue(label: \"scenario.timeline\")")
        }
        var nextCaption = 0
        var index = 0
        let actions = scenario.actions
        while index < actions.count {
            let time = actions[index].time
            while nextCaption < captions.count, captions[nextCaption].time <= time {
                captionComment(captions[nextCaption].caption)
                nextCaption += 1
            }
            var group: [Action] = []
            while index < actions.count && actions[index].time == time {
                group.append(actions[index].action)
                index += 1
            }
            let event = "at \(ScenarioPrinter.format(time))"
            timedEvents.append((event, time))
            lines.append("    timeline.asyncAfter(deadline: t0 + \(SwiftIdentifiers.seconds(time))) {")
            for action in group {
                let text = "\(event): \(ScenarioPrinter.actionText(action, in: scenario))"
                lines.append("        say(\(SwiftIdentifiers.stringLiteral(text)))")
                lines += actionCode(action, indent: "        ")
            }
            lines.append("        tally.mark(\(SwiftIdentifiers.stringLiteral(event)))")
            lines.append("    }")
        }
        for timed in captions[nextCaption...] { captionComment(timed.caption) }
    }

    mutating func ending() {
        let work = scenario.operations.reduce(Duration.zero) { $0 + $1.body.totalDuration }
        let lastAction = scenario.actions.last?.time ?? .zero
        let timeout = SwiftIdentifiers.seconds(lastAction + work + .seconds(2))
        lines += ["", "    // MARK: Wait for the end", ""]
        lines += SwiftIdentifiers.comment(
            "Gives up after \(timeout)s: the last timed action plus all the work done one piece after another, "
                + "plus 2s.", indent: "    ", width: 72)
        let mainThreadWaits = scenario.actions.contains(where: \.action.isMainThreadWait)
        if mainThreadWaits {
            lines += SwiftIdentifiers.comment(
                "A wait on the main thread may never return (it waits for work only the main thread can run): "
                    + "then a thread of its own reports and ends the program (mainThreadWaits).", indent: "    ",
                width: 72)
        }
        lines.append("    waitForTheEnd(")
        lines.append("        [\(operationNames.joined(separator: ", "))],")
        if !events.isEmpty {
            lines.append("        events: [\(events.map(SwiftIdentifiers.stringLiteral).joined(separator: ", "))],")
        }
        if let startedByHand = startedByHandArgument { lines.append("        \(startedByHand),") }
        if !timedEvents.isEmpty {
            let timed = timedEvents.map {
                "(\(SwiftIdentifiers.stringLiteral($0.event)), \(SwiftIdentifiers.seconds($0.time)))"
            }
            lines.append("        timedActions: [\(timed.joined(separator: ", "))], from: t0,")
        }
        lines.append("        tally: tally, timeout: \(timeout)\(mainThreadWaits ? ", mainThreadWaits: true" : ""))")
    }

    // MARK: Expectations

    mutating func expectations() {
        guard !scenario.expectations.isEmpty else { return }
        lines += ["", "// MARK: - What the scenario expects", "//"]
        lines += SwiftIdentifiers.comment(
            "opscope checks these claims after a run (`opscope trace FILE`); compare them with what this program "
                + "prints.")
        lines.append("//")
        for expectation in scenario.expectations {
            let text = ScenarioPrinter.claimText(expectation.claim, in: scenario)
            lines.append("//   expect \(text)")
            lines.append("//       \(gloss(expectation.claim))")
        }
    }

    func gloss(_ claim: Claim) -> String {
        func op(_ id: OperationID) -> String { scenario[operation: id].name }
        switch claim {
        case .before(let a, let b): return "\(op(a)) finishes before \(op(b)) starts"
        case .order: return "they start in exactly this order"
        case .concurrent(let ids): return "at some moment \(ids.map(op).joined(separator: ", ")) all execute at once"
        case .peak(let q, let n):
            return
                "at most \(n) of \(Spelling.possessive(scenario[queue: q].name)) operations execute at once, and \(n) do at some moment"
        case .peakAtMost(let q, let n):
            return "at most \(n) of \(Spelling.possessive(scenario[queue: q].name)) operations execute at once"
        case .peakAtLeast(let q, let n):
            return
                "at some moment at least \(n) of \(Spelling.possessive(scenario[queue: q].name)) operations execute at once"
        case .dependsOn(let a, let b):
            return "\(op(a)) waits for \(op(b)): addDependency, directly or through others (see the graph above)"
        case .neverTogether(let ids): return "no two of \(ids.map(op).joined(separator: ", ")) ever execute at once"
        case .completionBefore(let a, let b):
            return
                "\(Spelling.possessive(op(a))) completion block runs before \(op(b)) starts (nothing in Foundation promises it)"
        case .onMain(let id, let on):
            return
                "\(Spelling.possessive(op(id))) start() runs \(on ? "on" : "off") the main thread (Thread.isMainThread)"
        case .finished(let id): return "\(op(id)) finishes without being cancelled"
        case .cancelled(let id): return "\(op(id)) ends cancelled"
        case .skipped(let id): return "\(op(id)) is cancelled before it starts: its work never runs"
        case .stuck(let id): return "\(op(id)) never finishes"
        case .mainNeverBlockedOver(let limit):
            return "no waitUntilFinished() or waitUntilAllOperationsAreFinished() on the main thread lasts longer "
                + "than \(Spelling.duration(limit)) (one that never returns lasts for ever)"
        case .finishedBy(let id, let time):
            return "\(op(id)) finishes, not cancelled, \(Spelling.duration(time)) after the start at the latest "
                + "(scenario time)"
        }
    }
}
