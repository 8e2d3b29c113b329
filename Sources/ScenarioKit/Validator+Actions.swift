import TextKit

extension Validator {
    /// Resolves `at` actions and returns them sorted by time, equal times
    /// in file order. Also checks what Foundation would refuse or ignore:
    /// an operation added twice (fatal in Foundation), a barrier cancelled
    /// or re-prioritised on its own (there is no handle to it), main-queue
    /// actions the main queue ignores, and suspensions never lifted.
    mutating func resolveActions() -> [TimedAction] {
        var timed: [TimedAction] = []
        var firstAdd: [Int: Int] = [:]
        // The start's batches come first: they are added before any `at` line.
        startBatches = resolveStartBatches(firstAdd: &firstAdd)
        var sourceOrder: [Int] = []  // index into tree.actions, parallel to `timed`
        for (position, syntax) in tree.actions.enumerated() {
            guard let action = resolve(syntax, firstAdd: &firstAdd) else { continue }
            timed.append(TimedAction(time: syntax.time, action: action, location: syntax.location))
            sourceOrder.append(position)
        }
        // Stable: equal times keep file order.
        let order = timed.indices.sorted { a, b in
            timed[a].time != timed[b].time ? timed[a].time < timed[b].time : a < b
        }
        let sorted = order.map { timed[$0] }
        warnNeverResumed(sorted, keywords: order.map { tree.actions[sourceOrder[$0]].keyword })
        warnFarBeyondAnyRun(order.map { tree.actions[sourceOrder[$0]] })
        checkHandStarts(sorted, syntaxes: order.map { tree.actions[sourceOrder[$0]] })
        return sorted
    }

    /// A run is watched in real time: an `at` time that takes longer than
    /// this to reach at the file's speed (1 without a `speed` line), in
    /// real seconds, is far beyond what anyone waits for.
    static let farBeyondAnyRun = 600.0

    /// Warns about each timed action that a run reaches only after
    /// `farBeyondAnyRun` of real time, saying how long at the file's
    /// speed and at the fastest `trace` runs. An `add` holds the run until
    /// then; another action only while something else still goes on.
    private mutating func warnFarBeyondAnyRun(_ actions: [ActionSyntax]) {
        let speed = tree.speeds.first?.value ?? 1
        let fastest = Scenario.traceSpeedRange.upperBound
        for syntax in actions {
            let seconds = syntax.time.seconds
            guard seconds / speed > Self.farBeyondAnyRun else { continue }
            var holdsTheRun = false
            var target = ""
            switch syntax.kind {
            case .add(let name), .start(let name):
                // Its operation is unfinished until then.
                holdsTheRun = true
                target = name.text
            case .addBatch(let names):
                holdsTheRun = true
                target = names.map(\.text).joined(separator: ", ")
            case .wait(let name), .waitAll(let name):
                target = name.text
            case .cancel(let name), .cancelAll(let name), .suspend(let name), .resume(let name), .setCap(let name, _),
                .setPriority(let name, _):
                target = name.text
            }
            report(
                .farBeyondAnyRun(
                    "\(syntax.keyword.text) \(target)", at: Spelling.duration(syntax.time), realTime: seconds / speed,
                    speed: speed, fastest: fastest, realTimeAtFastest: seconds / fastest, holdsTheRun: holdsTheRun,
                    location: syntax.location))
        }
    }

    /// Resolves the action of each completion block, with the same checks
    /// as an `at` action (a barrier cannot be cancelled; the main queue
    /// ignores `cancel-all`, `suspend` and `resume`), and warns about an
    /// operation that cancels itself: its block runs after it finished.
    mutating func resolveCompletions() {
        completions.reserveCapacity(tree.operations.count)
        var noAdds: [Int: Int] = [:]
        // By index: the one field read, not a copy of each whole syntax.
        for index in tree.operations.indices {
            guard let completion = tree.operations[index].completion else {
                completions.append(nil)
                continue
            }
            guard let kind = completion.action, let keyword = completion.keyword else {
                completions.append([])
                continue
            }
            let syntax = ActionSyntax(time: .zero, kind: kind, keyword: keyword, location: completion.location)
            guard let action = resolve(syntax, firstAdd: &noAdds) else {
                completions.append([])
                continue
            }
            if case .cancel(let name) = kind, name.text == tree.operations[index].name.text {
                report(.cancelsItselfOnCompletion(name.text, at: name.location))
            }
            completions.append([action])
        }
    }

    private mutating func resolve(_ syntax: ActionSyntax, firstAdd: inout [Int: Int]) -> Action? {
        let keyword = syntax.keyword
        switch syntax.kind {
        case .cancel(let name):
            guard let op = resolveOperation(name) else { return nil }
            if tree.operations[op.index].isBarrier {
                report(.cancelBarrier(name.text, at: name.location))
            }
            return .cancel(op)
        case .cancelAll(let name):
            guard let queue = resolveQueue(name) else { return nil }
            warnIfMain(queue, keyword)
            return .cancelAll(queue)
        case .suspend(let name):
            guard let queue = resolveQueue(name) else { return nil }
            warnIfMain(queue, keyword)
            return .suspend(queue)
        case .resume(let name):
            guard let queue = resolveQueue(name) else { return nil }
            warnIfMain(queue, keyword)
            return .resume(queue)
        case .setCap(let name, let cap):
            guard let queue = resolveQueue(name) else { return nil }
            warnIfMain(queue, keyword)
            return .setCap(queue, cap.value)
        case .setPriority(let name, let level):
            guard let op = resolveOperation(name) else { return nil }
            if tree.operations[op.index].isBarrier {
                report(.priorityOfBarrier(name.text, at: name.location))
            } else if queues[operationQueues[op.index]].isMain {
                report(.priorityOnMainQueue(name.text, at: keyword.location))
            }
            return .setPriority(op, level)
        case .add(let name):
            guard let op = resolveOperation(name) else { return nil }
            if let firstLine = firstAdd[op.index] {
                report(.addedTwice(name.text, firstLine: firstLine, at: name.location))
            } else {
                firstAdd[op.index] = name.location.line
            }
            return .add(op)
        case .addBatch(let names):
            return resolveBatch(names, firstAdd: &firstAdd).map(Action.addBatch)
        case .wait(let name):
            guard let op = resolveOperation(name) else { return nil }
            return .wait(op)
        case .waitAll(let name):
            guard let queue = resolveQueue(name) else { return nil }
            return .waitAll(queue)
        case .start(let name):
            guard let op = resolveOperation(name) else { return nil }
            if tree.operations[op.index].isBarrier {
                report(.startBarrier(name.text, at: name.location))
            }
            return .start(op)
        }
    }

    private mutating func warnIfMain(_ queue: QueueID, _ keyword: Token) {
        if queues[queue.index].isMain {
            report(.mainQueueIgnoresAction(keyword.text, at: keyword.location))
        }
    }

    /// A queue that is suspended (from the start, or by an action) with no
    /// later `resume` stalls its operations. Reported at the suspension
    /// that begins the final suspended stretch. The main queue ignores
    /// suspension and queues without operations stall nothing: skipped.
    private mutating func warnNeverResumed(_ actions: [TimedAction], keywords: [Token]) {
        var pending: [Int: (location: SourceLocation, fromStart: Bool)] = [:]
        for syntax in tree.queues {
            if let index = queueIndex[syntax.name.text], let suspended = syntax.suspended,
                tree.queues[index].name.location == syntax.name.location
            {
                pending[index] = (suspended, true)
            }
        }
        var resumedAt = Set<Int>()
        for (action, keyword) in zip(actions, keywords) {
            switch action.action {
            case .suspend(let q) where pending[q.index] == nil:
                pending[q.index] = (keyword.location, false)
            case .resume(let q):
                pending[q.index] = nil
                resumedAt.insert(q.index)
            default:
                break
            }
        }
        // A completion block runs at a time only the run knows. Its `resume`
        // may come after any suspension (no warning: give it the benefit of
        // the doubt); its `suspend` is only certain to stall the queue when
        // nothing ever resumes it.
        var resumedByCompletion = Set<Int>()
        var suspendedByCompletion: [Int: SourceLocation] = [:]
        for (op, completion) in zip(tree.operations, completions) {
            guard let action = completion?.first, let keyword = op.completion?.keyword else { continue }
            switch action {
            case .resume(let q): resumedByCompletion.insert(q.index)
            case .suspend(let q) where suspendedByCompletion[q.index] == nil:
                suspendedByCompletion[q.index] = keyword.location
            default: break
            }
        }
        for q in resumedByCompletion { pending[q] = nil }
        for (q, location) in suspendedByCompletion
        where pending[q] == nil && !resumedAt.contains(q) && !resumedByCompletion.contains(q) {
            pending[q] = (location, false)
        }
        var hasOperations = [Bool](repeating: false, count: queues.count)
        for q in operationQueues { hasOperations[q] = true }
        for (index, stretch) in pending where !queues[index].isMain && hasOperations[index] {
            let name = queues[index].name
            report(
                stretch.fromStart
                    ? .startsSuspendedNeverResumed(name, at: stretch.location)
                    : .suspendedNeverResumed(name, at: stretch.location))
        }
    }

    // MARK: Expectations

    mutating func resolveExpectations() -> [Expectation] {
        var result: [Expectation] = []
        for syntax in tree.expectations {
            guard let claim = resolve(syntax.claim) else { continue }
            result.append(Expectation(claim: claim, text: syntax.text, location: syntax.location))
        }
        return result
    }

    private mutating func resolve(_ claim: ExpectationSyntax.Claim) -> Claim? {
        switch claim {
        case .before(let a, let b):
            return resolvePair(a, b, claim: "before").map { .before($0, $1) }
        case .order(let names):
            return resolveList(names, claim: "order").map(Claim.order)
        case .concurrent(let names):
            return resolveList(names, claim: "concurrent").map(Claim.concurrent)
        case .peak(let name, let n):
            return resolveQueue(name).map { .peak($0, n) }
        case .peakAtMost(let name, let n):
            return resolveQueue(name).map { .peakAtMost($0, n) }
        case .peakAtLeast(let name, let n):
            return resolveQueue(name).map { .peakAtLeast($0, n) }
        case .dependsOn(let a, let b):
            return resolvePair(a, b, claim: "depends on").map { .dependsOn($0, $1) }
        case .completionBefore(let a, let b):
            return resolvePair(a, b, claim: "completion of").map { .completionBefore($0, $1) }
        case .neverTogether(let names):
            return resolveList(names, claim: "never together").map(Claim.neverTogether)
        case .onMain(let name, let on):
            return resolveOperation(name).map { .onMain($0, on) }
        case .mainNeverBlockedOver(let limit):
            return .mainNeverBlockedOver(limit)
        case .finishedBy(let name, let time):
            return resolveOperation(name).map { .finishedBy($0, time) }
        case .finished(let name): return resolveOperation(name).map(Claim.finished)
        case .cancelled(let name): return resolveOperation(name).map(Claim.cancelled)
        case .skipped(let name): return resolveOperation(name).map(Claim.skipped)
        case .stuck(let name): return resolveOperation(name).map(Claim.stuck)
        }
    }

    /// Two different operations of a claim.
    private mutating func resolvePair(_ a: Name, _ b: Name, claim: String) -> (OperationID, OperationID)? {
        let first = resolveOperation(a)
        let second = resolveOperation(b)
        if a.text == b.text {
            report(.repeatedInClaim(b.text, claim: claim, at: b.location))
            return nil
        }
        guard let first, let second else { return nil }
        return (first, second)
    }

    private mutating func resolveList(_ names: [Name], claim: String) -> [OperationID]? {
        var ids: [OperationID] = []
        var seen = Set<String>()
        var failed = false
        for name in names {
            guard seen.insert(name.text).inserted else {
                report(.repeatedInClaim(name.text, claim: claim, at: name.location))
                failed = true
                continue
            }
            if let id = resolveOperation(name) { ids.append(id) } else { failed = true }
        }
        return failed ? nil : ids
    }
}
