import RunEvents
import ScenarioKit

/// Writes a run as Trace Event Format JSON (the format of chrome://tracing
/// and Perfetto's UI), event by event, in memory bounded by the number of
/// operations, not of events.
///
/// What the viewer shows (SCENARIO-LANGUAGE.md, "The run for trace
/// viewers"):
/// - process "threads: TITLE": a track per thread that ran something (the main
///   thread, worker #N as the stream numbers them), with a slice per
///   synchronous operation's execution (from its `isExecuting` true to
///   false, on the thread it started on: it holds that thread), a slice per
///   block of a BlockOperation, an instant for each completion block where
///   it ran, and an instant for each asynchronous operation's `start()`
///   call, where it ran (it returns at once: the stream has its moment);
/// - process "in flight, no thread": the asynchronous operations' time
///   in flight, a slice each, on rows of their queue ("net · in flight 1"),
///   packed as `TimelineLanes.InFlightRow` packs them, so that slices on a
///   row never overlap;
/// - each operation slice's args: queue, priority, quality of service, when
///   it was added, became ready, was dispatched, whether it was cancelled;
/// - a flow arrow from each dependency's own slice to its dependent's own
///   slice (a viewer binds each end to the slice open on its track at its
///   moment);
/// - process "queues": a track per queue, with a counter of its
///   operations running and its cap ("net running", "net cap") and an
///   instant for each operation that finished without running; and a
///   track "actions, captions, end" with an instant for each of those.
///
/// Every track is a thread track with a name (no global instants, no
/// legacy async slices, which viewers file on tracks of their own). A
/// viewer keys threads by tid across processes, so every track has a tid
/// of its own: threads `number + 1`, the others from `TrackLayout.base` on.
/// The threads' process has the main thread's tid as its pid; the two
/// others, whose tracks are not threads, pids no track has (a track whose
/// tid is its process's pid is shown as that process's main thread).
/// Times are microseconds of scenario time. The events are written in the
/// stream's order; a slice is written when it ends (as a complete "X"
/// event with its duration), which viewers accept in any order.
public struct ChromeTraceEncoder: Sendable {
    public let scenario: Scenario

    /// What the export keeps of an operation while the run goes on.
    struct OperationTrack: Sendable {
        /// Where its slice begins (microseconds) and on which track, once it
        /// started.
        var start: (track: Track, at: Int)?
        /// Its slice, once written: for the flows to its dependents.
        var slice: (track: Track, start: Int, end: Int)?
        /// A BlockOperation's blocks that started and have not returned.
        var blocks: [Int: (start: Int, thread: ThreadTag)] = [:]
        /// The earliest microsecond its next block may begin, and where its
        /// last one ended.
        var blockFloor = 0
        var blocksEnd = 0
        /// Blocks were drawn inside its slice.
        var nestsBlocks = false
    }

    /// When each operation was added, became ready, started and where, was
    /// cancelled; each queue's executing count and cap; the rows in flight:
    /// the timeline's facts.
    var lanes: TimelineLanes
    var operations: [OperationTrack]
    var layout: TrackLayout
    /// Operations still executing when the run stalled.
    var unfinished: Set<Int> = []
    var first = true

    public init(scenario: Scenario) {
        self.scenario = scenario
        lanes = TimelineLanes(scenario: scenario)
        operations = Array(repeating: OperationTrack(), count: scenario.operations.count)
        layout = TrackLayout(scenario: scenario)
    }

    /// The opening of the JSON object, the processes' names and the tracks
    /// known before the run: the main thread, the run's, each queue's.
    public mutating func appendHeader(to out: inout [UInt8]) {
        out.appendLiteral(#"{"displayTimeUnit":"ms","traceEvents":["#)
        out.append(UInt8(ascii: "\n"))
        let title = scenario.title ?? "opscope run"
        metadata("process_name", .thread(.main), name: "threads: " + title, to: &out)
        nameThread(.main, to: &out)
        metadata("process_name", .run, name: "queues", to: &out)
        metadata("thread_name", .run, name: "actions, captions, end", to: &out)
        for q in scenario.queues.indices {
            metadata("thread_name", .queue(q), name: scenario.queues[q].name, to: &out)
        }
    }

    /// The end of the array and of the object.
    public func appendFooter(to out: inout [UInt8]) {
        out.appendLiteral("\n]}\n")
    }

    public mutating func append(_ event: LifecycleEvent, to out: inout [UInt8]) {
        lanes.record(event)
        switch event.kind {
        case .operation(let op, let key, _, let new):
            guard scenario.contains(op) else { return }
            operationChanged(op, key, new, at: event.time, to: &out)
        case .queue(let q, .maxConcurrentOperationCount, _, _):
            guard scenario.queues.indices.contains(q.index) else { return }
            counter(q, at: event.time, to: &out)
        case .queue, .dispatched:
            break
        case .block(let op, let index, .started, let thread):
            guard scenario.contains(op) else { return }
            blockStarted(op, index, on: thread, at: event.time)
        case .block(let op, let index, .returned, _):
            guard scenario.contains(op) else { return }
            blockReturned(op, index, at: event.time, to: &out)
        case .completion(let op, let thread):
            guard scenario.contains(op) else { return }
            let name = scenario[operation: op].name
            threadInstant(
                "completion block of \(name)", category: "completion", operation: op, on: thread, at: event.time,
                to: &out)
        case .stranded(let op):
            guard scenario.contains(op) else { return }
            let byHand = lanes.lanes[op.index].startedByHand
            instant(
                scenario[operation: op].name + ": start() returned without posting isFinished"
                    + (byHand ? "" : "; it holds its slot"),
                category: "stranded", on: track(of: op), at: Self.microseconds(event.time), operation: op, to: &out)
        case .leftover(let op, let phase):
            guard scenario.contains(op) else { return }
            instant(
                scenario[operation: op].name + ": "
                    + (phase == .started ? "main() returned, its work runs on" : "the work its main() left ended"),
                category: "leftover", on: track(of: op), at: Self.microseconds(event.time), operation: op, to: &out)
        case .mainThreadWait(let action, let phase):
            // An instant at each end on the main thread's track: the wait
            // that never returns has no end to draw a slice to.
            nameThread(.main, to: &out)
            let at = layout.instant(on: .thread(.main), at: Self.microseconds(event.time))
            instant(
                EventFormatter.waitText(action, phase, in: scenario), category: "wait", on: .thread(.main), at: at,
                to: &out)
        case .startCall(let op, let phase):
            // As a wait's: an instant at each end of the call, on the main
            // thread's track (the operation's own slice is on its thread).
            guard scenario.contains(op) else { return }
            nameThread(.main, to: &out)
            let at = layout.instant(on: .thread(.main), at: Self.microseconds(event.time))
            instant(
                EventFormatter.startCallText(op, phase, in: scenario), category: "call", on: .thread(.main), at: at,
                operation: op, to: &out)
        case .action(let action, let origin, let ignored):
            let text = EventFormatter.actionMark(action, origin: origin, ignored: ignored, in: scenario)
            instant(
                text, category: "action", on: .run, at: Self.microseconds(event.time),
                origin: (origin, ignored), to: &out)
        case .caption(let index, _):
            guard scenario.captions.indices.contains(index) else { return }
            instant(
                "caption: " + scenario.captions[index].text, category: "caption", on: .run,
                at: Self.microseconds(event.time), to: &out)
        case .stall:
            instant(
                "stall: nothing can progress until something changes", category: "run", on: .run,
                at: Self.microseconds(event.time), to: &out)
        case .end(.completed):
            instant("run completed", category: "run", on: .run, at: Self.microseconds(event.time), to: &out)
        case .end(.stalled):
            // What still executes (an asynchronous operation that never
            // posted isFinished) is drawn up to the end, marked unfinished.
            // (Its queue's counter stays as it is: it still executes.)
            for i in operations.indices where operations[i].start != nil && operations[i].slice == nil {
                unfinished.insert(i)
                executionEnded(OperationID(i), at: event.time, countsDown: false, to: &out)
            }
            instant("run stalled", category: "run", on: .run, at: Self.microseconds(event.time), to: &out)
        }
    }

    // MARK: - Operations

    /// The track of an operation's marks: its queue's; for one started by
    /// hand, in no queue, the main thread's, which called its `start()`.
    private func track(of op: OperationID) -> Track {
        lanes.lanes[op.index].startedByHand ? .thread(.main) : .queue(scenario[operation: op].queue.index)
    }

    /// `lanes` has already recorded the change.
    private mutating func operationChanged(
        _ op: OperationID, _ key: OperationKey, _ new: KeyValue, at time: Double, to out: inout [UInt8]
    ) {
        switch (key, new) {
        case (.isExecuting, .bool(true)):
            if !lanes.lanes[op.index].startedByHand { counter(scenario[operation: op].queue, at: time, to: &out) }
            executionStarted(op, at: time, to: &out)
        case (.isExecuting, .bool(false)):
            executionEnded(op, at: time, countsDown: true, to: &out)
        case (.isFinished, .bool(true)):
            if lanes.lanes[op.index].started == nil {
                instant(
                    "\(scenario[operation: op].name) finished without running", category: "operation",
                    on: track(of: op), at: Self.microseconds(time), operation: op, to: &out)
            }
        default:
            break
        }
    }

    /// Where the slice of `op` will be: on its thread (a synchronous
    /// operation holds it), or, for an asynchronous one, on its row in
    /// flight, with an instant for its `start()` call on the thread that
    /// made it.
    private mutating func executionStarted(_ op: OperationID, at time: Double, to out: inout [UInt8]) {
        let i = op.index
        guard operations[i].start == nil else { return }
        let lane = lanes.lanes[i]
        if let row = lane.inFlightRow {
            let name = scenario[operation: op].name
            if let thread = lane.thread {
                threadInstant(
                    "\(name) start()", category: "start", operation: op, on: thread, at: time,
                    inFlight: layout.rowName(row, lanes: lanes), to: &out)
            }
            nameRow(row, to: &out)
            operations[i].start = (.inFlight(row), layout.begin(on: .inFlight(row), at: Self.microseconds(time)))
        } else {
            let thread = lane.thread ?? .main
            nameThread(thread, to: &out)
            let start = layout.begin(on: .thread(thread), at: Self.microseconds(time))
            operations[i].start = (.thread(thread), start)
            // Its blocks begin after it does (its main() runs them), also
            // where the stream's times fall in one microsecond.
            operations[i].blockFloor = start + 1
            operations[i].blocksEnd = start
        }
    }

    /// `countsDown`: the execution ended with a notification (not at a
    /// stall's end), so its queue's counter changed.
    private mutating func executionEnded(
        _ op: OperationID, at time: Double, countsDown: Bool, to out: inout [UInt8]
    ) {
        let i = op.index
        guard let start = operations[i].start, operations[i].slice == nil else { return }
        let spec = scenario[operation: op]
        if countsDown && !lanes.lanes[i].startedByHand { counter(spec.queue, at: time, to: &out) }
        let end = max(Self.microseconds(time), start.at, operations[i].blocksEnd)
        layout.end(on: start.track, from: start.at, to: end)
        if operations[i].nestsBlocks {
            // A block of no duration in its last microsecond (a cancelled
            // BlockOperation's blocks return at once) would be the slice a
            // viewer binds an arrow to, were the next slice to begin there
            // too: what follows on the thread begins after it.
            layout.keep(on: start.track, after: operations[i].blockFloor)
        }
        separator(&out)
        out.appendLiteral(#"{"ph":"X","cat":"#)
        out.appendLiteral(spec.body.isAsync ? #""asynchronous operation","name":"# : #""operation","name":"#)
        JSONBytes.appendQuoted(spec.name, to: &out)
        ids(start.track, to: &out)
        times(start.at, end, to: &out)
        arguments(op, to: &out)
        out.append(UInt8(ascii: "}"))
        operations[i].slice = (start.track, start.at, end)
        flows(into: op, to: &out)
    }

    private mutating func blockStarted(_ op: OperationID, _ index: Int, on thread: ThreadTag, at time: Double) {
        let i = op.index
        var start = Self.microseconds(time)
        if case .thread(thread)? = operations[i].start?.track {
            // Inside its operation's slice, after the block before it.
            start = max(start, operations[i].blockFloor)
            operations[i].nestsBlocks = true
        } else {
            // On a thread of its own (Apple's BlockOperation may do that).
            start = layout.begin(on: .thread(thread), at: start)
        }
        operations[i].blocks[index] = (start, thread)
    }

    private mutating func blockReturned(_ op: OperationID, _ index: Int, at time: Double, to out: inout [UInt8]) {
        let i = op.index
        guard let block = operations[i].blocks.removeValue(forKey: index) else { return }
        let end = max(Self.microseconds(time), block.start)
        if case .thread(block.thread)? = operations[i].start?.track {
            operations[i].blockFloor = end == block.start ? end + 1 : end
            operations[i].blocksEnd = max(operations[i].blocksEnd, end)
        } else {
            layout.end(on: .thread(block.thread), from: block.start, to: end)
        }
        nameThread(block.thread, to: &out)
        let name = scenario[operation: op].name
        separator(&out)
        out.appendLiteral(#"{"ph":"X","cat":"block","name":"#)
        JSONBytes.appendQuoted("\(name) block \(index + 1)", to: &out)
        ids(.thread(block.thread), to: &out)
        times(block.start, end, to: &out)
        out.appendLiteral(#","args":{"operation":"#)
        JSONBytes.appendQuoted(name, to: &out)
        out.appendLiteral(#","block":"#)
        JSONBytes.appendInt(index + 1, to: &out)
        out.appendLiteral("}}")
    }

    /// A flow arrow from each dependency that ran to `op`: from inside the
    /// dependency's own slice to the first moment of `op`'s, each end on its
    /// slice's track. A viewer binds an end to the slice begun last on its
    /// track at its moment (slices are a stack it pops only when the next
    /// one begins), so the arrow leaves from the dependency's last
    /// microsecond, or, when its blocks are drawn inside it, from its first
    /// (after a block began, the block would have it).
    private mutating func flows(into op: OperationID, to out: inout [UInt8]) {
        guard let mine = operations[op.index].slice else { return }
        for dependency in scenario[operation: op].dependencies {
            guard let slice = operations[dependency.index].slice else { continue }
            let id = dependency.index * scenario.operations.count + op.index + 1
            let leaves = operations[dependency.index].nestsBlocks ? slice.start : max(slice.end - 1, slice.start)
            for (phase, time, track) in [("s", leaves, slice.track), ("f", mine.start, mine.track)] {
                separator(&out)
                out.appendLiteral(#"{"ph":""#)
                out.append(contentsOf: phase.utf8)
                out.appendLiteral(#"","cat":"dependency","name":"dependency","id":"#)
                JSONBytes.appendInt(id, to: &out)
                ids(track, to: &out)
                out.appendLiteral(#","ts":"#)
                JSONBytes.appendInt(time, to: &out)
                if phase == "f" { out.appendLiteral(#","bp":"e""#) }
                out.appendLiteral(#","args":{"dependency":"#)
                JSONBytes.appendQuoted(scenario[operation: dependency].name, to: &out)
                out.appendLiteral(#","dependent":"#)
                JSONBytes.appendQuoted(scenario[operation: op].name, to: &out)
                out.appendLiteral("}}")
            }
        }
    }

    private func arguments(_ op: OperationID, to out: inout [UInt8]) {
        let spec = scenario[operation: op]
        let lane = lanes.lanes[op.index]
        out.appendLiteral(#","args":{"queue":"#)
        if lane.startedByHand {
            // In no queue: the main thread called its start() by hand.
            out.appendLiteral("null")
            out.appendLiteral(#","started_by_hand":true"#)
        } else {
            JSONBytes.appendQuoted(scenario[queue: spec.queue].name, to: &out)
        }
        out.appendLiteral(#","priority":"#)
        JSONBytes.appendQuoted((spec.priority ?? .normal).rawValue, to: &out)
        out.appendLiteral(#","qos":"#)
        JSONBytes.appendQuoted(spec.qos?.rawValue ?? "default", to: &out)
        if let added = lane.added {
            out.appendLiteral(#","added_s":"#)
            JSONBytes.appendSeconds(added, to: &out)
        }
        if let ready = lane.ready {
            out.appendLiteral(#","ready_s":"#)
            JSONBytes.appendSeconds(ready, to: &out)
        }
        if let dispatched = lane.dispatched {
            out.appendLiteral(#","dispatched_s":"#)
            JSONBytes.appendSeconds(dispatched, to: &out)
        }
        if lane.inFlightRow != nil, let thread = lane.thread {
            out.appendLiteral(#","start_called_on":"#)
            JSONBytes.appendQuoted(TrackLayout.threadName(thread), to: &out)
        }
        out.appendLiteral(#","cancelled":"#)
        if lane.cancelled != nil { out.appendLiteral("true") } else { out.appendLiteral("false") }
        if unfinished.contains(op.index) { out.appendLiteral(#","unfinished":true"#) }
        out.append(UInt8(ascii: "}"))
    }

    /// Scenario seconds as whole microseconds, the export's unit.
    static func microseconds(_ seconds: Double) -> Int { TimelineLanes.microseconds(seconds) }
}
