import EventFixtures
import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// The chrome export of hand-made streams, read back as a trace viewer
/// reads it (`ChromeTraceCheck`).
@Suite struct ChromeTraceEncoderTests {
    static func export(_ script: Script) -> (events: [[String: Any]], check: ChromeTraceCheck) {
        var encoder = ChromeTraceEncoder(scenario: script.scenario)
        var out: [UInt8] = []
        encoder.appendHeader(to: &out)
        for event in script.events { encoder.append(event, to: &out) }
        encoder.appendFooter(to: &out)
        let data = Data(out)
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (
            object?["traceEvents"] as? [[String: Any]] ?? [],
            ChromeTraceCheck(json: data, queues: script.scenario.queues.map(\.name))
        )
    }

    static func slice(_ name: String, in check: ChromeTraceCheck) -> ChromeTraceCheck.Slice? {
        check.slices.first { $0.name == name }
    }

    /// fetch (asynchronous) → parse (synchronous) → up1, up2 (asynchronous,
    /// in flight together on `net`).
    static let pipeline: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2))],
            ops: [
                op("fetch", on: "net", body: .async(.milliseconds(400))),
                op("parse", on: "net", work: 0.2, after: ["fetch"]),
                op("up1", on: "net", after: ["parse"], body: .async(.milliseconds(400))),
                op("up2", on: "net", after: ["parse"], body: .async(.milliseconds(500))),
            ])
        var s = Script(scenario)
        s.cap("net", 2)
        s.add("fetch")
        for name in ["parse", "up1", "up2"] { s.add(name, ready: false) }
        s.start("fetch", thread: 1)
        s.at(0.4)
        s.finish("fetch")
        s.ready("parse")
        s.at(0.41)
        s.start("parse", thread: 1)
        s.at(0.61)
        s.finish("parse")
        s.ready("up1")
        s.ready("up2")
        s.at(0.62)
        s.start("up1", thread: 2)
        s.at(0.63)
        s.start("up2", thread: 1)
        s.at(1.02)
        s.finish("up1")
        s.at(1.13)
        s.finish("up2")
        s.end()
        return s
    }()

    @Test func asynchronousOperationsAreInFlightOnRowsOfTheirQueueAndTheirStartIsAnInstantOnItsThread() {
        let (_, check) = Self.export(Self.pipeline)
        #expect(check.problems.isEmpty, "\(check.problems.joined(separator: "\n"))")
        // Each asynchronous operation: a slice on a row of its queue (up1 and
        // up2 overlap: two rows; fetch's row is free again for up1) …
        let rows = ["fetch", "up1", "up2"].map { Self.slice($0, in: check).flatMap { check.threadNames[$0.track] } }
        #expect(rows == ["net · in flight 1", "net · in flight 1", "net · in flight 2"])
        #expect(Self.slice("fetch", in: check)?.start == 0 && Self.slice("fetch", in: check)?.end == 400_000)
        // … and its start() an instant on the thread that called it.
        let calls = ["fetch", "up1", "up2"].map { name in
            Self.slice("\(name) start()", in: check).flatMap { check.threadNames[$0.track] }
        }
        #expect(calls == ["worker #1", "worker #2", "worker #1"])
        #expect(Self.slice("up1 start()", in: check)?.isInstant == true)
        // The thread tracks hold parse alone: the one that held a thread.
        let onThreads = check.slices.filter {
            !$0.isInstant && check.processNames[$0.track.pid]?.hasPrefix("threads") == true
        }
        #expect(onThreads.map(\.name) == ["parse"])
        #expect(Set(check.processNames.values) == ["threads: opscope run", "queues", "in flight, no thread"])
        // Three arrows, each from its dependency's own slice to its dependent's.
        #expect(
            check.arrows.map { "\($0.dependency) → \($0.dependent)" }.sorted() == [
                "fetch → parse", "parse → up1", "parse → up2",
            ])
    }

    @Test func anInstantOrANoTimeSliceInTheMicrosecondASliceBeginsStaysOutsideIt() {
        // a ends and its completion block runs on #2 in the microsecond b
        // begins there; c lasts no time on #1 and d begins in its microsecond.
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q")],
            ops: [
                op("a", on: "q"), op("b", on: "q", after: ["a"]), op("c", on: "q", work: 0),
                op("d", on: "q", after: ["c"]),
            ])
        var s = Script(scenario)
        for name in ["a", "c"] { s.add(name) }
        for name in ["b", "d"] { s.add(name, ready: false) }
        s.start("a", thread: 2)
        s.at(0.5)
        s.start("c", thread: 1)
        s.finish("c")
        s.ready("d")
        s.start("d", thread: 1)
        s.at(1)
        s.finish("a")
        s.ready("b")
        s.completion("a", thread: 2)
        s.start("b", thread: 2)
        s.at(1.5)
        s.finish("b")
        s.finish("d")
        s.end()
        let (_, check) = Self.export(s)
        #expect(check.problems.isEmpty, "\(check.problems.joined(separator: "\n"))")
        #expect(Self.slice("completion block of a", in: check)?.start == 1_000_000)
        #expect(Self.slice("b", in: check)?.start == 1_000_001)
        #expect(Self.slice("c", in: check).map { [$0.start, $0.end] } == [500_000, 500_000])
        #expect(Self.slice("d", in: check)?.start == 500_001)
        #expect(check.arrows.count == 2)
    }

    @Test func aBlockOperationsArrowLeavesFromItsOwnSliceNotFromItsLastBlock() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "images")],
            ops: [
                op("thumbs", on: "images", body: .blocks([.milliseconds(400), .milliseconds(400)])),
                op("upload", on: "images", after: ["thumbs"]),
            ])
        var s = Script(scenario)
        s.add("thumbs")
        s.add("upload", ready: false)
        s.start("thumbs", thread: 1)
        s.block("thumbs", 0, .started, thread: 1)
        s.at(0.4)
        s.block("thumbs", 0, .returned, thread: 1)
        s.block("thumbs", 1, .started, thread: 1)
        s.at(0.8)
        s.block("thumbs", 1, .returned, thread: 1)
        s.finish("thumbs")
        s.ready("upload")
        s.start("upload", thread: 2)
        s.at(1)
        s.finish("upload")
        s.end()
        let (_, check) = Self.export(s)
        #expect(check.problems.isEmpty, "\(check.problems.joined(separator: "\n"))")
        // Its first block begins after it (its main() runs the blocks), in
        // the microsecond after where the two fell in one.
        #expect(Self.slice("thumbs", in: check)?.start == 0)
        #expect(Self.slice("thumbs block 1", in: check)?.start == 1)
        #expect(Self.slice("thumbs block 1", in: check)?.operation == "thumbs")
        let arrow = check.arrows.first
        #expect(arrow?.start.ts == 0)
        #expect(
            arrow.flatMap { check.enclosingSlice(on: $0.start.track, at: $0.start.ts, index: $0.start.index) }?.name
                == "thumbs")
    }

    @Test func countersAreNamedForTheQueueAndActionsCaptionsAndTheEndAreOnANamedTrack() {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "cpu")],
            ops: [op("a", on: "net"), op("b", on: "cpu"), op("c", on: "cpu")])
        scenario.actions = [TimedAction(time: .milliseconds(100), action: .cancel(OperationID(1)))]
        scenario.captions = [Caption(trigger: .at(.milliseconds(200)), text: "look")]
        var s = Script(scenario)
        s.cap("net", 2)
        for name in ["a", "b", "c"] { s.add(name) }
        s.start("a", thread: 1)
        s.at(0.1)
        s.emit(.action(.cancel(s.id("b")), origin: .timed(0), ignored: nil))
        s.skip("b")
        s.start("c", thread: 2)
        s.at(0.2)
        s.emit(.caption(0, paused: false))
        s.at(1)
        s.finish("a")
        s.finish("c")
        s.end()
        let (events, check) = Self.export(s)
        #expect(check.problems.isEmpty, "\(check.problems.joined(separator: "\n"))")
        #expect(check.counterTracks == ["net running", "net cap", "cpu running"])
        let counters = events.filter { $0["ph"] as? String == "C" }
        #expect(counters.compactMap { $0["name"] as? String } == ["net", "net", "cpu", "net", "cpu"])
        #expect(counters.allSatisfy { ($0["args"] as? [String: Any])?["cap"] == nil || $0["name"] as? String == "net" })
        let run = check.slices.filter { check.threadNames[$0.track] == "actions, captions, end" }.map(\.name)
        #expect(run == ["cancel b (at 100ms)", "caption: look", "run completed"])
        // Who acted, also in the args, as the recording says it.
        let action = events.first { $0["cat"] as? String == "action" }?["args"] as? [String: Any]
        #expect(action?["origin"] as? String == "at")
        #expect(Self.slice("b finished without running", in: check).map { check.threadNames[$0.track] } == "cpu")
    }

    @Test func anAsynchronousOperationThatNeverFinishesIsDrawnToTheEndOfTheRun() {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q")], ops: [op("broken", on: "q", body: .async(.milliseconds(100)))])
        var s = Script(scenario)
        s.add("broken")
        s.start("broken", thread: 1)
        s.at(2)
        s.end(.stalled([s.id("broken"): .neverPostedFinish]))
        let (events, check) = Self.export(s)
        #expect(check.problems.isEmpty, "\(check.problems.joined(separator: "\n"))")
        let slice = events.first { $0["ph"] as? String == "X" }
        #expect(slice?["dur"] as? Int == 2_000_000)
        #expect((slice?["args"] as? [String: Any])?["unfinished"] as? Bool == true)
        #expect(Self.slice("broken", in: check).flatMap { check.threadNames[$0.track] } == "q · in flight 1")
    }

    /// Recordings have times to the millisecond, so many things share a
    /// microsecond there: their exports keep the rules too.
    @Test(arguments: ["01-chain", "03-cancel", "18-hundred-downloads-sync-v2", "23-suspend-resume"])
    func theExportOfARecordingKeepsTheRules(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BoardTests/Recordings/\(name).jsonl")
        let recording = try RecordingDecoder.decode(Array(try Data(contentsOf: url)))
        var script = Script(recording.scenario)
        for event in recording.events {
            script.at(event.time)
            script.emit(event.kind, thread: event.thread)
        }
        let (_, check) = Self.export(script)
        #expect(check.problems.isEmpty, "\(name):\n\(check.problems.joined(separator: "\n"))")
        #expect(!check.slices.isEmpty)
    }

    /// The check is no formality: what a viewer would draw wrong, it says.
    @Test func theCheckFindsWhatAViewerWouldDrawWrong() {
        let json = """
            {"traceEvents":[
            {"ph":"M","name":"process_name","pid":1,"tid":1,"args":{"name":"threads: x"}},
            {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"worker #1"}},
            {"ph":"X","cat":"operation","name":"decode","pid":1,"tid":2,"ts":0,"dur":100},
            {"ph":"X","cat":"operation","name":"other","pid":1,"tid":2,"ts":50,"dur":100},
            {"ph":"X","cat":"asynchronous operation","name":"fetch","pid":1,"tid":2,"ts":300,"dur":100},
            {"ph":"i","cat":"start","name":"fetch start()","pid":1,"tid":2,"ts":200,"s":"t"},
            {"ph":"s","cat":"dependency","name":"dependency","id":1,"pid":1,"tid":2,"ts":250,
             "args":{"dependency":"decode","dependent":"show"}},
            {"ph":"f","cat":"dependency","name":"dependency","id":1,"pid":1,"tid":3,"ts":260,"bp":"e",
             "args":{"dependency":"decode","dependent":"show"}},
            {"ph":"i","name":"cancel x","pid":1,"tid":1,"ts":10,"s":"g"},
            {"ph":"C","name":"net executing","pid":1,"tid":1,"ts":0,"args":{"executing":1}},
            {"ph":"b","cat":"asynchronous operation","name":"y","id":2,"pid":1,"tid":0,"ts":0}
            ]}
            """
        let problems = ChromeTraceCheck(json: Data(json.utf8), queues: ["net"]).problems
        let expected = [
            "overlaps decode",  // other begins inside decode and ends after it
            "asynchronous fetch is drawn on thread track 1/2",
            "the arrow decode → show leaves at 250 on 1/2 from fetch start() [200, 200]",
            "the arrow decode → show arrives at 260 on 1/3 from no slice",
            "instant 'cancel x' at 10 is not thread-scoped",
            "counter 'net executing' is not a queue's",
            "has the phase 'b'",
            "track 1/3 has no thread_name",
        ]
        for text in expected {
            #expect(problems.contains { $0.contains(text) }, "missing: \(text) in \(problems)")
        }
    }
}

/// Arrows into an operation that follows a cancelled BlockOperation on its
/// thread (issue 29): the cancelled one's last blocks return at once, and in
/// a recording (milliseconds) they, its end and its dependent's start share
/// one microsecond. A viewer bound the arrow to the last block of no
/// duration (2 of 5 conversions); it must end on the dependent, in a
/// converted recording as in a live export.
@Suite struct ChromeArrowsAfterZeroLengthBlocksTests {
    static let recording = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BoardTests/Recordings/cancelled-blocks.jsonl")

    static func export(_ scenario: Scenario, _ events: [LifecycleEvent]) -> ChromeTraceCheck {
        var encoder = ChromeTraceEncoder(scenario: scenario)
        var out: [UInt8] = []
        encoder.appendHeader(to: &out)
        for event in events { encoder.append(event, to: &out) }
        encoder.appendFooter(to: &out)
        return ChromeTraceCheck(json: Data(out), queues: scenario.queues.map(\.name))
    }

    /// Where each arrow ends, as a viewer binds it.
    static func arrivals(_ check: ChromeTraceCheck) -> [String] {
        check.arrows.map { arrow in
            let slice = check.enclosingSlice(on: arrow.finish.track, at: arrow.finish.ts, index: arrow.finish.index)
            return "\(arrow.dependency) → \(arrow.dependent): \(slice?.name ?? "no slice")"
        }
    }

    @Test func theArrowEndsOnTheDependentInAConvertedRecordingAndALiveExport() throws {
        let run = try RecordingDecoder.decode(Array(try Data(contentsOf: Self.recording)))
        // The recording: x's last three blocks, its end and d's start all at 31 ms.
        let converted = Self.export(run.scenario, run.events)
        #expect(converted.problems.isEmpty, "\(converted.problems.joined(separator: "\n"))")
        #expect(Self.arrivals(converted) == ["x → d: d"])
        // Live, each event has a microsecond of its own.
        let live = Self.export(
            run.scenario,
            run.events.map { event in
                var event = event
                event.time += Double(event.seq) * 1e-6
                return event
            })
        #expect(live.problems.isEmpty, "\(live.problems.joined(separator: "\n"))")
        #expect(Self.arrivals(live) == Self.arrivals(converted))
    }
}
