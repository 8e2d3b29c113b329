import FoundationRules
import RunEvents
import ScenarioKit

/// One event as `BoardHistory` keeps it: a fixed record of 32 bytes where a
/// `LifecycleEvent` takes 80 (its `Kind` is as large as its largest case,
/// an action with its origin and refusal), read back into the same
/// `LifecycleEvent`.
///
/// Nearly every event of a run is a key change of an operation or a queue,
/// and those fit: the subject as an `Int32`, the key and the two values as
/// one byte each, an integer value or a thread number in the two `Int32`s.
/// The rest (actions, captions' pauses aside, stalls, a stalled end, and
/// any number beyond an `Int32`) is kept whole in a table aside, and the
/// record says where (`Form.aside`).
struct EventRecord: Sendable, Hashable {
    var seq: Int
    var time: Double
    /// The operation or queue the event names; for `.aside`, its place in
    /// the table aside.
    var subject: Int32
    var form: Form
    /// The key (its place in `allCases`), a block's phase, or a caption's
    /// `paused` (1).
    var detail: UInt8 = 0
    /// The old and new values of a key change (`Code`).
    var old: UInt8 = 0
    var new: UInt8 = 0
    /// An operation's thread (`.operationOnThread`), a queue's old integer
    /// value, a block's index, a caption's index.
    var first: Int32 = 0
    /// A queue's new integer value, a block's or a completion's thread.
    var second: Int32 = 0

    enum Form: UInt8, Sendable, Hashable {
        case aside
        case operation
        /// An operation's key change announced from `first`'s thread.
        case operationOnThread
        case queue
        case block
        case completion
        case dispatched
        case caption
        case completed
    }

    /// The record of `event`, or nil when it does not fit one.
    init?(_ event: LifecycleEvent) {
        seq = event.seq
        time = event.time
        subject = 0
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            guard let subject = Int32(exactly: op.index), let detail = Self.operationKeys.firstIndex(of: key),
                let old = Self.code(old), let new = Self.code(new)
            else { return nil }
            (self.subject, self.detail, self.old, self.new) = (subject, UInt8(detail), old, new)
            form = .operation
            if let thread = event.thread {
                guard let number = Int32(exactly: thread.number) else { return nil }
                form = .operationOnThread
                first = number
            }
            return
        case .queue(let q, let key, let old, let new):
            guard let subject = Int32(exactly: q.index), let detail = Self.queueKeys.firstIndex(of: key),
                let was = Self.codeAndNumber(old), let now = Self.codeAndNumber(new)
            else { return nil }
            (self.subject, self.detail) = (subject, UInt8(detail))
            (self.old, first) = was
            (self.new, second) = now
            form = .queue
        case .block(let op, let index, let phase, let thread):
            guard let subject = Int32(exactly: op.index), let first = Int32(exactly: index),
                let second = Int32(exactly: thread.number)
            else { return nil }
            (self.subject, self.first, self.second) = (subject, first, second)
            detail = phase == .started ? 0 : 1
            form = .block
        case .completion(let op, let thread):
            guard let subject = Int32(exactly: op.index), let second = Int32(exactly: thread.number) else {
                return nil
            }
            (self.subject, self.second) = (subject, second)
            form = .completion
        case .dispatched(let op):
            guard let subject = Int32(exactly: op.index) else { return nil }
            self.subject = subject
            form = .dispatched
        case .caption(let index, let paused):
            guard let first = Int32(exactly: index) else { return nil }
            self.first = first
            detail = paused ? 1 : 0
            form = .caption
        case .end(.completed):
            form = .completed
        case .action, .mainThreadWait, .startCall, .leftover, .stranded, .stall, .end(.stalled):
            return nil
        }
        // Only an operation's key change carries a thread of its own.
        if event.thread != nil { return nil }
    }

    /// The record of an event kept in the table aside at `place`.
    init(aside event: LifecycleEvent, at place: Int32) {
        seq = event.seq
        time = event.time
        subject = place
        form = .aside
    }

    /// The event this record holds; `aside` is the table of whole ones.
    /// (A new value always has a code other than `noValue`: the `?? .int(0)`
    /// below is never taken.)
    func event(aside: [LifecycleEvent]) -> LifecycleEvent {
        let kind: LifecycleEvent.Kind
        var thread: ThreadTag?
        switch form {
        case .aside:
            return aside[Int(subject)]
        case .operation, .operationOnThread:
            let op = OperationID(Int(subject))
            kind = .operation(op, Self.operationKeys[Int(detail)], old: value(old, 0), new: value(new, 0) ?? .int(0))
            if form == .operationOnThread { thread = ThreadTag(Int(first)) }
        case .queue:
            let q = QueueID(Int(subject))
            kind = .queue(q, Self.queueKeys[Int(detail)], old: value(old, first), new: value(new, second) ?? .int(0))
        case .block:
            let phase: BlockPhase = detail == 0 ? .started : .returned
            kind = .block(OperationID(Int(subject)), index: Int(first), phase: phase, thread: ThreadTag(Int(second)))
        case .completion:
            kind = .completion(OperationID(Int(subject)), thread: ThreadTag(Int(second)))
        case .dispatched:
            kind = .dispatched(OperationID(Int(subject)))
        case .caption:
            kind = .caption(Int(first), paused: detail == 1)
        case .completed:
            kind = .end(.completed)
        }
        return LifecycleEvent(seq: seq, time: time, kind: kind, thread: thread)
    }

    // MARK: - Values

    // A value as one byte: none (no old value), false, true, an integer
    // (held in `first` or `second`), or a priority (its place in
    // `allCases`, from `priorityCode`).
    private static let noValue: UInt8 = 0
    private static let falseCode: UInt8 = 1
    private static let trueCode: UInt8 = 2
    private static let intCode: UInt8 = 3
    private static let priorityCode: UInt8 = 4

    private static let operationKeys = OperationKey.allCases
    private static let queueKeys = QueueKey.allCases
    private static let priorities = PriorityLevel.allCases

    /// The code of a value that is not an integer; nil for an integer.
    private static func code(_ value: KeyValue?) -> UInt8? {
        switch value {
        case nil: noValue
        case .bool(let b): b ? trueCode : falseCode
        case .priority(let p): priorities.firstIndex(of: p).map { priorityCode + UInt8($0) }
        case .int: nil
        }
    }

    /// The code of any value, with the integer it holds (0 for others);
    /// nil for an integer beyond an `Int32`.
    private static func codeAndNumber(_ value: KeyValue?) -> (UInt8, Int32)? {
        guard case .int(let n) = value else { return code(value).map { ($0, 0) } }
        return Int32(exactly: n).map { (intCode, $0) }
    }

    private func value(_ code: UInt8, _ number: Int32) -> KeyValue? {
        switch code {
        case Self.noValue: nil
        case Self.falseCode: .bool(false)
        case Self.trueCode: .bool(true)
        case Self.intCode: .int(Int(number))
        default: .priority(Self.priorities[Int(code - Self.priorityCode)])
        }
    }
}
