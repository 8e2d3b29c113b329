import RunEvents
import ScenarioKit

/// Each kind of line made into its event, by the keys the encoder writes
/// for it (`JSONLineEncoder.append`).
extension EventLineReader {
    mutating func body(of kind: LineKind) throws(LineError) -> (LifecycleEvent.Kind, ThreadTag?) {
        switch kind {
        case .op:
            let op = try operationOnItsQueue()
            let key = try word(.key, in: operationKeyWords, "operation key")
            let (old, new) = try change(of: key.rawValue, key == .queuePriority ? .priority : .bool)
            let thread = has(.thread) ? try thread(.thread) : nil
            return (.operation(op, key, old: old, new: new), thread)
        case .queue:
            let q = try queue(.queue)
            let key = try word(.key, in: queueKeyWords, "queue key")
            let (old, new) = try change(of: key.rawValue, key == .isSuspended ? .bool : .int)
            return (.queue(q, key, old: old, new: new), nil)
        case .dispatched:
            return (.dispatched(try operationOnItsQueue()), nil)
        case .block:
            let op = try operation(.op)
            let index = try int(.index)
            guard let count = lookup.blockCounts[op.index] else {
                throw LineError(
                    offset: try value(.op).start,
                    message: "'\(scenario.opName(op))' is not a 'blocks' operation: it has no execution blocks")
            }
            guard (0..<count).contains(index) else {
                throw LineError(
                    offset: try value(.index).start,
                    message: "'\(scenario.opName(op))' has blocks 0 to \(count - 1), not \(index)")
            }
            let phase = try word(.phase, in: phaseWords, "block phase")
            return (.block(op, index: index, phase: phase, thread: try thread(.thread)), nil)
        case .completion:
            return (.completion(try operation(.op), thread: try thread(.thread)), nil)
        case .stranded:
            let op = try operationOnItsQueue()
            guard lookup.forgetsIfCancelled(op) else {
                throw LineError(
                    offset: try value(.op).start,
                    message:
                        "'\(scenario.opName(op))' is not 'never-finishes if-cancelled': its start() posts isFinished")
            }
            return (.stranded(op), nil)
        case .leftover:
            let op = try operation(.op)
            guard lookup.hasLeftover(op) else {
                throw LineError(
                    offset: try value(.op).start,
                    message: "'\(scenario.opName(op))' leaves no work running: it has no 'leaves' clause")
            }
            return (.leftover(op, phase: try word(.phase, in: phaseWords, "leftover phase")), nil)
        case .action:
            return (try action(), nil)
        case .wait:
            let action = try waitAction()
            return (.mainThreadWait(action, phase: try word(.phase, in: phaseWords, "wait phase")), nil)
        case .call:
            let v = try value(.action)
            guard try word(.action, in: actionWords, "action") == .start else {
                throw LineError(offset: v.start, message: #"the action of a "call" line is "start""#)
            }
            let op = try operation(.target)
            guard lookup.isByHand(op) else {
                throw LineError(
                    offset: try value(.target).start,
                    message: "'\(scenario.opName(op))' is not started by hand: no 'start' action names it")
            }
            return (.startCall(op, phase: try word(.phase, in: phaseWords, "call phase")), nil)
        case .caption:
            return (try caption(), nil)
        case .stall:
            let stuck = try stuck()
            if has(.causes) { try checkCauses(of: stuck) }
            return (.stall(stuck), nil)
        case .end:
            let status = try word(.status, in: statusWords, "status")
            if status == .stalled {
                let stuck = try stuck()
                if has(.causes) { try checkCauses(of: stuck) }
                return (.end(.stalled(stuck)), nil)
            }
            if has(.stuck) {
                throw LineError(offset: member(.stuck).key.start, message: "a completed run has no 'stuck'")
            }
            if has(.causes) {
                throw LineError(offset: member(.causes).key.start, message: "a completed run has no 'causes'")
            }
            return (.end(.completed), nil)
        }
    }

    /// `op`, with the `queue` the line names checked against the scenario's.
    private func operationOnItsQueue() throws(LineError) -> OperationID {
        let op = try operation(.op)
        if lookup.isByHand(op) {
            // In no queue: its lines name none.
            guard !has(.queue) else {
                throw LineError(
                    offset: member(.queue).key.start,
                    message: "'\(scenario.opName(op))' is started by hand: no queue holds it, and its lines name none")
            }
            return op
        }
        let q = try queue(.queue)
        guard lookup.queueOfOperation[op.index] == q else {
            throw LineError(
                offset: try value(.queue).start,
                message: "operation '\(scenario.opName(op))' is on queue "
                    + "'\(scenario.queueName(lookup.queueOfOperation[op.index]))', not '\(scenario.queueName(q))'")
        }
        return op
    }

    /// `old` (null for an initial notification) and `new`.
    private func change(of key: @autoclosure () -> String, _ type: ValueType) throws(LineError) -> (KeyValue?, KeyValue)
    {
        let old = try keyValue(.old, type, of: key())
        guard let new = try keyValue(.new, type, of: key()) else {
            throw LineError(offset: try value(.new).start, message: "'new' of \(key()) must not be null")
        }
        return (old, new)
    }

    /// The `action` and `target` of a `wait` line: `wait` or `wait-all`.
    private func waitAction() throws(LineError) -> Action {
        let v = try value(.action)
        switch try word(.action, in: actionWords, "action") {
        case .wait: return .wait(try operation(.target))
        case .waitAll: return .waitAll(try queue(.target))
        default:
            throw LineError(offset: v.start, message: #"the action of a "wait" line is "wait" or "wait-all""#)
        }
    }

    /// `"target":"a"`: one add; `"target":["a","b"]`: one add of several
    /// (`addOperations`), two or more names.
    private func addAction() throws(LineError) -> Action {
        let v = try value(.target)
        guard v.kind == .array else { return .add(try operation(.target)) }
        let names = try elements(v, "'target'", "a name in quotes or a list of names")
        var ops: [OperationID] = []
        for name in names { ops.append(OperationID(try self.name(of: name, "a name in 'target'", wantsQueue: false))) }
        guard ops.count >= 2 else {
            throw LineError(offset: v.start, message: "a list in 'target' names two or more operations")
        }
        return .addBatch(ops)
    }

    private mutating func action() throws(LineError) -> LifecycleEvent.Kind {
        let verb = try word(.action, in: actionWords, "action")
        let takesValue = verb == .max || verb == .priority
        if has(.value) && !takesValue {
            throw LineError(
                offset: member(.value).key.start, message: "'value' goes only with max and priority actions")
        }
        let action: Action
        switch verb {
        case .cancel: action = .cancel(try operation(.target))
        case .cancelAll: action = .cancelAll(try queue(.target))
        case .suspend: action = .suspend(try queue(.target))
        case .resume: action = .resume(try queue(.target))
        case .add: action = try addAction()
        case .wait: action = .wait(try operation(.target))
        case .waitAll: action = .waitAll(try queue(.target))
        case .start: action = .start(try operation(.target))
        case .priority:
            action = .setPriority(try operation(.target), try word(.value, in: priorityWords, "priority"))
        case .max:
            let q = try queue(.target)
            let v = try value(.value)
            if word(v, in: defaultWord) != nil {
                action = .setCap(q, .systemDefault)
            } else if v.kind == .integer, let n = json.int(v) {
                action = .setCap(q, .limit(n))
            } else {
                throw LineError(
                    offset: v.start, message: #"'value' of max must be a whole number or "default", not "# + shown(v))
            }
        }
        let originValue = try value(.origin)
        let origin: ActionOrigin
        switch try word(.origin, in: originWords, "origin") {
        case .at:
            guard let index = lookup.timedIndex(of: action) else {
                throw LineError(
                    offset: originValue.start,
                    message:
                        "no 'at' line of the scenario performs '\(ScenarioPrinter.actionText(action, in: scenario))'"
                )
            }
            origin = .timed(index)
        case .completion:
            origin = .completion(try operation(.by))
        case .user:
            origin = .user
        case .start:
            guard case .addBatch(let ops) = action,
                let index = scenario.startBatches.firstIndex(where: { $0.operations == ops })
            else {
                throw LineError(
                    offset: originValue.start,
                    message:
                        "no top-level 'add' line of the scenario performs '\(ScenarioPrinter.actionText(action, in: scenario))'"
                )
            }
            origin = .startBatch(index)
        }
        if has(.by), case .completion = origin {
        } else if has(.by) {
            throw LineError(offset: member(.by).key.start, message: #"'by' goes only with "origin":"completion""#)
        }
        var ignored: ActionRefusal?
        if has(.ignored) {
            let v = try value(.ignored)
            let text = try text(.ignored)
            guard let refusal = RecordingLookup.refusals[text] else {
                throw LineError(offset: v.start, message: "unknown reason for an ignored action: \(shown(v))")
            }
            ignored = refusal
        }
        return .action(action, origin: origin, ignored: ignored)
    }

    private mutating func caption() throws(LineError) -> LifecycleEvent.Kind {
        let textValue = try value(.text)
        let text = try text(.text)
        var when: (op: OperationID, moment: CaptionMoment)?
        if has(.op) || has(.moment) {
            when = (try operation(.op), try word(.moment, in: momentWords, "moment"))
        }
        let paused = has(.paused) ? try bool(try value(.paused), "'paused'") : false
        guard let index = lookup.captionIndex(text: text, when: when) else {
            let moment = when.map { " when \(scenario.opName($0.op)) \($0.moment.rawValue)" } ?? ""
            throw LineError(
                offset: textValue.start, message: "no caption of the scenario says \(shown(textValue))\(moment)")
        }
        return .caption(index, paused: paused)
    }

    /// `{"OP":"REASON",…}`
    private func stuck() throws(LineError) -> [OperationID: StuckReason] {
        let v = try value(.stuck)
        guard v.kind == .object else {
            throw LineError(
                offset: v.start, message: "'stuck' must be an object of operations and reasons, not \(shown(v))")
        }
        var members: [JSONMember] = []
        do {
            try json.members(of: v, into: &members)
        } catch {
            throw LineError(offset: error.offset, message: error.message, atEnd: error.atEnd)
        }
        var stuck: [OperationID: StuckReason] = [:]
        for member in members {
            let op = OperationID(try name(of: member.key, "a key of 'stuck'", wantsQueue: false))
            guard stuck[op] == nil else {
                throw LineError(offset: member.key.start, message: "'\(scenario.opName(op))' appears twice in 'stuck'")
            }
            let reason = member.value
            guard reason.kind == .string else {
                throw LineError(
                    offset: reason.start,
                    message: "the reason of '\(scenario.opName(op))' must be a string, not \(shown(reason))")
            }
            guard let why = lookup.stuckReason(json.string(reason)) else {
                throw LineError(
                    offset: reason.start, message: "unknown reason \(shown(reason)) for '\(scenario.opName(op))'")
            }
            stuck[op] = why
        }
        return stuck
    }
}
