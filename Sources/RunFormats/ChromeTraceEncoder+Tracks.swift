import RunEvents
import ScenarioKit

/// One track of the chrome export: a thread track of one of its processes.
enum Track: Sendable, Hashable {
    /// A thread that ran something (process "threads: TITLE").
    case thread(ThreadTag)
    /// A row of asynchronous operations in flight (`TimelineLanes.inFlight`;
    /// process "in flight, no thread").
    case inFlight(Int)
    /// A queue's track: its counters, what finished without running
    /// (process "queues").
    case queue(Int)
    /// The actions, captions and the end (process "queues").
    case run
}

/// Where each track is (pid and tid), and the earliest microsecond at
/// which something may begin on a thread's track or an in-flight row, so
/// that what a viewer sees nests as it happened.
///
/// A viewer sorts events by time and, at one microsecond, a complete slice
/// before an instant: an instant (a `start()` call, a completion block) in
/// the microsecond a slice begins on the same thread would be drawn inside
/// that slice, and an arrow meant for the slice bound to the instant. A
/// slice that lasted no time at all would be drawn inside the next one.
/// So on those tracks each thing begins in a microsecond after an instant
/// before it, and after a slice of no duration: a shift of a microsecond
/// at most, where the stream's own times were within one.
struct TrackLayout: Sendable {
    /// The tid of the run's track; the queues' and the rows' follow it.
    /// Threads are `number + 1`, and a viewer keys threads by tid across
    /// processes: above any thread a run can have (every thread ran an
    /// operation, a block or a completion block), and a round number.
    let base: Int
    let queues: Int
    private var floors: [Track: Int] = [:]
    private var namedThreads: Set<Int> = []
    private var namedRows: Set<Int> = []

    init(scenario: Scenario) {
        // A thread's tid is its number + 1; a recording holds no thread past
        // the most a run numbers (`LifeCheck`).
        // Two more below the base: the pids of the processes that are not
        // threads.
        let threads = LifeCheck.mostThreads(in: scenario) + 4
        base = (threads / 1_000_000 + 1) * 1_000_000
        queues = scenario.queues.count
    }

    /// The threads' process has the main thread's tid as its pid (its
    /// first track is the main thread). The other two are not threads, and
    /// a viewer marks the track whose tid equals its pid "main thread"
    /// (Perfetto's chip): their pids are just below the base, numbers no
    /// track has (a viewer makes a thread of every pid, with that number
    /// as its tid, and a tid two processes share would mix their tracks).
    func pid(_ track: Track) -> Int {
        switch track {
        case .thread: tid(.thread(.main))
        case .queue, .run: base - 1
        case .inFlight: base - 2
        }
    }

    func tid(_ track: Track) -> Int {
        switch track {
        case .thread(let tag): tag.number + 1
        case .run: base
        case .queue(let q): base + 1 + q
        case .inFlight(let row): base + 1 + queues + row
        }
    }

    /// Where a slice that began at `at` begins on `track`.
    mutating func begin(on track: Track, at: Int) -> Int {
        max(at, floors[track] ?? 0)
    }

    /// A slice on `track` ended.
    mutating func end(on track: Track, from start: Int, to end: Int) {
        floors[track] = end == start ? end + 1 : end
    }

    /// Nothing more on `track` begins before `floor`.
    mutating func keep(on track: Track, after floor: Int) {
        floors[track] = max(floors[track] ?? 0, floor)
    }

    /// Where an instant at `at` goes on a thread's track.
    mutating func instant(on track: Track, at: Int) -> Int {
        let time = max(at, floors[track] ?? 0)
        floors[track] = time + 1
        return time
    }

    /// `main thread`, `worker #2`: a thread's track name.
    static func threadName(_ tag: ThreadTag) -> String {
        tag.isMain ? "main thread" : "worker \(tag)"
    }

    /// `net · in flight 1`: a row's track name.
    func rowName(_ row: Int, lanes: TimelineLanes) -> String {
        "\(lanes.rowName(row)) · in flight \(lanes.inFlight[row].number)"
    }

    /// Whether this thread's name is still to be written (and now is).
    mutating func names(thread tag: ThreadTag) -> Bool { namedThreads.insert(tag.number).inserted }
    mutating func names(row: Int) -> Bool { namedRows.insert(row).inserted }
    var hasRows: Bool { !namedRows.isEmpty }
}

// MARK: - Pieces

extension ChromeTraceEncoder {
    mutating func nameThread(_ tag: ThreadTag, to out: inout [UInt8]) {
        guard layout.names(thread: tag) else { return }
        metadata("thread_name", .thread(tag), name: TrackLayout.threadName(tag), to: &out)
    }

    /// The row's name, and the process's before its first row.
    mutating func nameRow(_ row: Int, to out: inout [UInt8]) {
        let first = !layout.hasRows
        guard layout.names(row: row) else { return }
        if first { metadata("process_name", .inFlight(row), name: TimelineLanes.inFlightHeading, to: &out) }
        metadata("thread_name", .inFlight(row), name: layout.rowName(row, lanes: lanes), to: &out)
    }

    /// A process's or a thread's name. A process's is written with the tid
    /// of one of its tracks: a viewer makes a thread of every pid and tid
    /// it sees.
    mutating func metadata(_ kind: String, _ track: Track, name: String, to out: inout [UInt8]) {
        separator(&out)
        out.appendLiteral(#"{"ph":"M","name":""#)
        out.append(contentsOf: kind.utf8)
        out.append(UInt8(ascii: "\""))
        ids(track, to: &out)
        out.appendLiteral(#","args":{"name":"#)
        JSONBytes.appendQuoted(name, to: &out)
        out.appendLiteral("}}")
    }

    /// `"pid":…,"tid":…` of a track, after a comma.
    func ids(_ track: Track, to out: inout [UInt8]) {
        out.appendLiteral(#","pid":"#)
        JSONBytes.appendInt(layout.pid(track), to: &out)
        out.appendLiteral(#","tid":"#)
        JSONBytes.appendInt(layout.tid(track), to: &out)
    }

    /// `,"ts":…,"dur":…` of a complete slice, in microseconds.
    func times(_ start: Int, _ end: Int, to out: inout [UInt8]) {
        out.appendLiteral(#","ts":"#)
        JSONBytes.appendInt(start, to: &out)
        out.appendLiteral(#","dur":"#)
        JSONBytes.appendInt(end - start, to: &out)
    }

    /// A queue's counters: "Q running" (its operations executing) and, when
    /// it has one, "Q cap" (a viewer names a counter track NAME + " " + KEY).
    mutating func counter(_ q: QueueID, at time: Double, to out: inout [UInt8]) {
        separator(&out)
        out.appendLiteral(#"{"ph":"C","name":"#)
        JSONBytes.appendQuoted(scenario[queue: q].name, to: &out)
        ids(.queue(q.index), to: &out)
        out.appendLiteral(#","ts":"#)
        JSONBytes.appendInt(Self.microseconds(time), to: &out)
        let step = lanes.queueSteps[q.index].last
        out.appendLiteral(#","args":{"running":"#)
        JSONBytes.appendInt(step?.executing ?? 0, to: &out)
        if let cap = step?.cap, cap >= 0 {
            out.appendLiteral(#","cap":"#)
            JSONBytes.appendInt(cap, to: &out)
        }
        out.appendLiteral("}}")
    }

    /// An instant on a thread's track, where `op`'s completion block or
    /// `start()` ran; `inFlight`: the row its time in flight is on.
    mutating func threadInstant(
        _ name: String, category: String, operation op: OperationID, on thread: ThreadTag, at time: Double,
        inFlight: String? = nil, to out: inout [UInt8]
    ) {
        nameThread(thread, to: &out)
        let at = layout.instant(on: .thread(thread), at: Self.microseconds(time))
        instant(name, category: category, on: .thread(thread), at: at, operation: op, inFlight: inFlight, to: &out)
    }

    /// A thread-scoped instant (`"s":"t"`): on its track, never global.
    /// `origin`: an action's, written into its args as the recording
    /// writes it (`origin` at, completion with `by`, or user; its `line`
    /// where the scenario knows it; `ignored` with the reason).
    mutating func instant(
        _ name: String, category: String, on track: Track, at time: Int, operation op: OperationID? = nil,
        inFlight: String? = nil, origin: (ActionOrigin, ActionRefusal?)? = nil, to out: inout [UInt8]
    ) {
        separator(&out)
        out.appendLiteral(#"{"ph":"i","cat":""#)
        out.append(contentsOf: category.utf8)
        out.appendLiteral(#"","name":"#)
        JSONBytes.appendQuoted(name, to: &out)
        ids(track, to: &out)
        out.appendLiteral(#","ts":"#)
        JSONBytes.appendInt(time, to: &out)
        out.appendLiteral(#","s":"t""#)
        if let op {
            let spec = scenario[operation: op]
            out.appendLiteral(#","args":{"operation":"#)
            JSONBytes.appendQuoted(spec.name, to: &out)
            out.appendLiteral(#","queue":"#)
            if lanes.lanes[op.index].startedByHand {
                out.appendLiteral("null")  // in no queue: started by hand
            } else {
                JSONBytes.appendQuoted(scenario[queue: spec.queue].name, to: &out)
            }
            if let inFlight {
                out.appendLiteral(#","in_flight_on":"#)
                JSONBytes.appendQuoted(inFlight, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        if let (origin, ignored) = origin { actionArguments(origin, ignored, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    private func actionArguments(_ origin: ActionOrigin, _ ignored: ActionRefusal?, to out: inout [UInt8]) {
        var line = 0
        switch origin {
        case .timed(let index):
            out.appendLiteral(#","args":{"origin":"at""#)
            if scenario.actions.indices.contains(index) { line = scenario.actions[index].location.line }
        case .completion(let op):
            out.appendLiteral(#","args":{"origin":"completion""#)
            if scenario.contains(op) {
                out.appendLiteral(#","by":"#)
                JSONBytes.appendQuoted(scenario[operation: op].name, to: &out)
                line = scenario[operation: op].location.line
            }
        case .user:
            out.appendLiteral(#","args":{"origin":"user""#)
        case .startBatch(let index):
            out.appendLiteral(#","args":{"origin":"start""#)
            if scenario.startBatches.indices.contains(index) { line = scenario.startBatches[index].location.line }
        }
        if line > 0 {
            out.appendLiteral(#","line":"#)
            JSONBytes.appendInt(line, to: &out)
        }
        if let ignored {
            out.appendLiteral(#","ignored":"#)
            JSONBytes.appendQuoted(ignored.text, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    mutating func separator(_ out: inout [UInt8]) {
        if first {
            first = false
        } else {
            out.appendLiteral(",\n")
        }
    }
}
