import ScenarioKit

/// When something was announced: the event's sequence number (which orders
/// events) and its scenario time in seconds (which is shown).
public struct Stamp: Sendable, Hashable {
    public var seq: Int
    public var time: Double

    public init(seq: Int, time: Double) {
        self.seq = seq
        self.time = time
    }
}

/// The moments of one operation's life, each with one definition, the
/// same for the expectations, the quiz, the timeline, the thread view and
/// the exports (docs/SCENARIO-LANGUAGE.md, "The moments of a run"):
///
/// - `added`: its initial `isReady` notification (the add);
/// - `ready`: the first `isReady` true — at the add, or when its last
///   dependency finished, or when it was cancelled (in a run `isReady`
///   never turns back to false);
/// - `dispatched`: its `dispatched` event;
/// - `started`: its first `isExecuting` true, and `thread`, the thread
///   that announced it;
/// - `stopped`: the end of its execution: the first `isExecuting` false
///   after the start, or its finish if that comes first;
/// - `finished`: its first `isFinished` true; `cancelled`: its first
///   `isCancelled` true.
///
/// A stream that says a moment twice (which `LifeCheck` refuses in a
/// recording) keeps the first.
public struct OperationMoments: Sendable, Hashable {
    public var added: Stamp?
    public var ready: Stamp?
    public var dispatched: Stamp?
    public var started: Stamp?
    public var thread: ThreadTag?
    public var stopped: Stamp?
    public var finished: Stamp?
    public var cancelled: Stamp?

    public init() {}

    /// Takes the event, if it is about this operation's life: `kind` is an
    /// `.operation` or a `.dispatched` of this operation.
    public mutating func record(_ kind: LifecycleEvent.Kind, at stamp: Stamp, thread: ThreadTag?) {
        switch kind {
        case .operation(_, let key, let old, let new):
            switch (key, new) {
            case (.isReady, .bool(let ready)):
                if old == nil, added == nil { added = stamp }
                if ready, self.ready == nil { self.ready = stamp }
            case (.isExecuting, .bool(true)):
                if started == nil {
                    started = stamp
                    self.thread = thread
                }
            case (.isExecuting, .bool(false)):
                if started != nil, stopped == nil { stopped = stamp }
            case (.isFinished, .bool(true)):
                if finished == nil { finished = stamp }
                if started != nil, stopped == nil { stopped = stamp }
            case (.isCancelled, .bool(true)):
                if cancelled == nil { cancelled = stamp }
            default:
                break
            }
        case .dispatched:
            if dispatched == nil { dispatched = stamp }
        default:
            break
        }
    }

    /// Executing at the moment after this stamp's event: started, not
    /// stopped.
    public var isExecuting: Bool { started != nil && stopped == nil }
}
