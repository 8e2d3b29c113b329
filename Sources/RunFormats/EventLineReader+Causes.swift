import RunEvents
import ScenarioKit

/// A stall's `causes`, read for its form and then left.
///
/// The causes are derived: the stuck map grouped by root cause with the
/// facts of the lines before (`StallCause.group`). So the event keeps the
/// stuck map only, and every reader of a recording (its text report, the
/// interface, a recording written again) groups it again; what a recording
/// says of its causes is never taken over that. The line is still held to
/// the form opscope writes, as every other key is: an array of causes, each
/// with known keys of the right types, names the scenario has, first names
/// that are stuck, and counts that add up to the stuck operations.
extension EventLineReader {
    func checkCauses(of stuck: [OperationID: StuckReason]) throws(LineError) {
        let v = try value(.causes)
        let causes = try elements(v, "'causes'", "an array of causes")
        var held = 0
        for cause in causes {
            held += try checkCause(cause, stuck: stuck)
        }
        guard held == stuck.count else {
            throw LineError(
                offset: v.start,
                message: "the causes hold \(held) operation\(held == 1 ? "" : "s"), but 'stuck' names \(stuck.count)")
        }
    }

    /// One cause; returns its count.
    private func checkCause(_ v: JSONValue, stuck: [OperationID: StuckReason]) throws(LineError) -> Int {
        let members = try keyed(v, "a cause", keys: CauseKey.allCases.map(\.rawValue))
        for key in [CauseKey.kind, .text, .count, .first] where members[key.rawValue] == nil {
            throw LineError(offset: v.start, message: "a cause has no '\(key.rawValue)'")
        }
        let kind = members[CauseKey.kind.rawValue]!
        guard kind.kind == .string, StallCause.Kind(rawValue: json.string(kind)) != nil else {
            throw LineError(offset: kind.start, message: "unknown kind of cause \(shown(kind))")
        }
        try string(members[CauseKey.text.rawValue]!, "the 'text' of a cause")
        let countValue = members[CauseKey.count.rawValue]!
        guard countValue.kind == .integer, let count = json.int(countValue), count >= 1 else {
            throw LineError(
                offset: countValue.start,
                message: "the 'count' of a cause must be a whole number from 1, not \(shown(countValue))")
        }
        let firstValue = members[CauseKey.first.rawValue]!
        let first = try elements(firstValue, "the 'first' of a cause", "an array of names")
        guard first.count == min(count, StallCause.namesShown) else {
            throw LineError(
                offset: firstValue.start,
                message: "a cause of \(count) operation\(count == 1 ? "" : "s") lists its first "
                    + "\(min(count, StallCause.namesShown)), not \(first.count)")
        }
        for name in first { try stuckOperation(name, "a name of a cause's 'first'", stuck: stuck) }
        if let q = members[CauseKey.queue.rawValue] {
            _ = try self.name(of: q, "the 'queue' of a cause", wantsQueue: true)
        }
        if let op = members[CauseKey.op.rawValue] { try stuckOperation(op, "the 'op' of a cause", stuck: stuck) }
        if let suspended = members[CauseKey.suspended.rawValue] {
            let inner = try keyed(suspended, "a cause's 'suspended'", keys: SuspendedKey.allCases.map(\.rawValue))
            try origin(inner[SuspendedKey.origin.rawValue], in: suspended, SuspendedOrigin.allCases)
            if let t = inner[SuspendedKey.t.rawValue] { try seconds(t, "the 't' of 'suspended'") }
            if let by = inner[SuspendedKey.by.rawValue] { _ = try operation(by, "'by'") }
        }
        if let resumes = members[CauseKey.resumes.rawValue] {
            for resume in try elements(resumes, "the 'resumes' of a cause", "an array of resumes") {
                let inner = try keyed(resume, "a resume", keys: ResumeKey.allCases.map(\.rawValue))
                try origin(inner[ResumeKey.origin.rawValue], in: resume, [.at, .completion])
                if let t = inner[ResumeKey.t.rawValue] { try seconds(t, "the 't' of a resume") }
                if let by = inner[ResumeKey.by.rawValue] { _ = try operation(by, "'by'") }
                if let held = inner[ResumeKey.held.rawValue] { try string(held, "the 'held' of a resume") }
                if let cycle = inner[ResumeKey.cycle.rawValue] { _ = try bool(cycle, "the 'cycle' of a resume") }
            }
        }
        return count
    }

    // MARK: - Pieces

    /// The values of an array.
    func elements(_ v: JSONValue, _ what: String, _ expected: String) throws(LineError) -> [JSONValue] {
        guard v.kind == .array else {
            throw LineError(offset: v.start, message: "\(what) must be \(expected), not \(shown(v))")
        }
        var values: [JSONValue] = []
        do {
            try json.elements(of: v, into: &values)
        } catch {
            throw LineError(offset: error.offset, message: error.message, atEnd: error.atEnd)
        }
        return values
    }

    /// The values of an object by key: only `keys`, each at most once.
    private func keyed(_ v: JSONValue, _ what: String, keys: [String]) throws(LineError) -> [String: JSONValue] {
        guard v.kind == .object else {
            throw LineError(offset: v.start, message: "\(what) must be an object, not \(shown(v))")
        }
        var members: [JSONMember] = []
        do {
            try json.members(of: v, into: &members)
        } catch {
            throw LineError(offset: error.offset, message: error.message, atEnd: error.atEnd)
        }
        var found: [String: JSONValue] = [:]
        for member in members {
            let key = json.string(member.key)
            guard keys.contains(key) else {
                throw LineError(offset: member.key.start, message: "unknown key \(json.rawText(member.key)) in \(what)")
            }
            guard found[key] == nil else {
                throw LineError(offset: member.key.start, message: "key '\(key)' appears twice in \(what)")
            }
            found[key] = member.value
        }
        return found
    }

    private func string(_ v: JSONValue, _ what: String) throws(LineError) {
        guard v.kind == .string else {
            throw LineError(offset: v.start, message: "\(what) must be a string, not \(shown(v))")
        }
    }

    private func seconds(_ v: JSONValue, _ what: String) throws(LineError) {
        let t = json.double(v)
        guard v.kind == .integer || v.kind == .number, t.isFinite, t.sign == .plus, t <= LifecycleEvent.latestTime
        else {
            throw LineError(offset: v.start, message: "\(what) must be a number of seconds, not \(shown(v))")
        }
    }

    private func operation(_ v: JSONValue, _ what: String) throws(LineError) -> OperationID {
        OperationID(try name(of: v, what, wantsQueue: false))
    }

    private func stuckOperation(_ v: JSONValue, _ what: String, stuck: [OperationID: StuckReason]) throws(LineError) {
        let op = try operation(v, what)
        guard stuck[op] != nil else {
            throw LineError(offset: v.start, message: "\(what) is '\(scenario.opName(op))', which is not stuck")
        }
    }

    /// An `origin` among `words`; required.
    private func origin(_ v: JSONValue?, in object: JSONValue, _ words: [SuspendedOrigin]) throws(LineError) {
        guard let v else { throw LineError.missingKey("origin", offset: object.start) }
        guard v.kind == .string, let word = SuspendedOrigin(rawValue: json.string(v)), words.contains(word) else {
            throw LineError(
                offset: v.start,
                message: "'origin' is \(words.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \(shown(v))")
        }
    }
}
