import EventFixtures
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// A recording whose lines are each well formed but tell a life no
/// operation could have (or a time no run reaches) is read up to the line
/// that does, which is the problem, with its column: what the views would
/// otherwise draw from it is not a run.
@Suite("an impossible stream in a recording")
struct ImpossibleStreamTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Event lines, without `seq` and `t` (the test numbers them).
        var lines: [String]
        /// 1-based among `lines`: the first that is refused.
        var bad: Int
        var fragment: String
        /// The column is just past this text in the bad line; nil: none.
        var after: String?

        var testDescription: String { name }
    }

    static func impossible(_ name: String, _ lines: [String], bad: Int, _ fragment: String, after: String? = nil)
        -> Case
    {
        Case(name: name, lines: lines, bad: bad, fragment: fragment, after: after)
    }

    static func op(_ name: String, _ key: String, _ old: String, _ new: String, thread: String? = nil) -> String {
        let queue = RecordingFixture.scenario.queueName(
            RecordingFixture.scenario[operation: RecordingFixture.op(name)].queue)
        let on = thread.map { #","thread":"\#($0)""# } ?? ""
        return #""kind":"op","op":"\#(name)","queue":"\#(queue)","key":"\#(key)","old":\#(old),"new":\#(new)\#(on)"#
    }

    static let addFetch = op("fetch", "isReady", "null", "true")
    static let startFetch = op("fetch", "isExecuting", "false", "true", thread: "#1")
    static let stopFetch = op("fetch", "isExecuting", "true", "false")
    static let finishFetch = op("fetch", "isFinished", "false", "true")
    static let dispatchFetch = #""kind":"dispatched","op":"fetch","queue":"net""#
    static let addThumbs = op("thumbs", "isReady", "null", "true")
    static let startThumbs = op("thumbs", "isExecuting", "false", "true", thread: "#1")
    static func block(_ index: Int, _ phase: String) -> String {
        ##""kind":"block","op":"thumbs","index":\##(index),"phase":"\##(phase)","thread":"#1""##
    }
    static let startHand = #""kind":"call","action":"start","target":"hand","phase":"started""#
    static let handOnNet =
        ##""kind":"op","op":"hand","queue":"net","key":"isExecuting","old":false,"new":true,"thread":"main""##
    static let fetchCompletion = ##""kind":"completion","op":"fetch","thread":"#2""##
    static let fetchStuck = #""kind":"end","status":"stalled","stuck":{"fetch":"it never posted isFinished"}"#

    static let cases: [Case] = [
        impossible(
            "a stop and no start", [addFetch, stopFetch], bad: 2,
            "'fetch' announced isExecuting false before it started", after: #""new":"#),
        impossible(
            "a stop twice", [addFetch, startFetch, stopFetch, stopFetch], bad: 4,
            "'fetch' announced isExecuting false after it had stopped", after: #""new":"#),
        impossible(
            "a finish before the add", [finishFetch], bad: 1,
            "'fetch' announced isFinished true before it was added to its queue", after: #""key":"#),
        impossible(
            "a start before the add", [startFetch], bad: 1,
            "'fetch' announced isExecuting true before it was added", after: #""key":"#),
        impossible(
            "fifty starts without a stop", [addFetch] + Array(repeating: startFetch, count: 50), bad: 3,
            "'fetch' announced isExecuting true twice: an operation runs once", after: #""new":"#),
        impossible(
            "a finish while it executes", [addFetch, startFetch, finishFetch], bad: 3,
            "'fetch' announced isFinished true while it was executing", after: #""new":"#),
        impossible(
            "a finish twice", [addFetch, finishFetch, finishFetch], bad: 3, "'fetch' announced isFinished true twice",
            after: #""new":"#),
        impossible(
            "un-finishing", [addFetch, finishFetch, op("fetch", "isFinished", "true", "false")], bad: 3,
            "'fetch' announced isFinished false after it finished", after: #""new":"#),
        impossible(
            "isFinished false before any finish", [addFetch, op("fetch", "isFinished", "false", "false")], bad: 2,
            "isFinished only ever turns true", after: #""new":"#),
        impossible(
            "a start after the finish", [addFetch, finishFetch, startFetch], bad: 3,
            "'fetch' announced isExecuting true after it finished", after: #""key":"#),
        impossible(
            "added twice", [addFetch, addFetch], bad: 2, "'fetch' was added to its queue twice", after: #""old":"#),
        impossible(
            "a cancel undone",
            [addFetch, op("fetch", "isCancelled", "false", "true"), op("fetch", "isCancelled", "true", "false")],
            bad: 3, "a cancel is never undone", after: #""new":"#),
        impossible(
            "a dispatch before the add", [dispatchFetch], bad: 1,
            "'fetch' was dispatched before it was added to its queue", after: #""kind":"#),
        impossible(
            "a dispatch twice", [addFetch, dispatchFetch, dispatchFetch], bad: 3, "'fetch' was dispatched twice",
            after: #""kind":"#),
        impossible(
            "a dispatch after the start", [addFetch, startFetch, dispatchFetch], bad: 3,
            "'fetch' was dispatched after it started", after: #""kind":"#),
        impossible(
            "a completion block before the finish", [addFetch, fetchCompletion], bad: 2,
            "the completion block of 'fetch' ran before 'fetch' finished", after: #""kind":"#),
        impossible(
            "a completion block twice", [addFetch, finishFetch, fetchCompletion, fetchCompletion], bad: 4,
            "the completion block of 'fetch' ran twice", after: #""kind":"#),
        impossible(
            "a block while its operation waits", [addThumbs, block(0, "started")], bad: 2,
            "block 0 of 'thumbs' started before 'thumbs' started executing", after: #""kind":"#),
        impossible(
            "a block returned that never started", [addThumbs, startThumbs, block(0, "returned")], bad: 3,
            "block 0 of 'thumbs' returned, but no block of 'thumbs' had started and not returned",
            after: #""phase":"#),
        impossible(
            "a negative operationCount", [#""kind":"queue","queue":"net","key":"operationCount","old":0,"new":-1"#],
            bad: 1, "'net' has an operationCount of -1: a count is never negative", after: #""new":"#),
        impossible(
            "a cap of 0", [#""kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":2,"new":0"#],
            bad: 1, "'net' has a cap of 0: a cap is -1 (the system decides) or 1 and more", after: #""new":"#),
        impossible(
            "a cap below -1", [#""kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-2,"new":2"#],
            bad: 1, "'net' has a cap of -2", after: #""old":"#),
        impossible(
            "a thread past those a run numbers",
            [addFetch, finishFetch, ##""kind":"completion","op":"fetch","thread":"#23""##],
            bad: 3, "thread #23 is past the threads a run of this scenario numbers: at most 22", after: #""thread":"#),
        impossible(
            "the end first", [#""kind":"end","status":"completed""#], bad: 1,
            "the run ended completed but 'fetch' had not finished (nor 9 more)", after: #""status":"#),
        impossible(
            "an operation started by hand, added to a queue",
            [#""kind":"op","op":"hand","key":"isReady","old":null,"new":true"#],
            bad: 1, "'hand' was added to a queue, but it is started by hand", after: #""old":"#),
        impossible(
            "an operation started by hand, executing outside a start() of it",
            [##""kind":"op","op":"hand","key":"isExecuting","old":false,"new":true,"thread":"main""##], bad: 1,
            "'hand' began executing outside a start() of it", after: #""key":"#),
        impossible(
            "an operation started by hand, with a queue", [startHand, handOnNet], bad: 2,
            "'hand' is started by hand: no queue holds it", after: #""op":"hand","#),
        impossible(
            "a call of an operation its queue starts",
            [#""kind":"call","action":"start","target":"fetch","phase":"started""#],
            bad: 1, "'fetch' is not started by hand", after: #""target":"#),
        impossible(
            "a return from a call never made", [#""kind":"call","action":"start","target":"hand","phase":"returned""#],
            bad: 1, "the main thread returned from 'hand.start()', which it had not called", after: #""phase":"#),
        impossible(
            "a synchronous start() by hand that returns before its operation finished",
            [
                startHand, ##""kind":"op","op":"hand","key":"isExecuting","old":false,"new":true,"thread":"main""##,
                #""kind":"call","action":"start","target":"hand","phase":"returned""#,
            ],
            bad: 3, "before 'hand' finished: a synchronous operation's start() returns once it finished",
            after: #""phase":"#),
        impossible(
            "a stalled end naming a finished operation", [addFetch, finishFetch, fetchStuck], bad: 3,
            "the stalled end names 'fetch' as stuck but it finished", after: #""stuck":"#),
    ]

    /// The lines numbered, a millisecond apart, after the fixture's header.
    static func recording(_ lines: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        for (n, line) in lines.enumerated() {
            bytes += Array(#"{"seq":\#(n + 1),"t":0.\#(format3(n)),\#(line)}"#.utf8) + [10]
        }
        return bytes
    }

    static func format3(_ n: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }

    @Test("the first impossible line is the problem, with its column; what came before is kept", arguments: cases)
    func refused(_ c: Case) throws {
        let recording = try #require(RecordingFixture.decode(Self.recording(c.lines)))
        let problem = try #require(recording.problem, "read without a problem")
        #expect(problem.line == c.bad + 1, "\(problem)")
        #expect(problem.message.contains(c.fragment), "\(problem.message)")
        if let after = c.after {
            let line = #"{"seq":\#(c.bad),"t":0.\#(Self.format3(c.bad - 1)),\#(c.lines[c.bad - 1])}"#
            let range = try #require(line.range(of: after))
            #expect(problem.column == line.utf8.distance(from: line.startIndex, to: range.upperBound) + 1, "\(problem)")
        } else {
            #expect(problem.column == nil)
        }
        #expect(recording.events.count == c.bad - 1)
    }

    /// What a run of the fixture's scenario could have said, on the edges of
    /// the rules: a cap of Int.max (the language writes it), a cancel
    /// before the add, a block returned on another thread, a stalled end
    /// naming what has not finished.
    @Test("a possible life at the edges of the rules is read whole")
    func possible() throws {
        let lines = [
            #""kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":9223372036854775807"#,
            #""kind":"queue","queue":"net","key":"operationCount","old":0,"new":9223372036854775807"#,
            Self.op("parse", "isCancelled", "false", "true"), Self.addThumbs, Self.startThumbs,
            Self.block(0, "started"),
            Self.block(0, "returned").replacingOccurrences(of: "#1", with: "main"),
            Self.op("thumbs", "isExecuting", "true", "false"), Self.op("thumbs", "isFinished", "false", "true"),
            ##""kind":"completion","op":"thumbs","thread":"#16""##, Self.addFetch, Self.fetchStuck,
        ]
        let recording = try #require(RecordingFixture.decode(Self.recording(lines)))
        #expect(recording.problem == nil)
        #expect(recording.events.count == lines.count)
    }
}
