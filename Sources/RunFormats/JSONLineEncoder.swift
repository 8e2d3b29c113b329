import RunEvents
import ScenarioKit

/// Writes events as JSON Lines (SCENARIO-LANGUAGE.md, "The event stream")
/// straight into a byte buffer: no `String` per line, and with the names of
/// the scenario's operations and queues quoted once, at the start.
///
/// Every key and word comes from the schema's tables (`Field`,
/// `LineKind`, `RecordingSchema.swift`), the ones the decoder reads by.
/// `EventFormatter.json(_:)` is this encoder without the table of names.
public struct JSONLineEncoder: Sendable {
    public let scenario: Scenario
    let operationNames: QuotedNames
    let queueNames: QuotedNames
    /// The queue of each operation, read on every event of an operation.
    let queueOfOperation: [QueueID]
    /// By operation index: started by hand, in no queue (its lines name
    /// none). Empty when no operation is.
    let byHand: [Bool]
    /// What the lines so far say of who suspended each queue: a stall's
    /// `causes` are grouped by it (`StallCause.group`).
    public private(set) var stallContext: StallContext
    /// Whether a stall and a stalled end carry `causes`: from version 3 on
    /// (a recording read back keeps its version, and is written again as
    /// it was).
    public var writesCauses = true

    /// - Parameter quotesNamesOnce: quote every name now (for a whole
    ///   stream), or each time it is written (for a line now and then).
    ///   Only an encoder that quotes names once takes the fast path of an
    ///   operation's change; the other writes every line the general way.
    public init(scenario: Scenario, quotesNamesOnce: Bool = true) {
        self.scenario = scenario
        operationNames = QuotedNames(quotesNamesOnce ? scenario.operations.map(\.name) : [])
        queueNames = QuotedNames(quotesNamesOnce ? scenario.queues.map(\.name) : [])
        queueOfOperation = scenario.operations.map(\.queue)
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : scenario.operations.indices.map { hand.contains(OperationID($0)) }
        stallContext = StallContext(scenario: scenario)
    }

    /// Appends one JSON object, keys in the order of the language reference
    /// (`LineKind.keys`), and a newline. Lines are appended in the
    /// stream's order: a stall's `causes` come from the lines before it.
    public mutating func append(_ event: LifecycleEvent, to out: inout [UInt8]) {
        switch event.kind {
        case .operation(let op, let key, let old, let new) where !isByHand(op):
            if appendOperationChange(event, op, key, old: old, new: new, to: &out) { return }
        case .dispatched(let op):
            if appendDispatch(event, op, to: &out) { return }
        case .queue(let q, let key, let old, let new):
            if appendQueueChange(event, q, key, old: old, new: new, to: &out) { return }
        default:
            break
        }
        // An operation's change tells the context nothing.
        stallContext.record(event)
        appendGeneral(event, to: &out)
    }

    /// Any line, piece by piece: what the fast path of an operation's
    /// change must write byte for byte (`JSONLineEncoderTests`).
    func appendGeneral(_ event: LifecycleEvent, to out: inout [UInt8]) {
        out.appendLiteral(Field.seq.member)
        JSONBytes.appendInt(event.seq, to: &out)
        out.appendLiteral(Field.t.member)
        JSONBytes.appendSeconds(event.time, to: &out)
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            out.appendLiteral(LineKind.op.member)
            appendOperation(.op, op, to: &out)
            if !isByHand(op) { appendQueue(.queue, queueOfOperation[op.index], to: &out) }
            appendChange(Schema.word(key), old: old, new: new, to: &out)
            if let thread = event.thread { Self.appendThread(thread, to: &out) }
        case .queue(let q, let key, let old, let new):
            out.appendLiteral(LineKind.queue.member)
            appendQueue(.queue, q, to: &out)
            appendChange(Schema.word(key), old: old, new: new, to: &out)
        case .dispatched(let op):
            out.appendLiteral(LineKind.dispatched.member)
            appendOperation(.op, op, to: &out)
            appendQueue(.queue, queueOfOperation[op.index], to: &out)
        case .block(let op, let index, let phase, let thread):
            out.appendLiteral(LineKind.block.member)
            appendOperation(.op, op, to: &out)
            out.appendLiteral(Field.index.member)
            JSONBytes.appendInt(index, to: &out)
            out.appendLiteral(Field.phase.member)
            out.appendLiteral(Schema.word(phase))
            Self.appendThread(thread, to: &out)
        case .completion(let op, let thread):
            out.appendLiteral(LineKind.completion.member)
            appendOperation(.op, op, to: &out)
            Self.appendThread(thread, to: &out)
        case .action(let action, let origin, let ignored):
            out.appendLiteral(LineKind.action.member)
            appendAction(action, to: &out)
            out.appendLiteral(Field.origin.member)
            out.appendLiteral(OriginWord(origin).word)
            if case .completion(let op) = origin { appendOperation(.by, op, to: &out) }
            if let ignored {
                out.appendLiteral(Field.ignored.member)
                JSONBytes.appendQuoted(ignored.text, to: &out)
            }
        case .stranded(let op):
            out.appendLiteral(LineKind.stranded.member)
            appendOperation(.op, op, to: &out)
            if !isByHand(op) { appendQueue(.queue, queueOfOperation[op.index], to: &out) }
        case .leftover(let op, let phase):
            out.appendLiteral(LineKind.leftover.member)
            appendOperation(.op, op, to: &out)
            out.appendLiteral(Field.phase.member)
            out.appendLiteral(Schema.word(phase))
        case .mainThreadWait(let action, let phase):
            out.appendLiteral(LineKind.wait.member)
            appendAction(action, to: &out)
            out.appendLiteral(Field.phase.member)
            out.appendLiteral(Schema.word(phase))
        case .startCall(let op, let phase):
            out.appendLiteral(LineKind.call.member)
            appendAction(.start(op), to: &out)
            out.appendLiteral(Field.phase.member)
            out.appendLiteral(Schema.word(phase))
        case .caption(let index, let paused):
            out.appendLiteral(LineKind.caption.member)
            appendCaption(index, to: &out)
            if paused {
                out.appendLiteral(Field.paused.member)
                out.appendLiteral("true")
            }
        case .stall(let stuck):
            out.appendLiteral(LineKind.stall.member)
            appendStuck(stuck, waiting: true, to: &out)
            if writesCauses { appendCauses(stuck, waiting: true, to: &out) }
        case .end(.completed):
            out.appendLiteral(LineKind.end.member)
            out.appendLiteral(Field.status.member)
            out.appendLiteral(EndStatus.completed.word)
        case .end(.stalled(let stuck)):
            out.appendLiteral(LineKind.end.member)
            out.appendLiteral(Field.status.member)
            out.appendLiteral(EndStatus.stalled.word)
            appendStuck(stuck, waiting: false, to: &out)
            if writesCauses { appendCauses(stuck, waiting: false, to: &out) }
        }
        out.appendLiteral("}\n")
    }

    /// The line of an operation's change, the stream's commonest (some six
    /// an operation), written through a pointer into a small buffer and
    /// appended with one copy: piece by piece, each of its dozen appends
    /// checks the array's room and uniqueness. The same keys as
    /// `appendGeneral`, and the same bytes (a property test over random
    /// events holds it to them); false (nothing written) when a name is not
    /// in the table or too long for the buffer.
    private func appendOperationChange(
        _ event: LifecycleEvent, _ op: OperationID, _ key: OperationKey, old: KeyValue?, new: KeyValue,
        to out: inout [UInt8]
    ) -> Bool {
        let queue = queueOfOperation[op.index]
        return operationNames.withQuoted(op.index) { opName in
            queueNames.withQuoted(queue.index) { queueName in
                Self.appendLine(event, room: opName.count + queueName.count, to: &out) { line in
                    line.put(LineKind.op.member)
                    line.put(Field.op.member)
                    line.put(opName)
                    line.put(Field.queue.member)
                    line.put(queueName)
                    line.putChange(Schema.word(key), old: old, new: new)
                    if let thread = event.thread {
                        line.put(Field.thread.member)
                        line.putThread(thread)
                    }
                }
            } ?? false
        } ?? false
    }

    /// A dispatch's line, the same way as an operation's change (the
    /// stream has one an operation). Only the lines of operations and
    /// queues take a fast path; neither tells the stall context anything.
    private func appendDispatch(_ event: LifecycleEvent, _ op: OperationID, to out: inout [UInt8]) -> Bool {
        let queue = queueOfOperation[op.index]
        return operationNames.withQuoted(op.index) { opName in
            queueNames.withQuoted(queue.index) { queueName in
                Self.appendLine(event, room: opName.count + queueName.count, to: &out) { line in
                    line.put(LineKind.dispatched.member)
                    line.put(Field.op.member)
                    line.put(opName)
                    line.put(Field.queue.member)
                    line.put(queueName)
                }
            } ?? false
        } ?? false
    }

    /// A queue's change (its operation count, the commonest), the same way.
    private func appendQueueChange(
        _ event: LifecycleEvent, _ q: QueueID, _ key: QueueKey, old: KeyValue?, new: KeyValue, to out: inout [UInt8]
    ) -> Bool {
        queueNames.withQuoted(q.index) { queueName in
            Self.appendLine(event, room: queueName.count, to: &out) { line in
                line.put(LineKind.queue.member)
                line.put(Field.queue.member)
                line.put(queueName)
                line.putChange(Schema.word(key), old: old, new: new)
            }
        } ?? false
    }

    /// Writes `seq`, `t`, what `body` puts and the line's end into a small
    /// buffer, and appends it with one copy; false (nothing written) when
    /// names of `room` bytes would not fit beside the rest (two names, six
    /// numbers of up to 20 digits, two priorities and the literals take
    /// well under 256 bytes besides the names).
    private static func appendLine(
        _ event: LifecycleEvent, room: Int, to out: inout [UInt8], _ body: (inout ByteCursor) -> Void
    ) -> Bool {
        guard room + 256 <= lineRoom else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lineRoom) { buffer in
            var line = ByteCursor(buffer.baseAddress!)
            line.put(Field.seq.member)
            line.putInt(event.seq)
            line.put(Field.t.member)
            line.putSeconds(event.time)
            body(&line)
            line.put("}\n")
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: line.written(since: buffer)))
        }
        return true
    }

    @inline(__always) func isByHand(_ op: OperationID) -> Bool { !byHand.isEmpty && byHand[op.index] }

    /// The buffer an operation's change is written in.
    private static let lineRoom = 1024
}

extension ByteCursor {
    /// `,"key":"isReady","old":null,"new":true`: what
    /// `JSONLineEncoder.appendChange` writes, through the cursor.
    fileprivate mutating func putChange(_ key: StaticString, old: KeyValue?, new: KeyValue) {
        put(Field.key.member)
        put(key)
        put(Field.old.member)
        if let old { put(old) } else { put("null") }
        put(Field.new.member)
        put(new)
    }
}
