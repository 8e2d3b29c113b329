import EventFixtures
import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// What `ChromeTraceEncoder`'s documentation promises of the file's shape
/// (SCENARIO-LANGUAGE.md, "The run for trace viewers"), read back with
/// `JSONSerialization`: JSON for every kind of event, a named track per
/// thread, a slice per execution on its thread in microseconds of
/// scenario time, and each track's counters and instants in time order.
@Suite struct ChromeTraceShapeTests {
    static func export(_ scenario: Scenario, _ events: [LifecycleEvent]) throws -> [[String: Any]] {
        var encoder = ChromeTraceEncoder(scenario: scenario)
        var out: [UInt8] = []
        encoder.appendHeader(to: &out)
        for event in events { encoder.append(event, to: &out) }
        encoder.appendFooter(to: &out)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        #expect(object["displayTimeUnit"] as? String == "ms")
        return try #require(object["traceEvents"] as? [[String: Any]])
    }

    /// Three synchronous operations on two workers and the main thread;
    /// `b` runs twice as long as `a`, `c` after `a` on `a`'s thread.
    static let threeThreads: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "work", cap: .limit(2)), QueueSpec(name: "ui", cap: .limit(1), isMain: true)],
            ops: [
                op("a", on: "work", work: 0.25), op("b", on: "work", work: 0.5),
                op("c", on: "work", work: 0.125, after: ["a"]), op("show", on: "ui", work: 0.0625),
            ])
        var s = Script(scenario)
        s.cap("work", 2)
        for name in ["a", "b", "show"] { s.add(name) }
        s.add("c", ready: false)
        s.start("a", thread: 1)
        s.at(0.001)
        s.start("b", thread: 2)
        s.start("show", thread: 0)
        s.at(0.0635)
        s.finish("show")
        s.at(0.25)
        s.finish("a")
        s.ready("c")
        s.at(0.2505)
        s.start("c", thread: 1)
        s.at(0.375)
        s.finish("c")
        s.at(0.501)
        s.finish("b")
        s.end()
        return s
    }()

    @Test func everyKindOfEventExportsJSONWithWholeMicrosecondTimes() throws {
        let events = try Self.export(RecordingFixture.scenario, RecordingFixture.events)
        #expect(!events.isEmpty)
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(["M", "X", "i", "C", "s", "f"].contains(phase), "\(event)")
            #expect(event["pid"] is Int && event["tid"] is Int, "\(event)")
            if phase != "M" {
                let ts = try #require(event["ts"] as? Int, "\(event)")
                #expect(ts >= 0)
            }
            if phase == "X" { #expect((event["dur"] as? Int).map { $0 >= 0 } == true, "\(event)") }
        }
    }

    @Test func eachThreadHasOneNamedTrackOfItsOwn() throws {
        let events = try Self.export(Self.threeThreads.scenario, Self.threeThreads.events)
        let threadNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
        let names = threadNames.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        // Named once each, a thread's tid its number + 1.
        #expect(names.filter { $0 == "main thread" }.count == 1)
        #expect(names.filter { $0 == "worker #1" }.count == 1)
        #expect(names.filter { $0 == "worker #2" }.count == 1)
        let tids = threadNames.compactMap { $0["tid"] as? Int }
        #expect(Set(tids).count == tids.count, "a tid named twice: \(tids)")
        func tid(_ name: String) -> Int? {
            threadNames.first { ($0["args"] as? [String: Any])?["name"] as? String == name }?["tid"] as? Int
        }
        #expect(tid("main thread") == 1 && tid("worker #1") == 2 && tid("worker #2") == 3)
        // The three thread tracks are one process's.
        let pids = Set(
            ["main thread", "worker #1", "worker #2"].compactMap { name in
                threadNames.first { ($0["args"] as? [String: Any])?["name"] as? String == name }?["pid"] as? Int
            })
        #expect(pids.count == 1)
    }

    @Test func eachExecutionIsOneSliceOnItsThreadInMicrosecondsOfScenarioTime() throws {
        let events = try Self.export(Self.threeThreads.scenario, Self.threeThreads.events)
        let slices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "operation" }
        func slice(_ name: String) -> (tid: Int, ts: Int, dur: Int)? {
            let found = slices.filter { $0["name"] as? String == name }
            guard found.count == 1, let tid = found[0]["tid"] as? Int, let ts = found[0]["ts"] as? Int,
                let dur = found[0]["dur"] as? Int
            else { return nil }
            return (tid, ts, dur)
        }
        #expect(slices.count == 4)
        let (a, b, c, show) = (slice("a"), slice("b"), slice("c"), slice("show"))
        #expect(a?.tid == 2 && a?.ts == 0 && a?.dur == 250_000)
        #expect(b?.tid == 3 && b?.ts == 1000 && b?.dur == 500_000)
        #expect(c?.tid == 2 && c?.ts == 250_500 && c?.dur == 124_500)
        #expect(show?.tid == 1 && show?.ts == 1000 && show?.dur == 62_500)
        // The slice's args: its queue and the moments of its life.
        let args = try #require(slices.first { $0["name"] as? String == "c" }?["args"] as? [String: Any])
        #expect(args["queue"] as? String == "work")
        #expect(args["ready_s"] as? Double == 0.25)
        #expect(args["cancelled"] as? Bool == false)
    }

    /// A slice is written when it ends, so slices are in the order they
    /// end; what has a moment only (counters, instants) is in time order on
    /// each track, and a thread holds one operation at a time.
    @Test(arguments: ["threads", "fixture"])
    func eachTrackIsInTimeOrderAndAThreadsExecutionsDoNotOverlap(_ which: String) throws {
        let (scenario, stream) =
            which == "threads"
            ? (Self.threeThreads.scenario, Self.threeThreads.events)
            : (RecordingFixture.scenario, RecordingFixture.events)
        let events = try Self.export(scenario, stream)
        var last: [String: Int] = [:]
        for event in events where ["C", "i"].contains(event["ph"] as? String) {
            let track = "\(event["pid"] ?? "")/\(event["tid"] ?? "")/\(event["ph"] ?? "")/\(event["name"] ?? "")"
            let ts = try #require(event["ts"] as? Int)
            #expect(ts >= last[track, default: 0], "\(track) goes back to \(ts)")
            last[track] = ts
        }
        let executions = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "operation" }
        for tid in Set(executions.compactMap { $0["tid"] as? Int }) {
            let spans = executions.filter { $0["tid"] as? Int == tid }
                .compactMap { e in (e["ts"] as? Int).flatMap { ts in (e["dur"] as? Int).map { (ts, ts + $0) } } }
                .sorted { $0.0 < $1.0 }
            for (earlier, later) in zip(spans, spans.dropFirst()) {
                #expect(earlier.1 <= later.0, "on tid \(tid): \(earlier) overlaps \(later)")
            }
        }
    }
}
