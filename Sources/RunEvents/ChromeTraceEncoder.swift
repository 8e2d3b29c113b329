import ScenarioKit

/// Writes a run as Trace Event Format JSON (the format of chrome://tracing
/// and Perfetto's UI), event by event, in memory bounded by the number of
/// operations, not of events.
///
/// What the viewer shows:
/// - process 1, "threads": a track per thread that ran something (the main
///   thread, worker #N as the stream numbers them), with a slice per
///   synchronous operation's execution (from its `isExecuting` true to
///   false, on the thread it started on), a slice per block of a
///   BlockOperation, and an instant for each completion block where it ran;
/// - asynchronous operations as async slices of their own (their
///   execution outlives the start() call on the thread that made it);
/// - each slice's args: queue, priority, quality of service, when it was
///   added and became ready, whether it was cancelled;
/// - a flow arrow from each dependency's slice to its dependent's;
/// - process 2, "queues": a counter per queue of the operations executing
///   (against its cap in the args), and instants for the operations that
///   finished without running (cancelled while they waited);
/// - global instants for actions and captions.
///
/// Times are microseconds of scenario time. The events are written in the
/// stream's order; a slice is written when it ends (as a complete "X"
/// event with its duration), which viewers accept in any order.
public struct ChromeTraceEncoder: Sendable {
    public let scenario: Scenario

    /// What the export adds to an operation's lane.
    private struct OperationTrack: Sendable {
        /// The slice written for its execution, for the flows to dependents.
        var slice: (thread: ThreadTag, end: Double)?
        /// A BlockOperation's blocks that started and have not returned.
        var blocks: [Int: (start: Double, thread: ThreadTag)] = [:]
    }

    /// When each operation was added, became ready, started and where, was
    /// cancelled; each queue's executing count and cap: the timeline's facts.
    private var lanes: TimelineLanes
    private var operations: [OperationTrack]
    private var namedThreads: Set<Int> = []
    /// Operations still executing when the run stalled.
    private var unfinished: Set<Int> = []
    private var first = true

    public init(scenario: Scenario) {
        self.scenario = scenario
        lanes = TimelineLanes(scenario: scenario)
        operations = Array(repeating: OperationTrack(), count: scenario.operations.count)
    }

    /// The opening of the JSON object and the process names.
    public mutating func appendHeader(to out: inout [UInt8]) {
        out.appendLiteral(#"{"displayTimeUnit":"ms","traceEvents":["#)
        out.append(UInt8(ascii: "\n"))
        let title = scenario.title ?? "opscope run"
        metadata("process_name", pid: 1, tid: 0, name: "threads: " + title, to: &out)
        metadata("process_name", pid: 2, tid: 0, name: "queues", to: &out)
        for (index, queue) in scenario.queues.enumerated() {
            metadata("thread_name", pid: 2, tid: index + 1, name: queue.name, to: &out)
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
            operations[op.index].blocks[index] = (event.time, thread)
        case .block(let op, let index, .returned, _):
            guard scenario.contains(op), let block = operations[op.index].blocks.removeValue(forKey: index) else {
                return
            }
            nameThread(block.thread, to: &out)
            separator(&out)
            out.appendLiteral(#"{"ph":"X","cat":"block","name":"#)
            JSONBytes.appendQuoted("\(scenario[operation: op].name) block \(index + 1)", to: &out)
            out.appendLiteral(#","pid":1,"tid":"#)
            JSONBytes.appendInt(tid(block.thread), to: &out)
            timestamp(block.start, duration: event.time - block.start, to: &out)
            out.append(UInt8(ascii: "}"))
        case .completion(let op, let thread):
            guard scenario.contains(op) else { return }
            nameThread(thread, to: &out)
            instant("completion block of \(scenario[operation: op].name)", at: event.time, tid: tid(thread), to: &out)
        case .action(let action, _, let ignored):
            let text = ScenarioPrinter.actionText(action, in: scenario) + (ignored.map { " (\($0.text))" } ?? "")
            instant(text, at: event.time, global: true, to: &out)
        case .caption(let index, _):
            guard scenario.captions.indices.contains(index) else { return }
            instant("caption: " + scenario.captions[index].text, at: event.time, global: true, to: &out)
        case .stall:
            instant("stall: nothing can progress until something changes", at: event.time, global: true, to: &out)
        case .end(.completed):
            instant("run completed", at: event.time, global: true, to: &out)
        case .end(.stalled):
            // What still executes (an asynchronous operation that never
            // posted isFinished) is drawn up to the end, marked unfinished.
            // (Its queue's counter stays as it is: it still executes.)
            for i in operations.indices where lanes.lanes[i].started != nil && operations[i].slice == nil {
                unfinished.insert(i)
                executionEnded(OperationID(i), at: event.time, countsDown: false, to: &out)
            }
            instant("run stalled", at: event.time, global: true, to: &out)
        }
    }

    // MARK: - Operations

    /// `lanes` has already recorded the change.
    private mutating func operationChanged(
        _ op: OperationID, _ key: OperationKey, _ new: KeyValue, at time: Double, to out: inout [UInt8]
    ) {
        switch (key, new) {
        case (.isExecuting, .bool(true)):
            counter(scenario[operation: op].queue, at: time, to: &out)
        case (.isExecuting, .bool(false)):
            executionEnded(op, at: time, countsDown: true, to: &out)
        case (.isFinished, .bool(true)):
            if lanes.lanes[op.index].started == nil {
                let q = scenario[operation: op].queue.index
                instant(
                    "\(scenario[operation: op].name) finished without running", at: time, pid: 2, tid: q + 1,
                    to: &out)
            }
        default:
            break
        }
    }

    /// `countsDown`: the execution ended with a notification (not at a
    /// stall's end), so its queue's counter changed.
    private mutating func executionEnded(
        _ op: OperationID, at time: Double, countsDown: Bool, to out: inout [UInt8]
    ) {
        let i = op.index
        guard let started = lanes.lanes[i].started else { return }
        let spec = scenario[operation: op]
        if countsDown { counter(spec.queue, at: time, to: &out) }
        let thread = lanes.lanes[i].thread ?? ThreadTag(0)
        if case .async = spec.body {
            asyncSlice(op, from: started, to: time, to: &out)
        } else {
            nameThread(thread, to: &out)
            separator(&out)
            out.appendLiteral(#"{"ph":"X","cat":"operation","name":"#)
            JSONBytes.appendQuoted(spec.name, to: &out)
            out.appendLiteral(#","pid":1,"tid":"#)
            JSONBytes.appendInt(tid(thread), to: &out)
            timestamp(started, duration: time - started, to: &out)
            arguments(op, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        operations[i].slice = (thread, time)
        flows(into: op, startedAt: started, on: thread, to: &out)
    }

    /// An asynchronous operation's execution: a "b"/"e" pair of its own.
    private mutating func asyncSlice(_ op: OperationID, from start: Double, to end: Double, to out: inout [UInt8]) {
        let name = scenario[operation: op].name
        for (phase, time) in [("b", start), ("e", end)] {
            separator(&out)
            out.appendLiteral(#"{"ph":""#)
            out.append(contentsOf: phase.utf8)
            out.appendLiteral(#"","cat":"asynchronous operation","name":"#)
            JSONBytes.appendQuoted(name, to: &out)
            out.appendLiteral(#","id":"#)
            JSONBytes.appendInt(op.index + 1, to: &out)
            out.appendLiteral(#","pid":1,"tid":0"#)
            timestamp(time, duration: nil, to: &out)
            if phase == "b" { arguments(op, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A flow arrow from each dependency that ran to `op`'s start.
    private mutating func flows(
        into op: OperationID, startedAt start: Double, on thread: ThreadTag, to out: inout [UInt8]
    ) {
        for dependency in scenario[operation: op].dependencies {
            guard let slice = operations[dependency.index].slice else { continue }
            let id = dependency.index * scenario.operations.count + op.index + 1
            for (phase, time, tag) in [("s", max(slice.end - 0.000_001, 0), slice.thread), ("f", start, thread)] {
                separator(&out)
                out.appendLiteral(#"{"ph":""#)
                out.append(contentsOf: phase.utf8)
                out.appendLiteral(#"","cat":"dependency","name":"dependency","id":"#)
                JSONBytes.appendInt(id, to: &out)
                out.appendLiteral(#","pid":1,"tid":"#)
                JSONBytes.appendInt(tid(tag), to: &out)
                timestamp(time, duration: nil, to: &out)
                if phase == "f" { out.appendLiteral(#","bp":"e""#) }
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    private func arguments(_ op: OperationID, to out: inout [UInt8]) {
        let spec = scenario[operation: op]
        let lane = lanes.lanes[op.index]
        out.appendLiteral(#","args":{"queue":"#)
        JSONBytes.appendQuoted(scenario[queue: spec.queue].name, to: &out)
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
        out.appendLiteral(#","cancelled":"#)
        if lane.cancelled != nil { out.appendLiteral("true") } else { out.appendLiteral("false") }
        if unfinished.contains(op.index) { out.appendLiteral(#","unfinished":true"#) }
        out.append(UInt8(ascii: "}"))
    }

    // MARK: - Pieces

    /// Thread numbers as tracks: the main thread is 1, worker #N is N + 1.
    private func tid(_ thread: ThreadTag) -> Int { thread.number + 1 }

    private mutating func nameThread(_ thread: ThreadTag, to out: inout [UInt8]) {
        guard namedThreads.insert(thread.number).inserted else { return }
        metadata(
            "thread_name", pid: 1, tid: tid(thread), name: thread.isMain ? "main thread" : "worker \(thread)",
            to: &out)
    }

    private mutating func metadata(_ kind: String, pid: Int, tid: Int, name: String, to out: inout [UInt8]) {
        separator(&out)
        out.appendLiteral(#"{"ph":"M","name":""#)
        out.append(contentsOf: kind.utf8)
        out.appendLiteral(#"","pid":"#)
        JSONBytes.appendInt(pid, to: &out)
        out.appendLiteral(#","tid":"#)
        JSONBytes.appendInt(tid, to: &out)
        out.appendLiteral(#","args":{"name":"#)
        JSONBytes.appendQuoted(name, to: &out)
        out.appendLiteral("}}")
    }

    private mutating func counter(_ q: QueueID, at time: Double, to out: inout [UInt8]) {
        separator(&out)
        out.appendLiteral(#"{"ph":"C","name":"#)
        JSONBytes.appendQuoted(scenario[queue: q].name + " executing", to: &out)
        out.appendLiteral(#","pid":2,"tid":0"#)
        timestamp(time, duration: nil, to: &out)
        let step = lanes.queueSteps[q.index].last
        out.appendLiteral(#","args":{"executing":"#)
        JSONBytes.appendInt(step?.executing ?? 0, to: &out)
        if let cap = step?.cap, cap >= 0 {
            out.appendLiteral(#","cap":"#)
            JSONBytes.appendInt(cap, to: &out)
        }
        out.appendLiteral("}}")
    }

    private mutating func instant(
        _ name: String, at time: Double, pid: Int = 1, tid: Int = 0, global: Bool = false, to out: inout [UInt8]
    ) {
        separator(&out)
        out.appendLiteral(#"{"ph":"i","name":"#)
        JSONBytes.appendQuoted(name, to: &out)
        out.appendLiteral(#","pid":"#)
        JSONBytes.appendInt(pid, to: &out)
        out.appendLiteral(#","tid":"#)
        JSONBytes.appendInt(tid, to: &out)
        timestamp(time, duration: nil, to: &out)
        if global { out.appendLiteral(#","s":"g""#) } else { out.appendLiteral(#","s":"t""#) }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"ts":…` and, for a complete event, `,"dur":…`, in whole microseconds.
    private func timestamp(_ time: Double, duration: Double?, to out: inout [UInt8]) {
        out.appendLiteral(#","ts":"#)
        JSONBytes.appendInt(Self.microseconds(time), to: &out)
        if let duration {
            out.appendLiteral(#","dur":"#)
            JSONBytes.appendInt(Self.microseconds(duration), to: &out)
        }
    }

    static func microseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return seconds >= 1e12 ? Int(1e18) : Int((seconds * 1_000_000).rounded())
    }

    private mutating func separator(_ out: inout [UInt8]) {
        if first {
            first = false
        } else {
            out.appendLiteral(",\n")
        }
    }
}
