import EventFixtures
import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// A recording read back is the run it was written from: the scenario of
/// its header, and every event with its time to the millisecond.
@Suite("reading a recording back")
struct RecordingDecoderTests {
    @Test("every kind of line and value round-trips, the at actions and captions matched to their index")
    func everyKindRoundTrips() throws {
        try #require(RecordingFixture.scenario.operations.count == 10, "the fixture's source has errors")
        let written = RecordingFixture.events
        let bytes = RecordingFixture.recording(written)
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(recording.problem == nil)
        #expect(recording.scenario == RecordingFixture.scenario)
        #expect(recording.header.opscope == "0.1-test")
        #expect(recording.header.language == 1)
        #expect(recording.header.path == "every-kind.ops")
        #expect(recording.header.source == RecordingFixture.source)
        #expect(recording.events == written.map(RecordingFixture.toMillisecond))
        // Times are the numbers written: 0.0014 is 0.001, 0.0507 is 0.051.
        #expect(recording.events.prefix(2).map(\.time) == [0.001, 0.051])
    }

    /// The package's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The recordings kept in the repository, every one written by opscope
    /// (format 1 and 2).
    static let keptRecordings: [String] = ["Tests/BoardTests/Recordings", ".ci/fuzz/recordings"].flatMap { folder in
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(folder)/\($0)" }
    }

    /// What `trace RUN.jsonl --format jsonl` writes: the recording read and
    /// written again in opscope's form.
    static func rewritten(_ bytes: [UInt8]) throws -> [UInt8] {
        let recording = try RecordingDecoder.decode(bytes)
        return JSONLineEncoder.recording(
            recording.header, of: recording.scenario, events: recording.events,
            mainThreadBlocks: recording.mainThreadBlocks)
    }

    @Test("a recording opscope wrote is written again byte for byte", arguments: keptRecordings)
    func ownFormComesBack(_ path: String) throws {
        let bytes = Array(
            try #require(FileManager.default.contents(atPath: Self.root.appendingPathComponent(path).path)))
        #expect(try Self.rewritten(bytes) == bytes)
    }

    /// Another writer's keys in another order, spaces, times with more or
    /// fewer than three decimals or with an exponent: the same run, in
    /// opscope's form, times to the millisecond; and that form stays.
    @Test("a recording in another form is written again in opscope's")
    func otherFormsAreRewritten() throws {
        let source = RecordingFixture.source
        let header =
            #"{ "version": 2, "kind": "header", "source": "# + EventFormatter.quote(source)
            + #", "path": "every-kind.ops", "language": 1, "format": "opscope-recording", "opscope": "other" }"#
        let written =
            [
                header,
                #"{"t":0.0014, "seq":1,"kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":2}"#,
                #"  {"seq":2,"t":1,"kind":"op","queue":"net","op":"fetch","key":"isReady","old":null,"new":true}"#,
                #"{"seq":5,"t":2.25e1,"kind":"dispatched","op":"fetch","queue":"net"}"#,
                ##"{"seq":6,"t":22.5005,"kind":"op","op":"fetch","queue":"net","key":"isExecuting","old":false,"new":true,"thread":"#1"}"##,
            ].joined(separator: "\n") + "\n"
        let rewritten = try Self.rewritten(Array(written.utf8))
        var expected: [UInt8] = []
        JSONLineEncoder.appendHeader(
            .init(opscope: "other", language: 1, path: "every-kind.ops", source: source, version: 2), to: &expected)
        expected += Array(
            """
            {"seq":1,"t":0.001,"kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":2}
            {"seq":2,"t":1.000,"kind":"op","op":"fetch","queue":"net","key":"isReady","old":null,"new":true}
            {"seq":5,"t":22.500,"kind":"dispatched","op":"fetch","queue":"net"}
            {"seq":6,"t":22.501,"kind":"op","op":"fetch","queue":"net","key":"isExecuting","old":false,"new":true,"thread":"#1"}

            """.utf8)
        #expect(String(decoding: rewritten, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try Self.rewritten(rewritten) == rewritten)
    }

    @Test("a time is the number written, whatever its form: 1, 1.5, 2.25e1, 0.000")
    func timeForms() throws {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        for (n, t) in ["0.000", "1", "1.5", "2.25e1", "22.5", "1e2", "123456789.123"].enumerated() {
            var copy = bytes
            copy += Array(#"{"seq":\#(n + 1),"t":\#(t),"kind":"end","status":"stalled","stuck":{}}"#.utf8)
            let recording = try #require(RecordingFixture.decode(copy))
            #expect(recording.problem == nil)
            #expect(recording.events.first?.time == Double(t), "\(t)")
        }
    }

    @Test("a cap of default or a number, a stall's and an end's suspended queue, in either form")
    func lenientForms() throws {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        bytes += Array(
            """
            {"seq":1,"t":0.5,"kind":"stall","stuck":{"parse":"its queue disk is suspended and nothing resumes it"}}
            {"seq":2,"t":0.5,"kind":"end","status":"stalled","stuck":{"parse":"its queue disk is suspended"}}

            """.utf8)
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(recording.problem == nil)
        let parse = RecordingFixture.op("parse")
        let disk = RecordingFixture.queue("disk")
        #expect(
            recording.events.map(\.kind) == [
                .stall([parse: .queueSuspended(disk)]), .end(.stalled([parse: .queueSuspended(disk)])),
            ])
    }

    @Test("an at action performed more often than the file says is matched to the last of its lines")
    func repeatedTimedAction() throws {
        let parse = RecordingFixture.op("parse")
        let cancels = (0..<3).map { n in
            LifecycleEvent(
                seq: n + 1, time: 0.1 * Double(n + 1), kind: .action(.cancel(parse), origin: .timed(0), ignored: nil))
        }
        let recording = try #require(RecordingFixture.decode(RecordingFixture.recording(cancels)))
        #expect(recording.problem == nil)
        let origins = recording.events.compactMap { event -> ActionOrigin? in
            if case .action(_, let origin, _) = event.kind { return origin }
            return nil
        }
        // `at 100ms cancel parse` is index 0, `at 400ms cancel parse` index 4.
        #expect(origins == [.timed(0), .timed(4), .timed(4)])
    }

    // MARK: - Nothing to open

    static func header(_ json: String) -> [UInt8] { Array((json + "\n").utf8) }

    static let fatalCases: [(name: String, bytes: [UInt8], fragment: String)] = [
        ("an empty file", [], "the file is empty"),
        (
            "an event where the header should be",
            header(#"{"seq":1,"t":0.000,"kind":"end","status":"completed"}"#),
            "the first line is not an opscope recording's header"
        ),
        (
            "not JSON", header("title \"a scenario, not a recording\""),
            "the first line is not an opscope recording's header"
        ),
        (
            "another format",
            header(#"{"kind":"header","format":"chrome","version":1}"#),
            "its format is 'chrome'"
        ),
        (
            "version 4",
            header(#"{"kind":"header","format":"opscope-recording","version":4,"future":true}"#),
            "recording format version 4 is not supported: this opscope reads versions 1 to 3"
        ),
        (
            "no source",
            header(
                #"{"kind":"header","format":"opscope-recording","version":1,"opscope":"0.1","language":1,"path":"a.ops"}"#
            ),
            "the header has no 'source'"
        ),
        (
            "a source with errors",
            header(
                #"{"kind":"header","format":"opscope-recording","version":1,"opscope":"0.1","language":1,"path":"a.ops","source":"queue net\nop fetch on nte work 1s\n"}"#
            ),
            "the recording's scenario (its header's 'source') has errors: 2:13: unknown queue 'nte'"
        ),
    ]

    @Test("nothing to open: the decoder throws, saying why", arguments: fatalCases.indices)
    func fatal(_ index: Int) {
        let (name, bytes, fragment) = Self.fatalCases[index]
        do {
            let recording = try RecordingDecoder.decode(bytes)
            Issue.record("\(name): opened, with \(recording.events.count) events")
        } catch {
            #expect(error.line == 1, "\(name)")
            #expect(error.message.contains(fragment), "\(name): \(error.message)")
        }
    }
}
