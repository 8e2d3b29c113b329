import RunEvents
import ScenarioKit

// The recording's schema (SCENARIO-LANGUAGE.md, "The event stream" and
// "Recordings"), written once and used by both sides: `JSONLineEncoder`
// writes its keys and words from these tables and `EventLineReader`,
// `RecordingDecoder` read by them. A key is a case here, with its
// spelling in one switch (the compiler asks for it), and each kind of
// line lists its keys in the order they are written: the decoder accepts
// no other, and `RecordingSchemaTests` holds the encoder to writing every
// listed key of a kind and no other, in that order.

/// The keys an event line may have.
enum Field: Int, CaseIterable, Sendable {
    case seq, t, kind, op, queue, key, old, new, thread, index, phase, action, target, value, origin, by, ignored
    case text, moment, paused, stuck, status, causes

    /// The key as the encoder writes it after the value before it:
    /// `,"op":` (`{"seq":` for the first key of every line).
    var member: StaticString {
        switch self {
        case .seq: #"{"seq":"#
        case .t: #","t":"#
        case .kind: #","kind":"#
        case .op: #","op":"#
        case .queue: #","queue":"#
        case .key: #","key":"#
        case .old: #","old":"#
        case .new: #","new":"#
        case .thread: #","thread":"#
        case .index: #","index":"#
        case .phase: #","phase":"#
        case .action: #","action":"#
        case .target: #","target":"#
        case .value: #","value":"#
        case .origin: #","origin":"#
        case .by: #","by":"#
        case .ignored: #","ignored":"#
        case .text: #","text":"#
        case .moment: #","moment":"#
        case .paused: #","paused":"#
        case .stuck: #","stuck":"#
        case .status: #","status":"#
        case .causes: #","causes":"#
        }
    }

    /// The key itself: `op`.
    var name: String { Schema.name(inMember: member) }

    var bit: UInt32 { 1 << UInt32(rawValue) }

    static func mask(_ fields: [Field]) -> UInt32 { fields.reduce(0) { $0 | $1.bit } }
}

/// What a line's `kind` says it is.
enum LineKind: Int, CaseIterable, Sendable {
    case op, queue, dispatched, block, completion, leftover, stranded, action, wait, call, caption, stall, end

    /// `"kind":` and its value, as written: `,"kind":"op"`.
    var member: StaticString {
        switch self {
        case .op: #","kind":"op""#
        case .queue: #","kind":"queue""#
        case .dispatched: #","kind":"dispatched""#
        case .block: #","kind":"block""#
        case .completion: #","kind":"completion""#
        case .leftover: #","kind":"leftover""#
        case .stranded: #","kind":"stranded""#
        case .action: #","kind":"action""#
        case .wait: #","kind":"wait""#
        case .call: #","kind":"call""#
        case .caption: #","kind":"caption""#
        case .stall: #","kind":"stall""#
        case .end: #","kind":"end""#
        }
    }

    /// The kind's word: `op`.
    var name: String { Schema.word(inMember: member) }

    /// Every key a line of this kind may have, in the order it is written.
    var keys: [Field] {
        let common: [Field] = [.seq, .t, .kind]
        switch self {
        // An operation started by hand is in no queue: its lines have no `queue`.
        case .op: return common + [.op, .queue, .key, .old, .new, .thread]
        case .queue: return common + [.queue, .key, .old, .new]
        case .dispatched: return common + [.op, .queue]
        case .block: return common + [.op, .index, .phase, .thread]
        case .completion: return common + [.op, .thread]
        case .leftover: return common + [.op, .phase]
        case .stranded: return common + [.op, .queue]
        case .action: return common + [.action, .target, .value, .origin, .by, .ignored]
        case .wait: return common + [.action, .target, .phase]
        case .call: return common + [.action, .target, .phase]
        case .caption: return common + [.text, .op, .moment, .paused]
        case .stall: return common + [.stuck, .causes]
        case .end: return common + [.status, .stuck, .causes]
        }
    }

    /// `keys` as bits of `Field`.
    var allowed: UInt32 { Field.mask(keys) }
}

/// The keys of a recording's first line, in the order they are written.
/// `dispatches` only when the run observed no moment of dispatch (its
/// value is then `dispatchesAtStart`): a header without it is a run
/// that did (or, in version 1, one that claims no dispatch at all).
enum HeaderField: CaseIterable, Sendable {
    case kind, format, version, opscope, language, path, source, dispatches

    /// As written, after the value before it: `,"version":`.
    var member: StaticString {
        switch self {
        case .kind: #"{"kind":"#
        case .format: #","format":"#
        case .version: #","version":"#
        case .opscope: #","opscope":"#
        case .language: #","language":"#
        case .path: #","path":"#
        case .source: #","source":"#
        case .dispatches: #","dispatches":"#
        }
    }

    var name: String { Schema.name(inMember: member) }

    /// Written only when it says something (`dispatches`).
    var isOptional: Bool { self == .dispatches }

    /// The value of `dispatches`: each `dispatched` line came as its
    /// operation started, no moment of dispatch was observed.
    static let dispatchesAtStart = "at-start"

    /// The value of `kind` in a header.
    static let headerKind: StaticString = #""header""#
}

/// The words of an action line's `action`.
enum ActionVerb: CaseIterable, Sendable {
    case cancel, cancelAll, suspend, resume, max, priority, add, wait, waitAll, start

    init(_ action: Action) {
        switch action {
        case .cancel: self = .cancel
        case .cancelAll: self = .cancelAll
        case .suspend: self = .suspend
        case .resume: self = .resume
        case .setCap: self = .max
        case .setPriority: self = .priority
        case .add, .addBatch: self = .add
        case .wait: self = .wait
        case .waitAll: self = .waitAll
        case .start: self = .start
        }
    }

    /// In quotes, as written.
    var word: StaticString {
        switch self {
        case .cancel: #""cancel""#
        case .cancelAll: #""cancel-all""#
        case .suspend: #""suspend""#
        case .resume: #""resume""#
        case .max: #""max""#
        case .priority: #""priority""#
        case .add: #""add""#
        case .wait: #""wait""#
        case .waitAll: #""wait-all""#
        case .start: #""start""#
        }
    }
}

/// The words of an action line's `origin`.
enum OriginWord: CaseIterable, Sendable {
    case at, completion, user, start

    init(_ origin: ActionOrigin) {
        switch origin {
        case .timed: self = .at
        case .completion: self = .completion
        case .user: self = .user
        case .startBatch: self = .start
        }
    }

    var word: StaticString {
        switch self {
        case .at: #""at""#
        case .completion: #""completion""#
        case .user: #""user""#
        case .start: #""start""#
        }
    }
}

/// The words of an end line's `status`.
enum EndStatus: CaseIterable, Sendable {
    case completed, stalled

    var word: StaticString {
        switch self {
        case .completed: #""completed""#
        case .stalled: #""stalled""#
        }
    }
}

/// The words of the values the stream spells with a Swift name: an
/// operation's or a queue's key, a block's phase.
enum Schema {
    static func word(_ key: OperationKey) -> StaticString {
        switch key {
        case .isReady: #""isReady""#
        case .isExecuting: #""isExecuting""#
        case .isFinished: #""isFinished""#
        case .isCancelled: #""isCancelled""#
        case .queuePriority: #""queuePriority""#
        }
    }

    static func word(_ key: QueueKey) -> StaticString {
        switch key {
        case .isSuspended: #""isSuspended""#
        case .maxConcurrentOperationCount: #""maxConcurrentOperationCount""#
        case .operationCount: #""operationCount""#
        }
    }

    static func word(_ phase: BlockPhase) -> StaticString {
        switch phase {
        case .started: #""started""#
        case .returned: #""returned""#
        }
    }

    static let blockPhases: [BlockPhase] = [.started, .returned]

    /// A cap the system decides: `"value":"default"`.
    static let defaultCap: StaticString = #""default""#

    /// `op` of `,"op":` (or `{"seq":`).
    static func name(inMember member: StaticString) -> String {
        let text = member.description
        return String(text.dropFirst(2).dropLast(2))
    }

    /// `op` of `,"kind":"op"`, or of `"op"`.
    static func word(inMember member: StaticString) -> String {
        let text = member.description
        let value = text.split(separator: ":", maxSplits: 1).last ?? Substring(text)
        return String(value.dropFirst().dropLast())
    }

    /// A table of words for the reader, from the words as written.
    static func words<T>(_ values: [T], _ word: (T) -> StaticString) -> Words<T> {
        Words(values.map { (Self.word(inMember: word($0)), $0) })
    }
}
