import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing
import TextKit

/// The text trace and the interface's log line, pinned (the JSON Lines:
/// RunFormatsTests' `JSONLineEncoderTests`).
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
