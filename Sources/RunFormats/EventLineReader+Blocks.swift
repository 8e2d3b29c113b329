import RunEvents
import ScenarioKit

/// The lines a trace writes after `end`: one `main-blocked` summary per
/// wait that blocked the main thread longer than 100 ms. Read and checked
/// like an event line (known keys once each, their types, the names), and
/// nothing else may follow `end`.
extension EventLineReader {
    /// Whether the `end` line was read: what follows is a summary.
    var hasEnded: Bool { endLine != nil }

    /// The summary on `bytes[start..<end]`, a line after `end`.
    func mainThreadBlock(_ start: Int, _ end: Int) throws(LineError) -> MainThreadBlockRecord {
        var members: [JSONMember] = []
        do {
            try json.readObject(from: start, to: end, into: &members)
        } catch {
            throw LineError(offset: error.offset, message: error.message, atEnd: error.atEnd)
        }
        let kind = members.first { json.string($0.key) == BlockField.kind.name }?.value
        guard let kind, kind.kind == .string, json.string(kind) == Schema.word(inMember: BlockField.blockKind) else {
            throw LineError(
                offset: kind?.start,
                message: "a line after the end of the run (line \(endLine ?? 0)): only main-blocked summaries may "
                    + "follow it")
        }
        var values: [BlockField: JSONValue] = [:]
        for member in members {
            let key = json.string(member.key)
            guard let field = BlockField.allCases.first(where: { $0.name == key }) else {
                throw LineError(offset: member.key.start, message: "'\(key)' is not a key of main-blocked lines")
            }
            guard values[field] == nil else {
                throw LineError(offset: member.key.start, message: "key '\(key)' appears twice")
            }
            values[field] = member.value
        }
        func required(_ field: BlockField) throws(LineError) -> JSONValue {
            guard let v = values[field] else { throw LineError.missingKey(field.name) }
            return v
        }
        func seconds(_ field: BlockField) throws(LineError) -> Double {
            let v = try required(field)
            guard v.kind == .integer || v.kind == .number else {
                throw LineError(
                    offset: v.start, message: "'\(field.name)' must be a number of seconds, not \(shown(v))")
            }
            let t = json.double(v)
            guard t.isFinite, t.sign == .plus, t <= LifecycleEvent.latestTime else {
                throw LineError(offset: v.start, message: "'\(field.name)' is \(shown(v)), not a time of a run")
            }
            return t
        }
        let began = try seconds(.t)
        var returned: Double?
        if try required(.until).kind != .null {
            let until = try seconds(.until)
            guard until >= began else {
                throw LineError(
                    offset: values[.until]?.start, message: "'until' is before 't': a wait returns after it began")
            }
            returned = until
        }
        let lasted = try seconds(.seconds)
        let verb = try required(.action)
        let target = try required(.target)
        let action: Action
        switch word(verb, in: actionWords) {
        case .wait?: action = .wait(OperationID(try name(of: target, "'target'", wantsQueue: false)))
        case .waitAll?: action = .waitAll(QueueID(try name(of: target, "'target'", wantsQueue: true)))
        default:
            throw LineError(offset: verb.start, message: "the 'action' of a main-blocked line is wait or wait-all")
        }
        var line: Int?
        if let v = values[.line] {
            guard v.kind == .integer, let n = json.int(v), n >= 1 else {
                throw LineError(offset: v.start, message: "'line' must be a line number (1 or more), not \(shown(v))")
            }
            line = n
        }
        return MainThreadBlockRecord(action: action, began: began, returned: returned, seconds: lasted, line: line)
    }
}
