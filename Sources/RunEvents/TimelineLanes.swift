import ScenarioKit

/// A run as lanes over time, built event by event: for each operation when
/// it was added, became ready, started (and on which thread), stopped
/// executing, finished, and whether it was cancelled; for each queue how
/// many of its operations were executing, and its cap, after each change;
/// the actions and captions as marks; the execution blocks of each
/// `blocks` operation and every completion block, each with its thread,
/// and the threads in the order the run first used them; the rows that
/// the asynchronous operations' time in flight is packed into. What the
/// timeline, the thread view and the chrome export show, in memory
/// bounded by the operations and their changes, not by the whole stream.
public struct TimelineLanes: Sendable {
    /// The heading of the asynchronous operations' time in flight, below
    /// the threads: the thread view's and the chrome export's.
    public static let inFlightHeading = "in flight, no thread"

    public struct Lane: Sendable, Hashable {
        /// Its moments, as every reader of a run defines them.
        public internal(set) var moments = OperationMoments()
        public var added: Double? { moments.added?.time }
        public var ready: Double? { moments.ready?.time }
        /// When its queue handed it to its dispatch queue (its `dispatched`
        /// event); until `started`, it waited for a thread to call its
        /// `start()`. nil before that, and in recordings without the event.
        public var dispatched: Double? { moments.dispatched?.time }
        public var started: Double? { moments.started?.time }
        /// The thread of its start: the one that ran its `main()` (a
        /// synchronous operation holds it until `stopped`), or, for an
        /// asynchronous operation, the one that called its `start()`, which
        /// returned at once: from then until `stopped` it holds no thread.
        public var thread: ThreadTag? { moments.thread }
        public var stopped: Double? { moments.stopped?.time }
        public var finished: Double? { moments.finished?.time }
        public var cancelled: Double? { moments.cancelled?.time }
        /// The execution blocks of a `blocks` operation, in the order they
        /// started (this Foundation runs them one after another inside
        /// `main()`, Apple's may run them side by side on several threads).
        public var blocks: [BlockRun] = []
        /// An asynchronous operation that started: its row in `inFlight`.
        public var inFlightRow: Int?
        /// The main thread starts it by hand: it is in no queue, and never
        /// added.
        public internal(set) var startedByHand = false

        /// Where its lane begins: when it was added; for one started by
        /// hand, which is never added, when its `start()` began it (or
        /// finished it without running). nil before.
        public var begins: Double? {
            if let added { return added }
            guard startedByHand else { return nil }
            return started ?? finished
        }
    }

    /// A row of asynchronous operations in flight (started, not yet
    /// stopped, holding no thread), of one queue. An operation takes the
    /// lowest-numbered row of its queue that is free when it starts, so no
    /// two on a row overlap and a queue has as many rows as it ever had
    /// asynchronous operations in flight at once. A row is free again when
    /// its operation stops; after one that lasted less than a microsecond,
    /// from the next microsecond on: a trace viewer, which counts
    /// microseconds, would otherwise see it inside the one after it.
    public struct InFlightRow: Sendable, Hashable {
        /// nil for the rows of operations started by hand, which no queue holds.
        public var queue: QueueID?
        /// 1, 2, … among its queue's rows, in the order they were first used.
        public var number: Int
        /// The operations that were in flight on it, in the order they started.
        public var operations: [OperationID] = []
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

    /// A moment the timeline marks: an action, with who did it
    /// (`cancel polite (at 300ms, line 12)`), or a caption.
    public struct Mark: Sendable, Hashable {
        public var time: Double
        public var text: String
        /// An action's: who did it (nil for a caption).
        public var origin: ActionOrigin?
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
    /// How many events it recorded: what a drawing of it depends on.
    public private(set) var recorded = 0
    /// The rows of asynchronous operations in flight, in the order they
    /// were first used (`Lane.inFlightRow` indexes them).
    public private(set) var inFlight: [InFlightRow] = []
    private var executing: [Int]
    private var caps: [Int]
    /// Per queue: its free in-flight rows (by number, lowest first) and
    /// the rows whose operation lasted less than a microsecond, with the
    /// microsecond it stopped in, free from the next one.
    private var freeRows: [RowHeap]
    private var stoppedRows: [[(row: Int, microsecond: Int)]]
    private var rowsOfQueue: [Int]

    public init(scenario: Scenario) {
        self.scenario = scenario
        lanes = Array(repeating: Lane(), count: scenario.operations.count)
        for op in scenario.startedByHand where lanes.indices.contains(op.index) { lanes[op.index].startedByHand = true }
        queueSteps = Array(repeating: [], count: scenario.queues.count)
        executing = Array(repeating: 0, count: scenario.queues.count)
        caps = Array(repeating: -1, count: scenario.queues.count)
        // The rows in flight of each queue, and after them those of the
        // operations started by hand.
        freeRows = Array(repeating: RowHeap(), count: scenario.queues.count + 1)
        stoppedRows = Array(repeating: [], count: scenario.queues.count + 1)
        rowsOfQueue = Array(repeating: 0, count: scenario.queues.count + 1)
    }

    /// A row in flight as the views name it: its queue's name, or `by hand`.
    public func rowName(_ row: Int) -> String {
        inFlight[row].queue.map { scenario.queues[$0.index].name } ?? "by hand"
    }

    public init(scenario: Scenario, events: some Sequence<LifecycleEvent>) {
        self.init(scenario: scenario)
        for event in events { record(event) }
    }

    public mutating func record(_ event: LifecycleEvent) {
        recorded += 1
        endTime = max(endTime, event.time)
        let t = event.time
        switch event.kind {
        case .operation(let op, _, _, _):
            guard scenario.contains(op) else { return }
            let i = op.index
            let was = lanes[i].moments
            lanes[i].moments.record(event.kind, at: Stamp(seq: event.seq, time: t), thread: event.thread)
            let now = lanes[i].moments
            // One started by hand counts in no queue's running.
            let inAQueue = !lanes[i].startedByHand
            if now.isExecuting && !was.isExecuting {
                if let thread = event.thread { saw(thread, at: t) }
                if inAQueue { step(scenario[operation: op].queue.index, by: 1, at: t) }
                if scenario[operation: op].body.isAsync && lanes[i].inFlightRow == nil { takeRow(op, at: t) }
            } else if was.isExecuting && !now.isExecuting {
                if inAQueue { step(scenario[operation: op].queue.index, by: -1, at: t) }
                if let row = lanes[i].inFlightRow { release(row, startedAt: now.started?.time ?? t, at: t) }
            }
        case .dispatched(let op):
            guard scenario.contains(op) else { return }
            lanes[op.index].moments.record(event.kind, at: Stamp(seq: event.seq, time: t), thread: event.thread)
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
        case .action(let action, let origin, let ignored):
            let text = EventFormatter.actionMark(action, origin: origin, ignored: ignored, in: scenario)
            marks.append(Mark(time: t, text: text, origin: origin))
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

    /// The lowest-numbered row of `op`'s queue free at `t`, or a new one.
    private mutating func takeRow(_ op: OperationID, at t: Double) {
        let queue: QueueID? = lanes[op.index].startedByHand ? nil : scenario[operation: op].queue
        let q = queue?.index ?? scenario.queues.count
        guard freeRows.indices.contains(q) else { return }
        let now = Self.microseconds(t)
        if !stoppedRows[q].isEmpty {
            var kept: [(row: Int, microsecond: Int)] = []
            for entry in stoppedRows[q] {
                if entry.microsecond < now {
                    freeRows[q].insert(inFlight[entry.row].number, row: entry.row)
                } else {
                    kept.append(entry)
                }
            }
            stoppedRows[q] = kept
        }
        let row: Int
        if let lowest = freeRows[q].popLowest() {
            row = lowest
        } else {
            row = inFlight.count
            rowsOfQueue[q] += 1
            inFlight.append(InFlightRow(queue: queue, number: rowsOfQueue[q]))
        }
        inFlight[row].operations.append(op)
        lanes[op.index].inFlightRow = row
    }

    /// Scenario seconds as whole microseconds: the unit of the chrome
    /// export (`RunFormats`' `ChromeTraceEncoder`), in which rows in flight
    /// are packed so that its slices on a row never overlap.
    package static func microseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= 1e12 ? Int(1e18) : Int((seconds * 1_000_000).rounded())
    }

    /// `row`'s operation stopped at `t`.
    private mutating func release(_ row: Int, startedAt start: Double, at t: Double) {
        let q = inFlight[row].queue?.index ?? scenario.queues.count
        let stopped = Self.microseconds(t)
        if Self.microseconds(start) < stopped {
            freeRows[q].insert(inFlight[row].number, row: row)
        } else {
            stoppedRows[q].append((row, stopped))
        }
    }

    private mutating func step(_ q: Int, by delta: Int, at t: Double) {
        executing[q] += delta
        queueSteps[q].append(QueueStep(time: t, executing: executing[q], cap: caps[q]))
    }
}

/// A queue's free in-flight rows, lowest number first: a binary min-heap
/// of (number, row), so that packing 100,000 operations in flight at once
/// costs a logarithm per start, not a scan of the rows.
struct RowHeap: Sendable {
    private var items: [(number: Int, row: Int)] = []

    mutating func insert(_ number: Int, row: Int) {
        items.append((number, row))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].number < items[parent].number else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popLowest() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && items[left].number < items[smallest].number { smallest = left }
                if right < items.count && items[right].number < items[smallest].number { smallest = right }
                guard smallest != parent else { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.row
    }
}
