import Foundation

/// The rules a chrome export (`opscope trace --format chrome`) must keep
/// for a trace viewer to draw it as the run was, checked on the JSON
/// itself. A viewer (Perfetto's UI) sorts the events by time, a complete
/// slice before anything else that has the same microsecond (the longer
/// first), keeps each track's slices on a stack that it pops only when the
/// next slice begins there, and binds a flow's end to the top of that
/// stack: "the enclosing slice" is the slice begun last on that track at
/// or before the flow's moment, in that order.
public struct ChromeTraceCheck {
    /// A track: a thread of a process.
    public struct Track: Hashable, CustomStringConvertible {
        public var pid: Int
        public var tid: Int
        public var description: String { "\(pid)/\(tid)" }
    }

    /// A complete slice ("X") or a thread-scoped instant ("i", no duration).
    public struct Slice {
        public var track: Track
        public var start: Int
        public var duration: Int
        public var name: String
        public var category: String
        /// Whose it is: `args.operation`, else its name.
        public var operation: String
        public var isInstant: Bool
        /// Its place in the file (ties at one microsecond keep it).
        public var index: Int
        public var end: Int { start + duration }
        /// An operation's own execution: not a block, not an instant.
        public var isExecution: Bool {
            !isInstant && (category == "operation" || category == "asynchronous operation")
        }
    }

    /// A dependency arrow, from its "s" and "f" events.
    public struct Arrow {
        public var dependency: String
        public var dependent: String
        public var start: (track: Track, ts: Int, index: Int)
        public var finish: (track: Track, ts: Int, index: Int)
    }

    public private(set) var problems: [String] = []
    public private(set) var slices: [Slice] = []
    public private(set) var arrows: [Arrow] = []
    /// The track names a viewer shows for the counters: NAME + " " + ARGKEY.
    public private(set) var counterTracks: Set<String> = []
    public private(set) var threadNames: [Track: String] = [:]
    public private(set) var processNames: [Int: String] = [:]

    /// `queues`: the scenario's queue names (each counter must be one).
    public init(json: Data, queues: [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let events = object["traceEvents"] as? [[String: Any]]
        else {
            problems.append("not a JSON object with traceEvents")
            return
        }
        read(events, queues: Set(queues))
        checkTracks()
        checkNesting()
        checkArrows()
    }

    // MARK: - Reading

    private mutating func read(_ events: [[String: Any]], queues: Set<String>) {
        var flows: [Int: (s: [String: Any]?, f: [String: Any]?, sIndex: Int, fIndex: Int)] = [:]
        for (index, event) in events.enumerated() {
            guard let ph = event["ph"] as? String, let pid = event["pid"] as? Int, let tid = event["tid"] as? Int
            else {
                problems.append("event \(index) lacks ph, pid or tid: \(event)")
                continue
            }
            let track = Track(pid: pid, tid: tid)
            let name = event["name"] as? String ?? ""
            let args = event["args"] as? [String: Any] ?? [:]
            if ph == "M" {
                if name == "thread_name" { threadNames[track] = args["name"] as? String }
                if name == "process_name" { processNames[pid] = args["name"] as? String }
                continue
            }
            guard let ts = event["ts"] as? Int else {
                problems.append("event \(index) has no whole-microsecond ts: \(event)")
                continue
            }
            used.insert(track)
            let category = event["cat"] as? String ?? ""
            switch ph {
            case "X":
                guard let duration = event["dur"] as? Int, duration >= 0 else {
                    problems.append("slice \(name) at \(ts) has no duration")
                    continue
                }
                slices.append(
                    Slice(
                        track: track, start: ts, duration: duration, name: name, category: category,
                        operation: args["operation"] as? String ?? name, isInstant: false, index: index))
            case "i", "I":
                if event["s"] as? String != "t" {
                    problems.append("instant '\(name)' at \(ts) is not thread-scoped (s: \(event["s"] ?? "none"))")
                }
                slices.append(
                    Slice(
                        track: track, start: ts, duration: 0, name: name, category: category,
                        operation: args["operation"] as? String ?? name, isInstant: true, index: index))
            case "C":
                if !queues.contains(name) { problems.append("counter '\(name)' is not a queue's") }
                let keys = Set(args.keys)
                if !keys.contains("running") || !keys.isSubset(of: ["running", "cap"]) {
                    problems.append("counter '\(name)' has the args \(keys.sorted()), not running and cap")
                }
                for key in keys { counterTracks.insert(name + " " + key) }
            case "s", "f":
                guard let id = event["id"] as? Int else {
                    problems.append("flow at \(ts) has no numeric id")
                    continue
                }
                var flow = flows[id] ?? (nil, nil, 0, 0)
                if ph == "s" {
                    if flow.s != nil { problems.append("flow \(id) starts twice") }
                    flow.s = event
                    flow.sIndex = index
                } else {
                    if flow.f != nil { problems.append("flow \(id) ends twice") }
                    if event["bp"] as? String != "e" { problems.append("flow \(id) ends without bp e") }
                    flow.f = event
                    flow.fIndex = index
                }
                flows[id] = flow
            default:
                problems.append("event \(index) has the phase '\(ph)' (legacy async slices go on global tracks)")
            }
        }
        for (id, flow) in flows.sorted(by: { $0.key < $1.key }) {
            guard let s = flow.s, let f = flow.f else {
                problems.append("flow \(id) has only one end")
                continue
            }
            let sArgs = s["args"] as? [String: Any] ?? [:]
            let fArgs = f["args"] as? [String: Any] ?? [:]
            guard let dependency = sArgs["dependency"] as? String, let dependent = sArgs["dependent"] as? String,
                fArgs["dependency"] as? String == dependency, fArgs["dependent"] as? String == dependent
            else {
                problems.append("flow \(id) does not say which dependency its two ends join")
                continue
            }
            func end(_ e: [String: Any], _ index: Int) -> (Track, Int, Int) {
                (Track(pid: e["pid"] as? Int ?? -1, tid: e["tid"] as? Int ?? -1), e["ts"] as? Int ?? -1, index)
            }
            arrows.append(
                Arrow(
                    dependency: dependency, dependent: dependent, start: end(s, flow.sIndex),
                    finish: end(f, flow.fIndex)))
        }
    }

    private var used: Set<Track> = []

    // MARK: - Rules

    /// Every track used is named, and so is its process; a tid belongs to
    /// one process only (a viewer keys threads by tid), a pid's own tid
    /// (the thread a viewer makes for the process) to no other process, and
    /// no track that is not a thread has its process's pid as its tid.
    private mutating func checkTracks() {
        for track in used.sorted(by: { ($0.pid, $0.tid) < ($1.pid, $1.tid) }) {
            if threadNames[track] == nil { problems.append("track \(track) has no thread_name") }
            if processNames[track.pid] == nil { problems.append("process \(track.pid) has no process_name") }
        }
        var processOf: [Int: Int] = [:]
        for track in used.union(threadNames.keys) {
            if let other = processOf[track.tid], other != track.pid {
                problems.append("tid \(track.tid) is in processes \(other) and \(track.pid)")
            }
            processOf[track.tid] = track.pid
        }
        for pid in processNames.keys {
            if let other = processOf[pid], other != pid {
                problems.append("pid \(pid) is also a tid of process \(other)")
            }
        }
        // A viewer shows the track whose tid is its pid as the process's
        // main thread: only the threads' process may have one (issue 29).
        for track in used.union(threadNames.keys) where track.tid == track.pid {
            if processNames[track.pid]?.hasPrefix("threads") != true {
                problems.append("track \(track) is not a thread, but its tid is its process's pid")
            }
        }
        // An asynchronous operation's time in flight is on no thread's track.
        for slice in slices where slice.category == "asynchronous operation" {
            if processNames[slice.track.pid]?.hasPrefix("threads") == true {
                problems.append("asynchronous \(slice.name) is drawn on thread track \(slice.track)")
            }
        }
    }

    /// In the order a viewer reads them.
    private var viewerOrder: [Slice] {
        slices.sorted { a, b in
            func key(_ s: Slice) -> Int { s.isInstant || s.duration == 0 ? Int.max : Int.max - s.duration }
            return (a.start, key(a), a.index) < (b.start, key(b), b.index)
        }
    }

    /// On each track, each slice (and instant) begins after the ones before
    /// it ended or inside the one it nests in, and ends inside it; and what
    /// nests inside an operation's slice is its own (its blocks).
    private mutating func checkNesting() {
        var stacks: [Track: [Slice]] = [:]
        for slice in viewerOrder {
            var stack = stacks[slice.track] ?? []
            while let top = stack.last, top.end <= slice.start { stack.removeLast() }
            if let parent = stack.last {
                if slice.end > parent.end {
                    problems.append(
                        "on \(slice.track), \(slice.name) [\(slice.start), \(slice.end)] overlaps \(parent.name) "
                            + "[\(parent.start), \(parent.end)] without nesting in it")
                } else if slice.operation != parent.operation {
                    problems.append(
                        "on \(slice.track), \(slice.name) at \(slice.start) is drawn inside \(parent.name) "
                            + "[\(parent.start), \(parent.end)]")
                }
            }
            if !slice.isInstant { stack.append(slice) }
            stacks[slice.track] = stack
        }
    }

    /// The slice a viewer binds a flow event to: the one begun last on its
    /// track before it in the viewer's order (a flow is not a slice: after
    /// every slice of its microsecond but those later in the file with no
    /// duration).
    public func enclosingSlice(on track: Track, at ts: Int, index: Int) -> Slice? {
        var found: Slice?
        for slice in viewerOrder where slice.track == track {
            let before = slice.start < ts || (slice.start == ts && (slice.duration > 0 || slice.index < index))
            guard before else { break }
            found = slice
        }
        return found
    }

    /// Each arrow leaves from inside its dependency's own slice and arrives
    /// inside its dependent's, as the viewer binds them.
    private mutating func checkArrows() {
        for arrow in arrows {
            for (end, operation, word) in [
                (arrow.start, arrow.dependency, "leaves"), (arrow.finish, arrow.dependent, "arrives"),
            ] {
                let slice = enclosingSlice(on: end.track, at: end.ts, index: end.index)
                guard let slice, slice.isExecution, slice.operation == operation, slice.name == operation,
                    slice.start <= end.ts, end.ts <= slice.end
                else {
                    problems.append(
                        "the arrow \(arrow.dependency) → \(arrow.dependent) \(word) at \(end.ts) on \(end.track) "
                            + "from \(slice.map { "\($0.name) [\($0.start), \($0.end)]" } ?? "no slice"), "
                            + "not from \(operation)'s own slice")
                    continue
                }
            }
            if arrow.start.ts > arrow.finish.ts {
                problems.append("the arrow \(arrow.dependency) → \(arrow.dependent) goes back in time")
            }
        }
    }
}
