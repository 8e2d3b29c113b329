import RunEvents
import ScenarioKit

/// A stall's `causes`: its stuck operations grouped by root cause
/// (`StallCause`), from the stuck map and the lines before it.
extension JSONLineEncoder {
    /// `,"causes":[{"kind":"deadlock","text":"…","count":102,"first":[…],…},…]`
    func appendCauses(_ stuck: [OperationID: StuckReason], waiting: Bool, to out: inout [UInt8]) {
        let causes = StallCause.group(stuck, in: scenario, context: stallContext)
        out.appendLiteral(Field.causes.member)
        out.append(UInt8(ascii: "["))
        for (n, cause) in causes.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            appendCause(cause, waiting: waiting, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private func appendCause(_ cause: StallCause, waiting: Bool, to out: inout [UInt8]) {
        var object = JSONObjectBytes()
        object.key(CauseKey.kind.rawValue, to: &out)
        JSONBytes.appendQuoted(cause.kind.rawValue, to: &out)
        object.key(CauseKey.text.rawValue, to: &out)
        JSONBytes.appendQuoted(cause.text(in: scenario, waiting: waiting), to: &out)
        object.key(CauseKey.count.rawValue, to: &out)
        JSONBytes.appendInt(cause.count, to: &out)
        object.key(CauseKey.first.rawValue, to: &out)
        out.append(UInt8(ascii: "["))
        for (n, op) in cause.operations.prefix(StallCause.namesShown).enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            appendName(op, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let q = cause.queue(in: scenario) {
            object.key(CauseKey.queue.rawValue, to: &out)
            queueNames.append(q.index, orQuote: scenario[queue: q].name, to: &out)
        }
        if let op = cause.root.operation {
            object.key(CauseKey.op.rawValue, to: &out)
            appendName(op, to: &out)
        }
        if let suspension = cause.suspension {
            appendSuspended(suspension.by, object: &object, to: &out)
            object.key(CauseKey.resumes.rawValue, to: &out)
            out.append(UInt8(ascii: "["))
            for (n, resume) in suspension.resumes.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                appendResume(resume, about: cause, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        object.close(&out)
    }

    /// `,"suspended":{"t":4.022,"origin":"completion","by":"a12-p1"}`;
    /// nothing when the lines before do not say.
    private func appendSuspended(_ by: StallCause.Suspension.By, object: inout JSONObjectBytes, to out: inout [UInt8]) {
        var inner = JSONObjectBytes()
        switch by {
        case .unknown:
            return
        case .declared:
            object.key(CauseKey.suspended.rawValue, to: &out)
            inner.key(SuspendedKey.origin.rawValue, to: &out)
            JSONBytes.appendQuoted(SuspendedOrigin.start.rawValue, to: &out)
        case .action(let suspension):
            object.key(CauseKey.suspended.rawValue, to: &out)
            inner.key(SuspendedKey.t.rawValue, to: &out)
            JSONBytes.appendSeconds(suspension.time, to: &out)
            inner.key(SuspendedKey.origin.rawValue, to: &out)
            switch suspension.origin {
            case .timed, .startBatch: JSONBytes.appendQuoted(SuspendedOrigin.at.rawValue, to: &out)
            case .user: JSONBytes.appendQuoted(SuspendedOrigin.user.rawValue, to: &out)
            case .completion(let op):
                JSONBytes.appendQuoted(SuspendedOrigin.completion.rawValue, to: &out)
                inner.key(SuspendedKey.by.rawValue, to: &out)
                appendName(op, to: &out)
            }
        }
        inner.close(&out)
    }

    /// `{"origin":"at","t":6.000}` (still to come) or
    /// `{"origin":"completion","by":"a12-sheet","held":"…","cycle":true}`.
    private func appendResume(_ resume: StallCause.Resume, about cause: StallCause, to out: inout [UInt8]) {
        var object = JSONObjectBytes()
        object.key(ResumeKey.origin.rawValue, to: &out)
        switch resume.origin {
        case .timed(let index):
            JSONBytes.appendQuoted(SuspendedOrigin.at.rawValue, to: &out)
            if scenario.actions.indices.contains(index) {
                object.key(ResumeKey.t.rawValue, to: &out)
                JSONBytes.appendSeconds(scenario.actions[index].time.seconds, to: &out)
            }
        case .completion(let op):
            JSONBytes.appendQuoted(SuspendedOrigin.completion.rawValue, to: &out)
            object.key(ResumeKey.by.rawValue, to: &out)
            appendName(op, to: &out)
        case .user:
            JSONBytes.appendQuoted(SuspendedOrigin.user.rawValue, to: &out)
        case .startBatch:
            JSONBytes.appendQuoted(SuspendedOrigin.at.rawValue, to: &out)
        }
        if let hold = resume.hold, case .suspension(let q) = cause.root {
            object.key(ResumeKey.held.rawValue, to: &out)
            JSONBytes.appendQuoted(StallCause.holdText(hold, about: q, in: scenario), to: &out)
            object.key(ResumeKey.cycle.rawValue, to: &out)
            out.appendLiteral(hold.cycle ? "true" : "false")
        }
        object.close(&out)
    }

    private func appendName(_ op: OperationID, to out: inout [UInt8]) {
        operationNames.append(op.index, orQuote: scenario[operation: op].name, to: &out)
    }
}
