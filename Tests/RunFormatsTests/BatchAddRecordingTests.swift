import EventFixtures
import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// One add of several operations (`addOperations`), at the start and at
/// a time, is one action line with a list of names, and reads back as it
/// was.
@Suite("a batch add in a recording")
struct BatchAddRecordingTests {
    static let source = """
        queue q serial
        op a on q work 10ms
        op b on q work 10ms priority high
        op c on q work 10ms
        op d on q work 10ms priority veryHigh
        add a, b
        at 20ms add c, d
        """
    static let scenario = ScenarioReader.read(source, path: "batch.ops").scenario!

    static let header = JSONLineEncoder.Header(opscope: "0.1-test", language: 1, path: "batch.ops", source: source)

    static func op(_ name: String) -> OperationID { scenario.operationID(named: name)! }

    static var events: [LifecycleEvent] {
        let q = QueueID(0)
        let kinds: [LifecycleEvent.Kind] = [
            .action(.addBatch([op("a"), op("b")]), origin: .startBatch(0), ignored: nil),
            .operation(op("a"), .isReady, old: nil, new: .bool(true)),
            .operation(op("b"), .isReady, old: nil, new: .bool(true)),
            .queue(q, .operationCount, old: .int(0), new: .int(2)),
            .action(.addBatch([op("c"), op("d")]), origin: .timed(0), ignored: nil),
            .action(.addBatch([op("c"), op("d")]), origin: .user, ignored: .alreadyAdded),
        ]
        return kinds.enumerated().map { n, kind in LifecycleEvent(seq: n + 1, time: Double(n) * 0.01, kind: kind) }
    }

    @Test("the action lines list the operations as one target, the start's with its own origin")
    func lines() throws {
        let bytes = RecordingFixture.recording(Self.events, of: Self.scenario, header: Self.header)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter {
            $0.contains(#""kind":"action""#)
        }
        #expect(
            lines == [
                #"{"seq":1,"t":0.000,"kind":"action","action":"add","target":["a","b"],"origin":"start"}"#,
                #"{"seq":5,"t":0.040,"kind":"action","action":"add","target":["c","d"],"origin":"at"}"#,
                #"{"seq":6,"t":0.050,"kind":"action","action":"add","target":["c","d"],"origin":"user","ignored":"already added (adding an operation twice would stop the program)"}"#,
            ])
    }

    @Test("read back, the events are the ones written")
    func roundTrip() throws {
        let bytes = RecordingFixture.recording(Self.events, of: Self.scenario, header: Self.header)
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(recording.problem == nil)
        #expect(recording.scenario == Self.scenario)
        #expect(recording.events == Self.events.map(RecordingFixture.toMillisecond))
    }

    @Test(
        "a list of one name, or a start origin no top-level add matches, is refused",
        arguments: [
            #"{"seq":1,"t":0.000,"kind":"action","action":"add","target":["a"],"origin":"at"}"#,
            #"{"seq":1,"t":0.000,"kind":"action","action":"add","target":["c","d"],"origin":"start"}"#,
            #"{"seq":1,"t":0.000,"kind":"action","action":"add","target":["a","x"],"origin":"user"}"#,
            #"{"seq":1,"t":0.000,"kind":"action","action":"add","target":[1,2],"origin":"user"}"#,
        ])
    func refused(_ line: String) throws {
        var bytes = RecordingFixture.recording([], of: Self.scenario, header: Self.header)
        bytes += Array((line + "\n").utf8)
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(recording.problem?.description.contains("line 2") == true)
        #expect(recording.events.isEmpty)
    }
}
