import Foundation
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import Testing
import TextKit

/// The two trace formats and the interface's log line, pinned.
@Suite struct EventFormatterTests {
    static let scenario: Scenario = {
        var b = ScenarioBuilder()
        let net = b.queue("net", cap: .limit(2))
        let fetch = b.work("fetch", on: net, ms: 100)
        let parse = b.work("parse", on: net, ms: 100, after: [fetch])
        var scenario = b.scenario
        scenario.captions = [
            Caption(trigger: .at(.milliseconds(100)), text: "two slots, one \"fetch\""),
            Caption(trigger: .when(parse, .cancelled), text: "parse is Ready at once"),
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
            #"{"seq":16,"t":0.300,"kind":"stall","stuck":{"parse":"its queue net is suspended"}}"#
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
            #"{"seq":13,"t":3.000,"kind":"end","status":"stalled","stuck":{"fetch":"it never posted isFinished","parse":"it waits for fetch, which never finishes"}}"#
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
        let encoder = JSONLineEncoder(scenario: Self.scenario)
        var bytes: [UInt8] = []
        for (event, _) in Self.jsonCases { encoder.append(event, to: &bytes) }
        let expected = Self.jsonCases.map { $0.1 + "\n" }.joined()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    /// An operation's change goes through a faster path when the names are
    /// in the table; its bytes must be the general path's for any value:
    /// extreme numbers and times, every value kind, threads, and names too
    /// long for its buffer (which fall back to the general path).
    @Test func theFastPathForOperationChangesWritesTheGeneralPathsBytes() {
        var b = ScenarioBuilder()
        let q = b.queue(String(repeating: "q", count: 900), cap: .limit(2))
        let short = b.work("a", on: q, ms: 1)
        let long = b.work(String(repeating: "n", count: 700) + "é", on: q, ms: 1)
        let plain = b.queue("p", cap: .limit(1))
        let other = b.work("b-1_x", on: plain, ms: 1)
        let scenario = b.scenario
        let table = JSONLineEncoder(scenario: scenario)
        let general = JSONLineEncoder(scenario: scenario, quotesNamesOnce: false)
        let values: [KeyValue?] = [
            nil, .bool(true), .bool(false), .int(0), .int(-7), .int(.min), .int(.max), .priority(.veryHigh),
        ]
        let times: [Double] = [0, -1, 0.0004, 0.0005, 1.2345, 999_999_999_999.9994, 1e20, .nan, .infinity]
        let threads: [ThreadTag?] = [nil, .main, ThreadTag(3), ThreadTag(Int.max)]
        var seq = 0
        for op in [short, long, other] {
            for key in [OperationKey.isReady, .isExecuting, .isFinished, .isCancelled, .queuePriority] {
                for old in values {
                    for new in values.compactMap({ $0 }) {
                        seq += 1
                        let event = LifecycleEvent(
                            seq: seq % 3 == 0 ? Int.max : seq, time: times[seq % times.count],
                            kind: .operation(op, key, old: old, new: new), thread: threads[seq % threads.count])
                        var fast: [UInt8] = []
                        var slow: [UInt8] = []
                        table.append(event, to: &fast)
                        general.append(event, to: &slow)
                        #expect(fast == slow, "\(String(decoding: slow, as: UTF8.self))")
                    }
                }
            }
        }
    }

    @Test func textLinesAreAlignedUnderTheHeader() {
        let header = Self.formatter.textHeader
        let line = Self.formatter.text(
            LifecycleEvent(
                seq: 8, time: 1.2005, kind: .operation(Self.fetch, .isExecuting, old: .bool(false), new: .bool(true)),
                thread: ThreadTag(1)))
        #expect(header == "   seq     time  kind        queue  name   what")
        #expect(line == "     8    1.201  op          net    fetch  isExecuting     false → true  on thread #1")
        let caption = Self.formatter.text(Self.event(15, 0.2, .caption(1, paused: true)))
        #expect(
            caption.hasSuffix(
                #"caption                   say "parse is Ready at once"  (when parse cancelled)  paused here (lesson mode)"#
            ))
        let initial = Self.formatter.text(
            Self.event(7, 0, .operation(Self.parse, .isReady, old: nil, new: .bool(false))))
        #expect(initial.hasSuffix("parse  isReady         false  (initial: added to its queue)"))
    }

    /// Who did an action, with the file's line: one wording, which the
    /// timeline text and the chrome export use too.
    @Test func anActionSaysWhoDidItWithTheFilesLine() throws {
        let source = """
            queue net
            op fetch work 100ms
            op save work 100ms after fetch completion cancel-all net
            at 300ms cancel fetch

            """
        let scenario = try #require(ScenarioReader.read(SourceFile(path: "a.ops", bytes: Array(source.utf8))).scenario)
        let formatter = EventFormatter(scenario: scenario)
        let (fetch, save) = (scenario.operationID(named: "fetch")!, scenario.operationID(named: "save")!)
        let timed = Self.event(30, 0.3, .action(.cancel(fetch), origin: .timed(0), ignored: .alreadyFinished))
        #expect(formatter.text(timed).hasSuffix("cancel fetch  (at 300ms, line 4)  ignored: already finished"))
        #expect(formatter.logLine(timed) == "0.300  action  cancel fetch (at 300ms, line 4) ignored: already finished")
        let completion = Self.event(31, 0.4, .action(.cancelAll(QueueID(0)), origin: .completion(save), ignored: nil))
        #expect(formatter.text(completion).hasSuffix("cancel-all net  (completion block of save, line 3)"))
        let user = Self.event(32, 0.5, .action(.suspend(QueueID(0)), origin: .user, ignored: nil))
        #expect(formatter.text(user).hasSuffix("suspend net  (key pressed)"))
        #expect(
            EventFormatter.actionMark(.cancel(fetch), origin: .timed(0), ignored: nil, in: scenario)
                == "cancel fetch (at 300ms, line 4)")
    }

    @Test func logLinesAreCompact() {
        let line = Self.formatter.logLine(
            Self.event(8, 0.412, .operation(Self.fetch, .isExecuting, old: .bool(false), new: .bool(true))))
        #expect(line == "0.412  fetch  isExecuting false → true")
        let queue = Self.formatter.logLine(
            Self.event(9, 0.5, .queue(Self.net, .operationCount, old: .int(2), new: .int(1))))
        #expect(queue == "0.500  net  operationCount 2 → 1")
    }

    @Test func aStallLogLineGroupsOperationsThatShareAReason() {
        var b = ScenarioBuilder()
        let q = b.queue("downloads", suspended: true)
        let ids = (1...5).map { b.work("dl\($0)", on: q, ms: 10) }
        let other = b.async("forgets", on: q, ms: 10, neverFinishes: true)
        let formatter = EventFormatter(scenario: b.scenario)
        var stuck = Dictionary(uniqueKeysWithValues: ids.map { ($0, StuckReason.queueSuspended(q)) })
        stuck[other] = .neverPostedFinish
        let line = formatter.logLine(Self.event(40, 1, .stall(stuck)))
        #expect(
            line
                == "1.000  stall  nothing can progress until you act — dl1, dl2 and 3 more: its queue downloads is suspended; forgets: it never posted isFinished"
        )
    }
}
