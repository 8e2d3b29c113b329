import RunEvents
import ScenarioKit
import TextKit

/// One run as `RunDiff` compares it, gathered in one pass over its stream:
/// its steps, in stream order, and every operation's facts (`RunFacts`).
///
/// A *step* is an event that says what the run did: an operation started
/// (on the main thread or a worker), was cancelled, finished (cancelled or
/// not), its completion block ran; an action was performed (and whether
/// the engine ignored it); the run stalled or ended. Everything is named,
/// not numbered, so that runs of two different files compare by
/// operation name. The rest of the stream is left out: adds, readiness,
/// dispatches and queue counts are bookkeeping around those steps, seen
/// from other threads a moment later or sooner in every run (an add races
/// the first start in most runs of the library), execution blocks
/// run one after another inside their operation, and captions are words
/// for the learner, not something the run did.
///
/// Thread numbers are left out too: a thread is `#N` in the order the run
/// first saw it, and which worker the pool hands an operation is the
/// pool's choice, so a step keeps only whether it ran on the main thread.
///
/// An `EventReader`: the interface can keep one beside its board, and
/// keep the previous run's when `r` starts a new one.
public struct RunSteps: Sendable {
    /// Where a start or a completion block ran.
    public enum ThreadPlace: String, Sendable, Hashable {
        case main
        case worker
    }

    /// What a step did, in names.
    public enum What: Sendable, Hashable {
        /// Its first `isExecuting` true; the place is nil when the stream
        /// did not say which thread.
        case started(String, on: ThreadPlace?)
        /// Its first `isCancelled` true.
        case cancelled(String)
        /// Its first `isFinished` true; `cancelled`: `isCancelled` was true
        /// by then.
        case finished(String, cancelled: Bool)
        case completion(String, on: ThreadPlace)
        /// The action in the language's words, who did it (without the
        /// file's line, which two files need not share) and what the engine
        /// ignored: `cancel token (at 300ms; ignored: already finished)`.
        case action(String)
        /// The main thread began or came back from a wait (`wait`,
        /// `wait-all`), in the trace's words.
        case wait(String)
        /// The main thread called an operation's `start()` by hand, or the
        /// call returned (`start`), in the trace's words.
        case call(String)
        /// A stall the interface waits at, its stuck operations with their
        /// reasons in name order.
        case stall(String)
        /// `completed`, or `stalled — a: REASON; b: REASON`.
        case end(String)
    }

    /// A step and the event that made it.
    public struct Step: Sendable, Hashable {
        public var what: What
        public var event: LifecycleEvent

        public init(what: What, event: LifecycleEvent) {
            self.what = what
            self.event = event
        }
    }

    public let scenario: Scenario
    /// The steps, in the order of the stream.
    public private(set) var steps: [Step] = []
    /// Every operation's facts: its moments, thread and final state.
    public private(set) var facts: RunFacts
    /// Per operation: whether its `isExecuting`, `isCancelled` and
    /// `isFinished` true were seen (`startedBit`, `cancelledBit`,
    /// `finishedBit`), so that each step is taken once, the first, as
    /// `OperationMoments` takes its moments.
    private var seen: [UInt8]
    private static let startedBit: UInt8 = 1
    private static let cancelledBit: UInt8 = 2
    private static let finishedBit: UInt8 = 4

    public init(scenario: Scenario) {
        self.scenario = scenario
        facts = RunFacts(scenario: scenario)
        seen = Array(repeating: 0, count: scenario.operations.count)
    }

    public init(scenario: Scenario, events: some Sequence<LifecycleEvent>) {
        self.init(scenario: scenario)
        for event in events { record(event) }
    }

    /// Events read so far.
    public var eventCount: Int { facts.eventCount }

    /// Takes the next event of the run.
    public mutating func record(_ event: LifecycleEvent) {
        facts.record(event)
        if let what = what(of: event) { steps.append(Step(what: what, event: event)) }
    }

    private mutating func what(of event: LifecycleEvent) -> What? {
        switch event.kind {
        case .operation(let op, let key, _, .bool(true)) where scenario.contains(op):
            let name = scenario[operation: op].name
            let was = seen[op.index]
            switch key {
            case .isExecuting where was & Self.startedBit == 0:
                seen[op.index] |= Self.startedBit
                return .started(name, on: event.thread.map(Self.place))
            case .isCancelled where was & Self.cancelledBit == 0:
                seen[op.index] |= Self.cancelledBit
                return .cancelled(name)
            case .isFinished where was & Self.finishedBit == 0:
                seen[op.index] |= Self.finishedBit
                return .finished(name, cancelled: was & Self.cancelledBit != 0)
            default:
                return nil
            }
        case .completion(let op, let thread) where scenario.contains(op):
            return .completion(scenario[operation: op].name, on: Self.place(thread))
        case .action(let action, let origin, let ignored):
            let ignoredText = ignored.map { "; ignored: " + $0.text } ?? ""
            return .action(
                ScenarioPrinter.actionText(action, in: scenario) + " (" + originWords(origin) + ignoredText + ")")
        case .mainThreadWait(let action, let phase):
            return .wait(EventFormatter.waitText(action, phase, in: scenario))
        case .startCall(let op, let phase) where scenario.contains(op):
            return .call(EventFormatter.startCallText(op, phase, in: scenario))
        case .stall(let stuck):
            return .stall(stuckWords(stuck, waiting: true))
        case .end(.completed):
            return .end("completed")
        case .end(.stalled(let stuck)):
            return .end("stalled — " + stuckWords(stuck, waiting: false))
        default:
            return nil
        }
    }

    private static func place(_ thread: ThreadTag) -> ThreadPlace { thread.isMain ? .main : .worker }

    /// Who did an action, in the trace's words less the file's line: `at
    /// 300ms`, `completion block of save`, `key pressed`.
    private func originWords(_ origin: ActionOrigin) -> String {
        switch origin {
        case .timed(let index) where scenario.actions.indices.contains(index):
            "at " + Spelling.duration(scenario.actions[index].time)
        case .timed: "at an 'at' line"
        case .completion(let op) where scenario.contains(op): "completion block of " + scenario[operation: op].name
        case .completion: "a completion block"
        case .user: "key pressed"
        case .startBatch: "at the start"
        }
    }

    /// `a: REASON; b: REASON`, in name order.
    private func stuckWords(_ stuck: [OperationID: StuckReason], waiting: Bool) -> String {
        stuck.filter { scenario.contains($0.key) }
            .map { (scenario[operation: $0.key].name, $0.value.clause(in: scenario, waiting: waiting)) }
            .sorted { $0.0 < $1.0 }
            .map { "\($0.0): \($0.1)" }
            .joined(separator: "; ")
    }
}

extension RunSteps: EventReader {
    public mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch { record(event) }
    }
}

extension RunSteps.What {
    /// The operation the step is of, if any.
    public var operation: String? {
        switch self {
        case .started(let name, _), .cancelled(let name), .finished(let name, _), .completion(let name, _): name
        case .action, .wait, .call, .stall, .end: nil
        }
    }

    /// One word for the kind of step, as `diff --format jsonl` writes it:
    /// `started`, `cancelled`, `finished`, `completion`, `action`, `wait`,
    /// `call`, `stall`, `end`.
    public var keyword: String {
        switch self {
        case .started: "started"
        case .cancelled: "cancelled"
        case .finished: "finished"
        case .completion: "completion"
        case .action: "action"
        case .wait: "wait"
        case .call: "call"
        case .stall: "stall"
        case .end: "end"
        }
    }

    /// The step as a phrase: `token started on a worker thread`, `token
    /// finished cancelled`, `cancel token (at 300ms)`, `the run completed`.
    public var phrase: String {
        switch self {
        case .started(let name, let place): "\(name) started" + (place.map { " on " + Self.words($0) } ?? "")
        case .cancelled(let name): "\(name) was cancelled"
        case .finished(let name, let cancelled): "\(name) finished" + (cancelled ? " cancelled" : "")
        case .completion(let name, let place):
            "\(Spelling.possessive(name)) completion block ran on " + Self.words(place)
        case .action(let text): text
        case .wait(let text): "the main thread's " + text
        case .call(let text): "the main thread's " + text
        case .stall(let text): "the run stalled, waiting for the user — " + text
        case .end(let text): "the run " + text
        }
    }

    /// `the main thread`, `a worker thread`.
    public static func words(_ place: RunSteps.ThreadPlace) -> String {
        place == .main ? "the main thread" : "a worker thread"
    }
}
