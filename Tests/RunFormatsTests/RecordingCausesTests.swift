import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import RunFormats

/// A stall's `causes` in a recording: written from the lines before it
/// (who suspended the queue), read for their form, and never taken over
/// what the reader groups again.
@Suite("a recording's causes")
struct RecordingCausesTests {
    static let source = """
        queue photos max 2
        queue ui serial
        op p1 on photos async 100ms completion suspend photos
        op p4 on photos async 30ms after p1
        op sheet on ui work 20ms after p4 completion resume photos

        """
    static let scenario = ScenarioReader.read(source).scenario!
    static func op(_ name: String) -> OperationID { scenario.operationID(named: name)! }

    /// p1 runs, its completion block suspends photos, and p4 (on photos)
    /// and sheet (after p4) are stuck: a deadlock.
    static let events: [LifecycleEvent] = {
        let (p1, p4, sheet) = (op("p1"), op("p4"), op("sheet"))
        let photos = scenario.queueID(named: "photos")!
        let kinds: [(LifecycleEvent.Kind, ThreadTag?)] = [
            (.operation(p1, .isReady, old: nil, new: .bool(true)), nil),
            (.operation(p4, .isReady, old: nil, new: .bool(false)), nil),
            (.operation(sheet, .isReady, old: nil, new: .bool(false)), nil),
            (.dispatched(p1), nil),
            (.operation(p1, .isExecuting, old: .bool(false), new: .bool(true)), ThreadTag(1)),
            (.operation(p1, .isExecuting, old: .bool(true), new: .bool(false)), nil),
            (.operation(p1, .isFinished, old: .bool(false), new: .bool(true)), nil),
            (.operation(p4, .isReady, old: .bool(false), new: .bool(true)), nil),
            (.completion(p1, thread: ThreadTag(2)), nil),
            (.action(.suspend(photos), origin: .completion(p1), ignored: nil), nil),
            (.queue(photos, .isSuspended, old: .bool(false), new: .bool(true)), nil),
            (.end(.stalled([p4: .queueSuspended(photos), sheet: .waitsFor(p4, root: p4)])), nil),
        ]
        return kinds.enumerated().map { n, kind in
            LifecycleEvent(seq: n + 1, time: 0.1 + Double(n) * 0.001, kind: kind.0, thread: kind.1)
        }
    }()

    static func header(version: Int = JSONLineEncoder.recordingVersion) -> JSONLineEncoder.Header {
        JSONLineEncoder.Header(opscope: "0.1-test", language: 1, path: "album.ops", source: source, version: version)
    }

    static func lastLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func theEndCarriesItsCausesWithWhoSuspendedTheQueueAndTheResumeLeft() {
        let line = Self.lastLine(JSONLineEncoder.recording(Self.header(), of: Self.scenario, events: Self.events))
        let stuck =
            #""stuck":{"p4":"its queue photos is suspended and nothing resumes it","#
            + #""sheet":"it waits for p4, which never finishes"}"#
        #expect(line.contains(stuck), "the per-operation map is as before: \(line)")
        #expect(
            line.hasSuffix(
                #","causes":[{"kind":"deadlock","text":"a deadlock: photos is suspended, and what would resume it "#
                    + #"waits behind it","count":2,"first":["p4","sheet"],"queue":"photos","#
                    + #""suspended":{"t":0.109,"origin":"completion","by":"p1"},"#
                    + #""resumes":[{"origin":"completion","by":"sheet","held":"sheet waits for p4, on photos","#
                    + #""cycle":true}]}]}"#), "\(line)")
    }

    @Test func aRecordingOfAnEarlierVersionIsWrittenAgainWithoutCauses() {
        let line = Self.lastLine(
            JSONLineEncoder.recording(Self.header(version: 2), of: Self.scenario, events: Self.events))
        #expect(line.hasPrefix(#"{"seq":12,"t":0.111,"kind":"end","status":"stalled","stuck":{"#))
        #expect(!line.contains("causes"))
    }

    @Test func theCausesAreReadForTheirFormAndThenGroupedAgainNeverTaken() throws {
        let written = JSONLineEncoder.recording(Self.header(), of: Self.scenario, events: Self.events)
        let recording = try #require(RecordingFixture.decode(written))
        #expect(recording.problem == nil)
        #expect(recording.events == Self.events.map(RecordingFixture.toMillisecond))
        // Written again: the same bytes.
        #expect(
            JSONLineEncoder.recording(recording.header, of: recording.scenario, events: recording.events) == written)

        // Causes of the right form that say something else: read, and not
        // believed: written again, the recording says what its lines say.
        let text = String(decoding: written, as: UTF8.self)
        let start = try #require(text.range(of: #","causes":"#))
        let tampered =
            String(text[..<start.lowerBound])
            + #","causes":[{"kind":"unknown","text":"nobody knows","count":2,"first":["p4","sheet"]}]}"# + "\n"
        let read = try #require(RecordingFixture.decode(Array(tampered.utf8)))
        #expect(read.problem == nil)
        #expect(JSONLineEncoder.recording(read.header, of: read.scenario, events: read.events) == written)
    }
}
