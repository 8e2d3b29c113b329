import ScenarioKit

/// A run as lanes over time, built event by event: for each operation when
/// it was added, became ready, started (and on which thread), stopped
/// executing, finished, and whether it was cancelled; for each queue how
/// many of its operations were executing, and its cap, after each change;
/// the actions and captions as marks; the execution blocks of each
/// `blocks` operation and every completion block, each with its thread,
/// and the threads in the order the run first used them. What the
/// timeline and the thread view show, in memory bounded by the operations
/// and their changes, not by the whole stream.
public struct TimelineLanes: Sendable {
    public struct Lane: Sendable, Hashable {
        public var added: Double?
        public var ready: Double?
        /// When its queue handed it to its dispatch queue (its `dispatched`
        /// event); until `started`, it waited for a thread to call its
        /// `start()`. nil before that, and in recordings without the event.
        public var dispatched: Double?
        public var started: Double?
        public var thread: ThreadTag?
        public var stopped: Double?
        public var finished: Double?
        public var cancelled: Double?
        /// The execution blocks of a `blocks` operation, in the order they
        /// started (this Foundation runs them one after another inside
        /// `main()`, Apple's may run them side by side on several threads).
        public var blocks: [BlockRun] = []
    }

    /// One execution block of a `blocks` operation: its index in the
    /// operation's list, the thread it ran on, when it started and returned
    /// (nil while it runs).
    public struct BlockRun: Sendable, Hashable {
        public var index: Int
        public var thread: ThreadTag
        public var started: Double
        public var returned: Double?

        public init(index: Int, thread: ThreadTag, started: Double, returned: Double? = nil) {
            self.index = index
            self.thread = thread
            self.started = started
            self.returned = returned
        }
    }

    /// An operation's completion block ran: when, and on which thread (a
    /// pool thread, whatever queue the operation was on).
    public struct Completion: Sendable, Hashable {
        public var operation: OperationID
        public var time: Double
        public var thread: ThreadTag

        public init(operation: OperationID, time: Double, thread: ThreadTag) {
            self.operation = operation
            self.time = time
            self.thread = thread
        }
    }

    /// A moment the timeline marks: an action or a caption.
    public struct Mark: Sendable, Hashable {
        public var time: Double
        public var text: String
    }

    /// One change of a queue's executing count or cap.
    public struct QueueStep: Sendable, Hashable {
        public var time: Double
        public var executing: Int
        /// -1: the system decides.
        public var cap: Int

        public init(time: Double, executing: Int, cap: Int) {
            self.time = time
            self.executing = executing
            self.cap = cap
        }
    }

    public let scenario: Scenario
    public private(set) var lanes: [Lane]
    public private(set) var queueSteps: [[QueueStep]]
    public private(set) var marks: [Mark] = []
    /// The completion blocks in the order they ran.
    public private(set) var completions: [Completion] = []
    /// Every thread an operation, a block or a completion block ran on, in
    /// the order the run first used it, and when.
    public private(set) var threads: [(tag: ThreadTag, firstSeen: Double)] = []
    public private(set) var endTime: Double = 0
    private var executing: [Int]
    private var caps: [Int]

    public init(scenario: Scenario) {
        self.scenario = scenario
        lanes = Array(repeating: Lane(), count: scenario.operations.count)
        queueSteps = Array(repeating: [], count: scenario.queues.count)
        executing = Array(repeating: 0, count: scenario.queues.count)
        caps = Array(repeating: -1, count: scenario.queues.count)
    }

    public init(scenario: Scenario, events: some Sequence<LifecycleEvent>) {
        self.init(scenario: scenario)
        for event in events { record(event) }
    }

    public mutating func record(_ event: LifecycleEvent) {
        endTime = max(endTime, event.time)
        let t = event.time
        switch event.kind {
        case .operation(let op, let key, _, let new):
            guard scenario.contains(op) else { return }
            let i = op.index
            if lanes[i].added == nil { lanes[i].added = t }
            switch (key, new) {
            case (.isReady, .bool(true)) where lanes[i].ready == nil:
                lanes[i].ready = t
            case (.isCancelled, .bool(true)) where lanes[i].cancelled == nil:
                lanes[i].cancelled = t
            case (.isExecuting, .bool(true)):
                lanes[i].started = t
                lanes[i].thread = event.thread
                if let thread = event.thread { saw(thread, at: t) }
                step(scenario[operation: op].queue.index, by: 1, at: t)
            case (.isExecuting, .bool(false)):
                lanes[i].stopped = t
                step(scenario[operation: op].queue.index, by: -1, at: t)
            case (.isFinished, .bool(true)):
                lanes[i].finished = t
            default:
                break
            }
        case .dispatched(let op):
            guard scenario.contains(op), lanes[op.index].dispatched == nil else { return }
            if lanes[op.index].added == nil { lanes[op.index].added = t }
            lanes[op.index].dispatched = t
        case .queue(let q, .maxConcurrentOperationCount, _, .int(let cap)):
            guard scenario.queues.indices.contains(q.index) else { return }
            caps[q.index] = cap
            step(q.index, by: 0, at: t)
        case .block(let op, let index, let phase, let thread):
            guard scenario.contains(op) else { return }
            saw(thread, at: t)
            switch phase {
            case .started:
                lanes[op.index].blocks.append(BlockRun(index: index, thread: thread, started: t))
            case .returned:
                if let k = lanes[op.index].blocks.lastIndex(where: { $0.index == index && $0.returned == nil }) {
                    lanes[op.index].blocks[k].returned = t
                }
            }
        case .completion(let op, let thread):
            guard scenario.contains(op) else { return }
            saw(thread, at: t)
            completions.append(Completion(operation: op, time: t, thread: thread))
        case .action(let action, _, let ignored):
            let text = ScenarioPrinter.actionText(action, in: scenario) + (ignored == nil ? "" : " (ignored)")
            marks.append(Mark(time: t, text: text))
        case .caption(let index, _):
            guard scenario.captions.indices.contains(index) else { return }
            marks.append(Mark(time: t, text: "“" + scenario.captions[index].text + "”"))
        default:
            break
        }
    }

    private mutating func saw(_ thread: ThreadTag, at t: Double) {
        if !threads.contains(where: { $0.tag == thread }) { threads.append((thread, t)) }
    }

    private mutating func step(_ q: Int, by delta: Int, at t: Double) {
        executing[q] += delta
        queueSteps[q].append(QueueStep(time: t, executing: executing[q], cap: caps[q]))
    }
}
