import RunEvents
import ScenarioKit

/// The pieces of a line, each with its key from the schema.
extension JSONLineEncoder {
    /// `,"FIELD":"NAME"`
    func appendOperation(_ field: Field, _ op: OperationID, to out: inout [UInt8]) {
        out.appendLiteral(field.member)
        operationNames.append(op.index, orQuote: scenario[operation: op].name, to: &out)
    }

    func appendQueue(_ field: Field, _ q: QueueID, to out: inout [UInt8]) {
        out.appendLiteral(field.member)
        queueNames.append(q.index, orQuote: scenario[queue: q].name, to: &out)
    }

    /// `,"key":"isReady","old":null,"new":true`
    func appendChange(_ key: StaticString, old: KeyValue?, new: KeyValue, to out: inout [UInt8]) {
        out.appendLiteral(Field.key.member)
        out.appendLiteral(key)
        out.appendLiteral(Field.old.member)
        if let old { Self.appendValue(old, to: &out) } else { out.appendLiteral("null") }
        out.appendLiteral(Field.new.member)
        Self.appendValue(new, to: &out)
    }

    static func appendValue(_ value: KeyValue, to out: inout [UInt8]) {
        JSONBytes.appendWritten(to: &out) { $0.put(value) }
    }

    /// `,"thread":"#3"`
    static func appendThread(_ thread: ThreadTag, to out: inout [UInt8]) {
        out.appendLiteral(Field.thread.member)
        JSONBytes.appendWritten(to: &out) { $0.putThread(thread) }
    }

    /// `,"action":"max","target":"net","value":4`
    func appendAction(_ action: Action, to out: inout [UInt8]) {
        out.appendLiteral(Field.action.member)
        out.appendLiteral(ActionVerb(action).word)
        switch action {
        case .cancel(let op), .add(let op), .wait(let op), .start(let op):
            appendOperation(.target, op, to: &out)
        case .cancelAll(let q), .suspend(let q), .resume(let q), .waitAll(let q):
            appendQueue(.target, q, to: &out)
        case .setCap(let q, let cap):
            appendQueue(.target, q, to: &out)
            out.appendLiteral(Field.value.member)
            if cap == .systemDefault {
                out.appendLiteral(Schema.defaultCap)
            } else {
                JSONBytes.appendInt(cap.foundationValue, to: &out)
            }
        case .setPriority(let op, let level):
            appendOperation(.target, op, to: &out)
            out.appendLiteral(Field.value.member)
            Self.appendValue(.priority(level), to: &out)
        case .addBatch(let ops):
            // One add of several: `"target":["a","b"]`.
            out.appendLiteral(Field.target.member)
            out.append(UInt8(ascii: "["))
            for (k, op) in ops.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                operationNames.append(op.index, orQuote: scenario[operation: op].name, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// `,"text":"…","op":"parse","moment":"started"`: what the caption
    /// says and, for a `when` caption, when.
    func appendCaption(_ index: Int, to out: inout [UInt8]) {
        guard scenario.captions.indices.contains(index) else { return }
        let caption = scenario.captions[index]
        out.appendLiteral(Field.text.member)
        JSONBytes.appendQuoted(caption.text, to: &out)
        if case .when(let op, let moment) = caption.trigger {
            appendOperation(.op, op, to: &out)
            out.appendLiteral(Field.moment.member)
            JSONBytes.appendQuoted(moment.rawValue, to: &out)
        }
    }

    /// `,"stuck":{"OP":"REASON",…}`, operations in scenario order.
    func appendStuck(_ stuck: [OperationID: StuckReason], waiting: Bool, to out: inout [UInt8]) {
        out.appendLiteral(Field.stuck.member)
        out.append(UInt8(ascii: "{"))
        for (n, op) in stuck.keys.sorted().enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            operationNames.append(op.index, orQuote: scenario[operation: op].name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONBytes.appendQuoted(stuck[op]!.clause(in: scenario, waiting: waiting), to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
