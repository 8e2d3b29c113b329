import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import RunFormats

/// The JSON Lines encoder: every kind of line pinned, and its fast path
/// for an operation's change held to the general path's bytes.
@Suite struct JSONLineEncoderTests {
    static let scenario: Scenario = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2))],
            ops: [op("fetch", on: "net", work: 0.1), op("parse", on: "net", work: 0.1, after: ["fetch"])])
        scenario.captions = [
            Caption(trigger: .at(.milliseconds(100)), text: "two slots, one \"fetch\""),
            Caption(trigger: .when(OperationID(1), .cancelled), text: "parse is Ready at once"),
            Caption(trigger: .at(.milliseconds(200)), text: "tab\tnew line\n\u{1}back\\slash é ✓"),
        ]
        return scenario
    }()
    static let formatter = EventFormatter(scenario: scenario)
    static let fetch = OperationID(0)
    static let parse = OperationID(1)
    static let net = QueueID(0)

    static func event(_ seq: Int, _ t: Double, _ kind: LifecycleEvent.Kind) -> LifecycleEvent {
        LifecycleEvent(seq: seq, time: t, kind: kind)
    }

    static let jsonCases: [(LifecycleEvent, String)] = [
        (
            event(1, 0, .queue(net, .maxConcurrentOperationCount, old: .int(-1), new: .int(2))),
            #"{"seq":1,"t":0.000,"kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":2}"#
        ),
        (
            event(7, 0.0014, .operation(fetch, .isReady, old: nil, new: .bool(true))),
            #"{"seq":7,"t":0.001,"kind":"op","op":"fetch","queue":"net","key":"isReady","old":null,"new":true}"#
        ),
        (
            LifecycleEvent(
                seq: 8, time: 1.2005, kind: .operation(fetch, .isExecuting, old: .bool(false), new: .bool(true)),
                thread: ThreadTag(2)),
            ##"{"seq":8,"t":1.201,"kind":"op","op":"fetch","queue":"net","key":"isExecuting","old":false,"new":true,"thread":"#2"}"##
        ),
        (
            event(14, 0.1, .caption(0, paused: false)),
            #"{"seq":14,"t":0.100,"kind":"caption","text":"two slots, one \"fetch\""}"#
        ),
        (
            event(15, 0.2, .caption(1, paused: true)),
            #"{"seq":15,"t":0.200,"kind":"caption","text":"parse is Ready at once","op":"parse","moment":"cancelled","paused":true}"#
        ),
        (
            event(16, 0.3, .stall([parse: .queueSuspended(net)])),
            #"{"seq":16,"t":0.300,"kind":"stall","stuck":{"parse":"its queue net is suspended"},"causes":[{"kind":"suspended","text":"net is suspended and nothing in the file resumes it","count":1,"first":["parse"],"queue":"net","resumes":[]}]}"#
        ),
        (
            event(9, 2, .operation(parse, .queuePriority, old: .priority(.normal), new: .priority(.high))),
            #"{"seq":9,"t":2.000,"kind":"op","op":"parse","queue":"net","key":"queuePriority","old":"normal","new":"high"}"#
        ),
        (
            event(10, 2, .completion(parse, thread: ThreadTag(3))),
            ##"{"seq":10,"t":2.000,"kind":"completion","op":"parse","thread":"#3"}"##
        ),
        (
            event(11, 0.5, .action(.setCap(net, .systemDefault), origin: .timed(0), ignored: nil)),
            #"{"seq":11,"t":0.500,"kind":"action","action":"max","target":"net","value":"default","origin":"at"}"#
        ),
        (
            event(12, 0.5, .action(.cancel(fetch), origin: .user, ignored: .alreadyFinished)),
            #"{"seq":12,"t":0.500,"kind":"action","action":"cancel","target":"fetch","origin":"user","ignored":"already finished"}"#
        ),
        (
            event(17, 0.2, .caption(2, paused: false)),
            #"{"seq":17,"t":0.200,"kind":"caption","text":"tab\tnew line\n\u0001back\\slash é ✓"}"#
        ),
        (
            event(18, 0.25, .block(fetch, index: 1, phase: .returned, thread: .main)),
            #"{"seq":18,"t":0.250,"kind":"block","op":"fetch","index":1,"phase":"returned","thread":"main"}"#
        ),
        (
            event(19, 0.3, .action(.cancelAll(net), origin: .completion(fetch), ignored: nil)),
            #"{"seq":19,"t":0.300,"kind":"action","action":"cancel-all","target":"net","origin":"completion","by":"fetch"}"#
        ),
        (
            event(20, 0.3, .action(.setPriority(parse, .veryHigh), origin: .user, ignored: nil)),
            #"{"seq":20,"t":0.300,"kind":"action","action":"priority","target":"parse","value":"veryHigh","origin":"user"}"#
        ),
        (
            event(21, 0.3, .action(.setCap(net, .limit(4)), origin: .timed(1), ignored: nil)),
            #"{"seq":21,"t":0.300,"kind":"action","action":"max","target":"net","value":4,"origin":"at"}"#
        ),
        (
            event(22, 0.3, .action(.add(parse), origin: .timed(2), ignored: nil)),
            #"{"seq":22,"t":0.300,"kind":"action","action":"add","target":"parse","origin":"at"}"#
        ),
        (
            event(23, 0.3, .action(.suspend(net), origin: .user, ignored: nil)),
            #"{"seq":23,"t":0.300,"kind":"action","action":"suspend","target":"net","origin":"user"}"#
        ),
        (
            event(24, 0.3, .action(.resume(net), origin: .user, ignored: nil)),
            #"{"seq":24,"t":0.300,"kind":"action","action":"resume","target":"net","origin":"user"}"#
        ),
        (
            event(25, 1234567.8915, .queue(net, .operationCount, old: .int(1), new: .int(0))),
            #"{"seq":25,"t":1234567.892,"kind":"queue","queue":"net","key":"operationCount","old":1,"new":0}"#
        ),
        (
            event(26, 4, .operation(parse, .isCancelled, old: .bool(false), new: .bool(true))),
            #"{"seq":26,"t":4.000,"kind":"op","op":"parse","queue":"net","key":"isCancelled","old":false,"new":true}"#
        ),
        (
            event(27, 4, .operation(parse, .isFinished, old: .bool(false), new: .bool(true))),
            #"{"seq":27,"t":4.000,"kind":"op","op":"parse","queue":"net","key":"isFinished","old":false,"new":true}"#
        ),
        (
            event(28, 4, .queue(net, .isSuspended, old: .bool(true), new: .bool(false))),
            #"{"seq":28,"t":4.000,"kind":"queue","queue":"net","key":"isSuspended","old":true,"new":false}"#
        ),
        (event(29, -1, .end(.completed)), #"{"seq":29,"t":0.000,"kind":"end","status":"completed"}"#),
        (
            event(13, 3, .end(.stalled([parse: .waitsFor(fetch, root: fetch), fetch: .neverPostedFinish]))),
            #"{"seq":13,"t":3.000,"kind":"end","status":"stalled","stuck":{"fetch":"it never posted isFinished","parse":"it waits for fetch, which never finishes"},"causes":[{"kind":"never-posted-isFinished","text":"fetch never posted isFinished: it holds a slot of net and does nothing","count":2,"first":["fetch","parse"],"queue":"net","op":"fetch"}]}"#
        ),
    ]

    @Test(arguments: jsonCases)
    func jsonLines(event: LifecycleEvent, expected: String) {
        #expect(Self.formatter.json(event) == expected)
        // The parse of the line is the same JSON as the expected text.
        let parsed = try? JSONSerialization.jsonObject(with: Data(Self.formatter.json(event).utf8))
        #expect(parsed != nil)
    }

    @Test func theEncoderWritesTheSameLinesWithItsTableOfNames() {
        var encoder = JSONLineEncoder(scenario: Self.scenario)
        var bytes: [UInt8] = []
        for (event, _) in Self.jsonCases { encoder.append(event, to: &bytes) }
        let expected = Self.jsonCases.map { $0.1 + "\n" }.joined()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    /// An operation's change, a dispatch and a queue's change go through a
    /// faster path when the names are in the table; over random events (a
    /// seeded generator: a failure replays) its bytes are the general
    /// path's: extreme numbers and
    /// times, every value kind, threads, and names that need escapes or are
    /// too long for its buffer (which fall back to the general path).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theFastPathsWriteTheGeneralPathsBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let names = [
            "a", "b-1_x", "é✓", "quote\"back\\slash", "tab\tnl\n\u{1}", String(repeating: "n", count: 700) + "é",
            String(repeating: "q", count: 900),
        ]
        // Short queue names: an operation with a short name takes the fast path.
        let queues = (0..<3).map { QueueSpec(name: "q\($0)" + names[Int(random.next() % 5)], cap: .limit(2)) }
        let decls = names.enumerated().map { n, name in
            op("\(n)" + name, on: queues[Int(random.next() % 3)].name, work: 0.001)
        }
        let scenario = makeScenario(queues: queues, ops: decls)
        var encoder = JSONLineEncoder(scenario: scenario)
        let values: [KeyValue] = [
            .bool(true), .bool(false), .int(0), .int(-7), .int(.min), .int(.max), .priority(.veryHigh),
            .priority(.low),
        ]
        let times: [Double] = [0, -1, 0.0004, 0.0005, 1.2345, 999_999_999_999.9994, 1e20, .nan, .infinity]
        let threads: [ThreadTag?] = [nil, .main, ThreadTag(1), ThreadTag(3), ThreadTag(Int.max)]
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        var tookFastPath = 0
        for _ in 0..<2000 {
            let seq = pick([1, 2, 999, Int.max, Int(random.next() >> 2)])
            let time = pick([pick(times), Double(random.next() % 10_000_000) / 1000])
            let old: KeyValue? = random.next() % 4 == 0 ? nil : pick(values)
            let op = OperationID(Int(random.next() % UInt64(names.count)))
            let kind: LifecycleEvent.Kind
            switch random.next() % 4 {
            case 0: kind = .dispatched(op)
            case 1:
                kind = .queue(
                    QueueID(Int(random.next() % 3)), pick(QueueKey.allCases), old: old, new: pick(values))
            default: kind = .operation(op, pick(OperationKey.allCases), old: old, new: pick(values))
            }
            let event = LifecycleEvent(seq: seq, time: time, kind: kind, thread: pick(threads))
            var fast: [UInt8] = []
            var general: [UInt8] = []
            encoder.append(event, to: &fast)
            encoder.appendGeneral(event, to: &general)
            #expect(fast == general, "seed \(seed): \(String(decoding: general, as: UTF8.self))")
            if case .operation = event.kind, scenario[operation: op].name.count < 100 { tookFastPath += 1 }
        }
        // Most of the names fit the buffer: the fast path was exercised.
        #expect(tookFastPath > 250)
    }
}

/// A recording's strings may hold anything; written as JSON, every
/// character a terminal would act on is escaped (`\uXXXX`), and a JSON
/// reader gets the same string back.
@Suite struct JSONControlEscapeTests {
    @Test func everyControlIsEscapedAndReadsBack() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/fuzz/recordings/hostile-text.jsonl")
        let recording = try RecordingDecoder.decode(Array(try Data(contentsOf: path)))
        #expect(recording.header.path.unicodeScalars.contains("\u{1B}"))
        #expect(recording.header.path.unicodeScalars.contains("\u{202E}"))
        let bytes = JSONLineEncoder.recording(recording.header, of: recording.scenario, events: recording.events)
        for (i, byte) in bytes.enumerated() {
            #expect(byte >= 0x20 || byte == 0x0A, "a raw control byte at \(i)")
            #expect(byte != 0x7F)
            if i + 1 < bytes.count {
                #expect(!(byte == 0xC2 && (0x80...0x9F).contains(bytes[i + 1])), "a raw C1 at \(i)")
            }
            if i + 2 < bytes.count, byte == 0xE2 {
                #expect(!(bytes[i + 1] == 0x80 && (0xA8...0xAE).contains(bytes[i + 2])), "a raw bidi control at \(i)")
                #expect(!(bytes[i + 1] == 0x81 && (0xA6...0xA9).contains(bytes[i + 2])), "a raw bidi isolate at \(i)")
            }
        }
        let firstLine = Data(bytes.prefix { $0 != 0x0A })
        let header = try #require(try JSONSerialization.jsonObject(with: firstLine) as? [String: Any])
        #expect(header["path"] as? String == recording.header.path)
        #expect(try RecordingDecoder.decode(bytes).header.path == recording.header.path)
    }
}
