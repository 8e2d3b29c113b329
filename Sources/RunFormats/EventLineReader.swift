import FoundationRules
import RunEvents
import ScenarioKit

/// Why a line is not an event: where (an offset into the buffer, when the
/// problem has a place) and why.
struct LineError: Error, Sendable {
    var offset: Int?
    var message: String
    /// The line ended in the middle of its JSON.
    var atEnd = false

    /// `missing key 'seq'`.
    static func missingKey(_ name: String, offset: Int? = nil) -> LineError {
        LineError(offset: offset, message: "missing key '\(name)'")
    }
}

/// Reads one event line after another: the JSON, then the keys its kind
/// has, each value's type, the names, the order of `seq` and `t`, and
/// whether the event is a possible next step of its operation's life
/// (`LifeCheck`).
///
/// A line's members are kept in `slots` by key, so a line is read in any
/// key order with no allocation; the name tables are this reader's own,
/// read on every line.
struct EventLineReader {
    /// The buffer the lines are in; another one for each chunk of a
    /// stream (`RecordingStream`).
    var json: JSONReader
    var lookup: RecordingLookup
    /// Whether the lines tell a life each operation could have had.
    private var life: LifeCheck
    private var members: [JSONMember] = []
    private var slots: [JSONMember]
    private var present: UInt32 = 0
    private var lastSeq = 0
    private var lastTime = 0.0
    private var lastTimeValue: JSONValue?
    /// The line of the `end` event, once read.
    private(set) var endLine: Int?

    /// Key names by their first byte, for a lookup of a few comparisons.
    private let fieldsByFirstByte: [[(bytes: [UInt8], field: Field)]]
    private let kindWords = Schema.words(LineKind.allCases, \.member)
    private let allowedKeys = LineKind.allCases.map(\.allowed)
    let operationKeyWords = Schema.words(OperationKey.allCases) { Schema.word($0) }
    let queueKeyWords = Schema.words(QueueKey.allCases) { Schema.word($0) }
    let priorityWords = Words(PriorityLevel.allCases.map { ($0.rawValue, $0) })
    let phaseWords = Schema.words(Schema.blockPhases) { Schema.word($0) }
    let momentWords = Words(CaptionMoment.allCases.map { ($0.rawValue, $0) })
    let actionWords = Schema.words(ActionVerb.allCases, \.word)
    let originWords = Schema.words(OriginWord.allCases, \.word)
    let statusWords = Schema.words(EndStatus.allCases, \.word)
    /// A cap's `"default"`.
    let defaultWord = Schema.words([true]) { _ in Schema.defaultCap }

    init(bytes: UnsafeBufferPointer<UInt8>, scenario: Scenario) {
        json = JSONReader(bytes: bytes)
        lookup = RecordingLookup(scenario: scenario)
        life = LifeCheck(scenario: scenario)
        let placeholder = JSONMember(
            key: JSONValue(kind: .null, start: 0, end: 0), value: JSONValue(kind: .null, start: 0, end: 0))
        slots = Array(repeating: placeholder, count: Field.allCases.count)
        var table = Array(repeating: [(bytes: [UInt8], field: Field)](), count: 128)
        for field in Field.allCases {
            let bytes = Array(field.name.utf8)
            table[Int(bytes[0])].append((bytes, field))
        }
        fieldsByFirstByte = table
    }

    var scenario: Scenario { lookup.scenario }

    /// The event on `bytes[start..<end]`, line `number` of the file.
    mutating func event(_ start: Int, _ end: Int, line number: Int) throws(LineError) -> LifecycleEvent {
        guard (start..<end).contains(where: { !Self.isWhitespace(json.bytes[$0]) }) else {
            throw LineError(message: "a blank line")
        }
        members.removeAll(keepingCapacity: true)
        do {
            try json.readObject(from: start, to: end, into: &members)
        } catch {
            throw LineError(offset: error.offset, message: error.message, atEnd: error.atEnd)
        }
        if let endLine {
            throw LineError(message: "a line after the end of the run (line \(endLine)): nothing may follow it")
        }
        present = 0
        for member in members {
            guard let field = field(of: member.key) else {
                throw LineError(offset: member.key.start, message: "unknown key \(json.rawText(member.key))")
            }
            guard present & field.bit == 0 else {
                throw LineError(offset: member.key.start, message: "key '\(field.name)' appears twice")
            }
            slots[field.rawValue] = member
            present |= field.bit
        }
        let seq = try int(.seq)
        guard seq > lastSeq else {
            throw LineError(
                offset: slots[Field.seq.rawValue].value.start,
                message: lastSeq == 0
                    ? "seq \(seq): seq starts at 1 or later" : "seq \(seq) after seq \(lastSeq): seq must increase")
        }
        let time = try seconds()
        let kindValue = try value(.kind)
        guard let kind = word(kindValue, in: kindWords) else {
            let said = json.rawText(kindValue)
            throw LineError(
                offset: kindValue.start,
                message: said == #""header""# ? "a second header" : "unknown kind \(said)")
        }
        let extra = present & ~allowedKeys[kind.rawValue]
        if extra != 0, let field = Field.allCases.first(where: { extra & $0.bit != 0 }) {
            throw LineError(
                offset: slots[field.rawValue].key.start, message: "'\(field.name)' is not a key of \(kind.name) lines")
        }
        let (eventKind, thread) = try body(of: kind)
        let event = LifecycleEvent(seq: seq, time: time, kind: eventKind, thread: thread)
        if let fault = life.visit(event) {
            throw LineError(offset: place(fault.place)?.start, message: fault.message)
        }
        lastSeq = seq
        lastTime = time
        lastTimeValue = slots[Field.t.rawValue].value
        if kind == .end { endLine = number }
        return event
    }

    /// The value of the line that shows a fault of an operation's life.
    private func place(_ place: LifeCheck.Place) -> JSONValue? {
        let field: Field
        switch place {
        case .kind: field = .kind
        case .key: field = .key
        case .old: field = .old
        case .new: field = .new
        case .phase: field = .phase
        case .thread: field = .thread
        case .status: field = .status
        case .stuck: field = .stuck
        }
        return has(field) ? slots[field.rawValue].value : nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private func field(of key: JSONValue) -> Field? {
        json.withText(key) { bytes in
            guard let first = bytes.first, first < 128 else { return nil }
            for candidate in fieldsByFirstByte[Int(first)] where candidate.bytes.count == bytes.count {
                if candidate.bytes.elementsEqual(bytes) { return candidate.field }
            }
            return nil
        }
    }

    // MARK: - Values

    func has(_ field: Field) -> Bool { present & field.bit != 0 }

    func value(_ field: Field) throws(LineError) -> JSONValue {
        guard has(field) else { throw LineError.missingKey(field.name) }
        return slots[field.rawValue].value
    }

    /// The key and value of a key the line has.
    func member(_ field: Field) -> JSONMember { slots[field.rawValue] }

    /// `"fecth"`, `1e999`, `an object`: a value as a message shows it.
    func shown(_ value: JSONValue) -> String {
        switch value.kind {
        case .object, .array: return value.kindText
        default:
            let text = json.rawText(value)
            return text.count <= 40 ? text : "\(text.prefix(37))…"
        }
    }

    func int(_ field: Field) throws(LineError) -> Int {
        let v = try value(field)
        guard v.kind == .integer else {
            throw LineError(offset: v.start, message: "'\(field.name)' must be a whole number, not \(shown(v))")
        }
        guard let n = json.int(v) else {
            throw LineError(offset: v.start, message: "'\(field.name)' is \(shown(v)), too large for a whole number")
        }
        return n
    }

    func bool(_ v: JSONValue, _ what: @autoclosure () -> String) throws(LineError) -> Bool {
        switch v.kind {
        case .true: return true
        case .false: return false
        default: throw LineError(offset: v.start, message: "\(what()) must be true or false, not \(shown(v))")
        }
    }

    func text(_ field: Field) throws(LineError) -> String {
        let v = try value(field)
        guard v.kind == .string else {
            throw LineError(offset: v.start, message: "'\(field.name)' must be a string, not \(shown(v))")
        }
        return json.string(v)
    }

    /// `t`: finite, not negative, no later than a run can reach
    /// (`LifecycleEvent.latestTime`), never before the previous line's.
    private func seconds() throws(LineError) -> Double {
        let v = try value(.t)
        guard v.kind == .integer || v.kind == .number else {
            throw LineError(offset: v.start, message: "'t' must be a number of seconds, not \(shown(v))")
        }
        let t = json.double(v)
        guard t.isFinite else { throw LineError(offset: v.start, message: "'t' is \(shown(v)), not a finite number") }
        guard t.sign == .plus else {
            throw LineError(offset: v.start, message: "'t' is \(shown(v)): time is never negative")
        }
        guard t <= LifecycleEvent.latestTime else {
            throw LineError(
                offset: v.start,
                message: "'t' is \(shown(v)), later than any run reaches: a time is at most "
                    + "\(LifecycleEvent.latestTimeText) seconds (the longest duration the language writes, about 292 "
                    + "years)")
        }
        if t < lastTime, let last = lastTimeValue {
            throw LineError(
                offset: v.start, message: "t \(shown(v)) after t \(json.rawText(last)): time must not go backwards")
        }
        return t
    }

    /// The value of a string among `words`, or nil.
    func word<T>(_ v: JSONValue, in words: Words<T>) -> T? {
        guard v.kind == .string else { return nil }
        return json.withText(v) { words.find($0) }
    }

    func word<T>(_ field: Field, in words: Words<T>, _ what: @autoclosure () -> String) throws(LineError) -> T {
        let v = try value(field)
        guard let found = word(v, in: words) else {
            throw LineError(offset: v.start, message: "unknown \(what()) \(shown(v))")
        }
        return found
    }

    func operation(_ field: Field) throws(LineError) -> OperationID {
        OperationID(try name(field, wantsQueue: false))
    }

    func queue(_ field: Field) throws(LineError) -> QueueID {
        QueueID(try name(field, wantsQueue: true))
    }

    private func name(_ field: Field, wantsQueue: Bool) throws(LineError) -> Int {
        try name(of: value(field), "'\(field.name)'", wantsQueue: wantsQueue)
    }

    /// The index of the queue or operation a string value names.
    func name(of v: JSONValue, _ what: @autoclosure () -> String, wantsQueue: Bool) throws(LineError) -> Int {
        guard v.kind == .string else {
            throw LineError(offset: v.start, message: "\(what()) must be a name in quotes, not \(shown(v))")
        }
        let entry = json.withText(v) { lookup.names.find($0) }
        guard let entry, entry.isQueue == wantsQueue else {
            throw LineError(offset: v.start, message: lookup.unknownName(json.string(v), wantsQueue: wantsQueue))
        }
        return entry.index
    }

    func thread(_ field: Field) throws(LineError) -> ThreadTag {
        let v = try value(field)
        guard v.kind == .string, let tag = json.withText(v, Self.threadTag) else {
            throw LineError(offset: v.start, message: ##"'thread' must be "main" or "#N" (N from 1), not "## + shown(v))
        }
        return tag
    }

    /// `main` or `#N` as `ThreadTag.description` writes it (N ≥ 1, no
    /// leading zero, few enough digits to fit).
    private static func threadTag(_ bytes: UnsafeBufferPointer<UInt8>) -> ThreadTag? {
        if bytes.elementsEqual("main".utf8) { return .main }
        guard bytes.count >= 2, bytes.count <= 19, bytes[0] == UInt8(ascii: "#"), bytes[1] != UInt8(ascii: "0")
        else { return nil }
        var n = 0
        for byte in bytes.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return ThreadTag(n)
    }

    /// A change's value of `type`: `old` may also be null.
    func keyValue(_ field: Field, _ type: ValueType, of key: @autoclosure () -> String) throws(LineError) -> KeyValue? {
        let v = try value(field)
        // Said only when a value is wrong: this runs on every line.
        func what() -> String { "'\(field.name)' of \(key())" }
        switch (type, v.kind) {
        case (_, .null) where field == .old: return nil
        case (.bool, _): return .bool(try bool(v, what()))
        case (.int, .integer):
            guard let n = json.int(v) else {
                throw LineError(offset: v.start, message: "\(what()) is \(shown(v)), too large for a whole number")
            }
            return .int(n)
        case (.priority, .string):
            guard let level = word(v, in: priorityWords) else {
                throw LineError(offset: v.start, message: "unknown priority \(shown(v))")
            }
            return .priority(level)
        case (.int, _): throw LineError(offset: v.start, message: "\(what()) must be a whole number, not \(shown(v))")
        case (.priority, _): throw LineError(offset: v.start, message: "\(what()) must be a priority, not \(shown(v))")
        }
    }

    enum ValueType {
        case bool, int, priority
    }
}

/// A few words and what each stands for, matched against a string's bytes.
struct Words<T> {
    private let entries: [(bytes: [UInt8], value: T)]

    init(_ words: [(String, T)]) { entries = words.map { (Array($0.0.utf8), $0.1) } }

    func find(_ bytes: UnsafeBufferPointer<UInt8>) -> T? {
        for entry in entries where entry.bytes.count == bytes.count && entry.bytes.elementsEqual(bytes) {
            return entry.value
        }
        return nil
    }
}
