import EventFixtures
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// The `main-blocked` lines a trace writes after `end`: written with their
/// keys in order, read back as written, and read as strictly as an event
/// line; nothing else may follow `end`.
@Suite("main-blocked lines after the end")
struct MainBlockedLineTests {
    static let source = "queue net max 2\nop fetch on net work 10ms\nat 1ms wait fetch\nat 2ms wait-all net\n"
    static let scenario = ScenarioReader.read(source).scenario!
    static let fetch = scenario.operationID(named: "fetch")!
    static let net = scenario.queueID(named: "net")!

    /// A run of `source` to its completed end, as `trace --format jsonl`
    /// wrote it (9 events).
    static let run: [UInt8] = {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(
            JSONLineEncoder.Header(opscope: "0.1-test", language: 1, path: "tiny.ops", source: source), to: &bytes)
        bytes += Array(
            """
            {"seq":1,"t":0.000,"kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":2}
            {"seq":2,"t":0.002,"kind":"op","op":"fetch","queue":"net","key":"isReady","old":null,"new":true}
            {"seq":3,"t":0.002,"kind":"queue","queue":"net","key":"operationCount","old":0,"new":1}
            {"seq":4,"t":0.002,"kind":"dispatched","op":"fetch","queue":"net"}
            {"seq":5,"t":0.003,"kind":"op","op":"fetch","queue":"net","key":"isExecuting","old":false,"new":true,"thread":"#1"}
            {"seq":6,"t":0.013,"kind":"op","op":"fetch","queue":"net","key":"isExecuting","old":true,"new":false}
            {"seq":7,"t":0.013,"kind":"op","op":"fetch","queue":"net","key":"isFinished","old":false,"new":true}
            {"seq":8,"t":0.013,"kind":"queue","queue":"net","key":"operationCount","old":1,"new":0}
            {"seq":9,"t":0.013,"kind":"end","status":"completed"}

            """.utf8)
        return bytes
    }()

    static let returned = MainThreadBlockRecord(
        action: .wait(fetch), began: 0.1014, returned: 1.8006, seconds: 1.6992, line: 21)
    static let never = MainThreadBlockRecord(
        action: .waitAll(net), began: 0.7, returned: nil, seconds: 0.2, line: nil)

    static func written(_ blocks: [MainThreadBlockRecord]) -> [UInt8] {
        let encoder = JSONLineEncoder(scenario: scenario)
        var out: [UInt8] = []
        for block in blocks { encoder.appendMainThreadBlock(block, to: &out) }
        return out
    }

    @Test func eachKeyInItsOrderTimesToTheMillisecond() {
        #expect(
            String(decoding: Self.written([Self.returned, Self.never]), as: UTF8.self) == """
                {"kind":"main-blocked","t":0.101,"until":1.801,"seconds":1.699,"action":"wait","target":"fetch","line":21}
                {"kind":"main-blocked","t":0.700,"until":null,"seconds":0.200,"action":"wait-all","target":"net"}

                """)
    }

    @Test func aRecordingReadsThemBackAfterItsEnd() throws {
        let recording = try #require(RecordingFixture.decode(Self.run + Self.written([Self.returned, Self.never])))
        #expect(recording.problem == nil)
        #expect(recording.events.count == 9)
        #expect(
            recording.mainThreadBlocks == [
                MainThreadBlockRecord(
                    action: .wait(Self.fetch), began: 0.101, returned: 1.801, seconds: 1.699, line: 21),
                MainThreadBlockRecord(action: .waitAll(Self.net), began: 0.7, returned: nil, seconds: 0.2, line: nil),
            ])
    }

    static let badLines: [(String, String)] = [
        (
            #"{"seq":10,"t":1.000,"kind":"queue","queue":"net","key":"isSuspended","old":false,"new":true}"#,
            "a line after the end of the run (line 10): only main-blocked summaries may follow it"
        ),
        (
            #"{"kind":"main-blocked","t":0.1,"until":0.05,"seconds":1,"action":"wait","target":"fetch"}"#,
            "'until' is before 't': a wait returns after it began"
        ),
        (
            #"{"kind":"main-blocked","t":0.1,"until":null,"seconds":1,"action":"wait","target":"net"}"#,
            "'net' is a queue, not an operation"
        ),
        (
            #"{"kind":"main-blocked","t":0.1,"until":null,"seconds":1,"action":"cancel","target":"fetch"}"#,
            "the 'action' of a main-blocked line is wait or wait-all"
        ),
        (
            #"{"kind":"main-blocked","t":0.1,"until":null,"seconds":1,"action":"wait","target":"fetch","op":"x"}"#,
            "'op' is not a key of main-blocked lines"
        ),
        (#"{"kind":"main-blocked","t":0.1,"seconds":1,"action":"wait","target":"fetch"}"#, "missing key 'until'"),
        (
            #"{"kind":"main-blocked","t":-1,"until":null,"seconds":1,"action":"wait","target":"fetch"}"#,
            "'t' is -1, not a time of a run"
        ),
        (
            #"{"kind":"main-blocked","t":0.1,"until":null,"seconds":1,"action":"wait","target":"fetch","line":0}"#,
            "'line' must be a line number (1 or more), not 0"
        ),
    ]

    @Test func anythingElseAfterTheEndIsAProblemOfItsLine() throws {
        for (line, message) in Self.badLines {
            let recording = try #require(RecordingFixture.decode(Self.run + Array((line + "\n").utf8)))
            #expect(recording.events.count == 9)
            #expect(recording.mainThreadBlocks.isEmpty)
            let problem = try #require(recording.problem, "\(line)")
            #expect(problem.line == 11)
            #expect(problem.message.contains(message), "\(problem.message)")
        }
    }

    @Test func beforeTheEndItIsNoEvent() throws {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        bytes += Self.written([Self.returned])
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(recording.events.isEmpty)
        #expect(recording.problem?.line == 2)
    }
}
