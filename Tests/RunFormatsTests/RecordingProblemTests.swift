import EventFixtures
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// A bad line ends the reading there: the problem names its line (and
/// column, where it has one) and says why; the events before it are kept.
@Suite("a bad line in a recording")
struct RecordingProblemTests {
    /// The header and two good lines: a bad line comes as line 4.
    static let goodStart: [UInt8] = {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        bytes += Array(
            """
            {"seq":1,"t":0.000,"kind":"queue","queue":"net","key":"maxConcurrentOperationCount","old":-1,"new":2}
            {"seq":2,"t":0.001,"kind":"op","op":"fetch","queue":"net","key":"isReady","old":null,"new":true}

            """.utf8)
        return bytes
    }()

    /// fetch is added and unfinished: the run can end only stalled.
    static let goodAfter =
        Array(
            #"{"seq":99,"t":5.000,"kind":"end","status":"stalled","stuck":{"fetch":"it never posted isFinished"}}"#.utf8
        )
        + [10]

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var line: [UInt8]
        var fragment: String
        /// The column is just past the first occurrence of this text in the
        /// line; nil: the problem has no column.
        var after: String?
        /// The bad line is the last of the file, with no newline.
        var isLast = false

        var testDescription: String { name }

        var column: Int? {
            guard let after else { return nil }
            if after.isEmpty { return 1 }
            let text = String(decoding: line, as: UTF8.self)
            guard let range = text.range(of: after) else { return -1 }
            return text.utf8.distance(from: text.startIndex, to: range.upperBound) + 1
        }
    }

    static func bad(
        _ name: String, _ line: String, _ fragment: String, after: String? = nil, isLast: Bool = false
    ) -> Case {
        Case(name: name, line: Array(line.utf8), fragment: fragment, after: after, isLast: isLast)
    }

    static let op = #"{"seq":3,"t":0.5,"kind":"op","#
    static let deep = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
    static let deepest = String(repeating: "[", count: 15) + String(repeating: "]", count: 15)

    static let cases: [Case] = [
        // JSON syntax
        bad("a blank line", "", "a blank line"),
        bad("a line of spaces", "   \t", "a blank line"),
        bad("an array, not an object", "[1,2]", "expected '{': a line is one JSON object", after: ""),
        bad("a string, not an object", #""op""#, "expected '{'", after: ""),
        bad("no comma", #"{"seq":3 "t":1}"#, "expected ',' or '}' after a value", after: #"{"seq":3 "#),
        bad("no colon", #"{"seq" 3}"#, "expected ':' after a key", after: #"{"seq" "#),
        bad("a key not in quotes", #"{seq:3}"#, "expected a key in double quotes or '}'", after: "{"),
        bad("a string left open", #"{"seq":3,"t":0.5,"kind":"op"#, "unterminated string", after: #"kind":"op"#),
        bad(
            "a last line cut short", #"{"seq":3,"t":0.5,"kind":"op","op":"fe"#,
            "the last line is cut short: unterminated string", after: #""op":"fe"#, isLast: true),
        bad(
            "a last line cut in a literal", #"{"seq":3,"t":0.5,"kind":"caption","paused":tr"#,
            "the last line is cut short: expected a value", after: #""paused":tr"#, isLast: true),
        bad(
            "something after the object", #"{"seq":3,"t":0.5,"kind":"end","status":"completed"} x"#,
            "unexpected 'x' after the object", after: "} "),
        bad("a leading zero", #"{"seq":03}"#, "invalid number: a leading zero", after: #"{"seq":0"#),
        bad("a bare minus", #"{"seq":-}"#, "invalid number", after: #"{"seq":-"#),
        bad("an invalid escape", #"{"seq":3,"kind":"o\q"}"#, #"invalid escape 'q' in a string"#, after: #""kind":"o"#),
        bad(
            "a lone surrogate", #"{"seq":3,"kind":"\ud800"}"#, "a high surrogate without a low one",
            after: #""kind":""#),
        bad("a tab in a string", "{\"seq\":3,\"kind\":\"o\tp\"}", "a control character in a string", after: "\"o"),
        bad(
            "nested 17 deep", #"{"seq":3,"old":\#(deep)}"#, "nested deeper than 16 levels",
            after: #""old":"# + String(repeating: "[", count: 15)),
        // Keys and types
        bad("a missing key", op + #""op":"fetch","queue":"net","key":"isReady","new":true}"#, "missing key 'old'"),
        bad("no seq", #"{"t":0.5,"kind":"end","status":"completed"}"#, "missing key 'seq'"),
        bad("no status", #"{"seq":3,"t":0.5,"kind":"end"}"#, "missing key 'status'"),
        bad("seq as a string", #"{"seq":"3"}"#, #"'seq' must be a whole number, not "3""#, after: #"{"seq":"#),
        bad("seq with a fraction", #"{"seq":3.5}"#, "'seq' must be a whole number, not 3.5", after: #"{"seq":"#),
        bad(
            "seq too large", #"{"seq":99999999999999999999}"#,
            "'seq' is 99999999999999999999, too large for a whole number", after: #"{"seq":"#),
        bad("an unknown kind", #"{"seq":3,"t":0.5,"kind":"opp"}"#, #"unknown kind "opp""#, after: #""kind":"#),
        bad("a second header", #"{"seq":3,"t":0.5,"kind":"header"}"#, "a second header", after: #""kind":"#),
        bad(
            "an unknown key", #"{"seq":3,"t":0.5,"kind":"end","status":"completed","colour":1}"#,
            #"unknown key "colour""#, after: #""completed","#),
        bad(
            "a key of another kind", ##"{"seq":3,"t":0.5,"kind":"completion","op":"fetch","thread":"#1","index":0}"##,
            "'index' is not a key of completion lines", after: ##""#1","##),
        bad("a key twice", #"{"seq":3,"seq":4}"#, "key 'seq' appears twice", after: #"{"seq":3,"#),
        bad(
            "nested 16 deep, where a boolean goes",
            op + #""op":"fetch","queue":"net","key":"isReady","old":\#(deepest),"new":true}"#,
            "'old' of isReady must be true or false, not an array", after: #""old":"#),
        bad(
            "null as the new value", op + #""op":"fetch","queue":"net","key":"isReady","old":false,"new":null}"#,
            "'new' of isReady must be true or false, not null", after: #""new":"#),
        bad(
            "an unknown priority",
            op + #""op":"fetch","queue":"net","key":"queuePriority","old":"normal","new":"urgent"}"#,
            #"unknown priority "urgent""#, after: #""new":"#),
        bad(
            "an unknown operation key", op + #""op":"fetch","queue":"net","key":"isDone","old":false,"new":true}"#,
            #"unknown operation key "isDone""#, after: #""key":"#),
        bad(
            "a number too large for a cap",
            #"{"seq":3,"t":0.5,"kind":"queue","queue":"net","key":"operationCount","old":-99999999999999999999,"new":1}"#,
            "too large for a whole number", after: #""old":"#),
        // Order
        bad(
            "a seq that does not increase", #"{"seq":2,"t":0.5,"kind":"end","status":"completed"}"#,
            "seq 2 after seq 2: seq must increase", after: #"{"seq":"#),
        bad(
            "a time that goes back", #"{"seq":3,"t":0.0005,"kind":"end","status":"completed"}"#,
            "t 0.0005 after t 0.001: time must not go backwards", after: #""t":"#),
        bad(
            "a negative time", #"{"seq":3,"t":-1,"kind":"end","status":"completed"}"#, "time is never negative",
            after: #""t":"#),
        bad(
            "a time that is not finite", #"{"seq":3,"t":1e999,"kind":"end","status":"completed"}"#,
            "'t' is 1e999, not a finite number", after: #""t":"#),
        // Names
        bad(
            "an unknown operation", op + #""op":"fecth","queue":"net","key":"isReady","old":null,"new":true}"#,
            "unknown operation 'fecth' (did you mean 'fetch'?)", after: #""op","op":"#),
        bad(
            "a queue where an operation goes", op + #""op":"net","queue":"net","key":"isReady","old":null,"new":true}"#,
            "'net' is a queue, not an operation", after: #""op","op":"#),
        bad(
            "an operation on another queue",
            op + #""op":"fetch","queue":"disk","key":"isReady","old":null,"new":true}"#,
            "operation 'fetch' is on queue 'net', not 'disk'", after: #""queue":"#),
        bad(
            "a thread numbered 0",
            ##"{"seq":3,"t":0.5,"kind":"completion","op":"fetch","thread":"#0"}"##,
            ##"'thread' must be "main" or "#N" (N from 1), not "#0""##, after: ##""thread":"##),
        bad(
            "a thread as a number", #"{"seq":3,"t":0.5,"kind":"completion","op":"fetch","thread":3}"#,
            "'thread' must be", after: #""thread":"#),
        bad(
            "a block past the last",
            ##"{"seq":3,"t":0.5,"kind":"block","op":"thumbs","index":5,"phase":"started","thread":"#1"}"##,
            "'thumbs' has blocks 0 to 1, not 5", after: #""index":"#),
        bad(
            "a block of a work operation",
            ##"{"seq":3,"t":0.5,"kind":"block","op":"fetch","index":0,"phase":"started","thread":"#1"}"##,
            "'fetch' is not a 'blocks' operation", after: #""op":"#),
        // Actions
        bad(
            "an unknown reason to ignore",
            #"{"seq":3,"t":0.5,"kind":"action","action":"cancel","target":"fetch","origin":"user","ignored":"too late"}"#,
            #"unknown reason for an ignored action: "too late""#, after: #""ignored":"#),
        bad(
            "an at action the scenario does not have",
            #"{"seq":3,"t":0.5,"kind":"action","action":"cancel","target":"thumbs","origin":"at"}"#,
            "no 'at' line of the scenario performs 'cancel thumbs'", after: #""origin":"#),
        bad(
            "by without a completion origin",
            #"{"seq":3,"t":0.5,"kind":"action","action":"cancel","target":"fetch","origin":"user","by":"fetch"}"#,
            #"'by' goes only with "origin":"completion""#, after: #""user","#),
        bad(
            "a completion origin without by",
            #"{"seq":3,"t":0.5,"kind":"action","action":"cancel","target":"fetch","origin":"completion"}"#,
            "missing key 'by'"),
        bad(
            "a value for a cancel",
            #"{"seq":3,"t":0.5,"kind":"action","action":"cancel","target":"fetch","value":1,"origin":"user"}"#,
            "'value' goes only with max and priority actions", after: #""fetch","#),
        bad(
            "a cap that is a word",
            #"{"seq":3,"t":0.5,"kind":"action","action":"max","target":"net","value":"lots","origin":"user"}"#,
            #"'value' of max must be a whole number or "default", not "lots""#, after: #""value":"#),
        bad(
            "an unknown action", #"{"seq":3,"t":0.5,"kind":"action","action":"pause","target":"net","origin":"user"}"#,
            #"unknown action "pause""#, after: #""action":"#),
        // Captions, stalls, the end
        bad(
            "a caption the scenario does not have", #"{"seq":3,"t":0.5,"kind":"caption","text":"bye"}"#,
            #"no caption of the scenario says "bye""#, after: #""text":"#),
        bad(
            "a caption at another moment",
            #"{"seq":3,"t":0.5,"kind":"caption","text":"hello","op":"fetch","moment":"starts"}"#,
            #"no caption of the scenario says "hello" when fetch starts"#, after: #""text":"#),
        bad(
            "a caption's op without its moment", #"{"seq":3,"t":0.5,"kind":"caption","text":"hello","op":"fetch"}"#,
            "missing key 'moment'"),
        bad(
            "paused as a number", #"{"seq":3,"t":0.5,"kind":"caption","text":"hello","paused":1}"#,
            "'paused' must be true or false, not 1", after: #""paused":"#),
        bad(
            "an unknown stuck clause", #"{"seq":3,"t":0.5,"kind":"stall","stuck":{"parse":"it is sad"}}"#,
            #"unknown reason "it is sad" for 'parse'"#, after: #""parse":"#),
        bad(
            "a stuck clause that names a queue",
            #"{"seq":3,"t":0.5,"kind":"stall","stuck":{"parse":"it waits for net, which never finishes"}}"#,
            "unknown reason", after: #""parse":"#),
        bad(
            "an operation stuck twice",
            #"{"seq":3,"t":0.5,"kind":"stall","stuck":{"parse":"it never posted isFinished","parse":"it never posted isFinished"}}"#,
            "'parse' appears twice in 'stuck'", after: #"isFinished","#),
        bad(
            "stuck as a list", #"{"seq":3,"t":0.5,"kind":"stall","stuck":["parse"]}"#,
            "'stuck' must be an object of operations and reasons, not an array", after: #""stuck":"#),
        bad(
            "a completed end that is stuck", #"{"seq":3,"t":0.5,"kind":"end","status":"completed","stuck":{}}"#,
            "a completed run has no 'stuck'", after: #""completed","#),
        bad(
            "a completed end with causes", #"{"seq":3,"t":0.5,"kind":"end","status":"completed","causes":[]}"#,
            "a completed run has no 'causes'", after: #""completed","#),
        bad(
            "causes as an object", Self.stall + #""causes":{}}"#, "'causes' must be an array of causes, not an object",
            after: #""causes":"#),
        bad(
            "an unknown kind of cause",
            Self.stall + #""causes":[{"kind":"sad","text":"x","count":1,"first":["parse"]}]}"#,
            #"unknown kind of cause "sad""#, after: #"[{"kind":"#),
        bad(
            "a cause without its text", Self.stall + #""causes":[{"kind":"suspended","count":1,"first":["parse"]}]}"#,
            "a cause has no 'text'", after: #""causes":["#),
        bad(
            "an unknown key in a cause",
            Self.stall + #""causes":[{"kind":"suspended","text":"x","count":1,"first":["parse"],"why":1}]}"#,
            #"unknown key "why" in a cause"#, after: #""parse"],"#),
        bad(
            "a cause's first name that is not stuck",
            Self.stall + #""causes":[{"kind":"suspended","text":"x","count":1,"first":["fetch"]}]}"#,
            "a name of a cause's 'first' is 'fetch', which is not stuck", after: #""first":["#),
        bad(
            "causes that hold fewer than are stuck",
            #"{"seq":3,"t":0.5,"kind":"stall","stuck":{"parse":"its queue disk is suspended","late":"its queue disk "#
                + #"is suspended"},"causes":[{"kind":"suspended","text":"x","count":1,"first":["parse"]}]}"#,
            "the causes hold 1 operation, but 'stuck' names 2", after: #""causes":"#),
        bad(
            "a resume from a key",
            Self.stall + #""causes":[{"kind":"suspended","text":"x","count":1,"#
                + #""first":["parse"],"resumes":[{"origin":"user"}]}]}"#,
            #"'origin' is "at", "completion", not "user""#, after: #"[{"origin":"#),
    ]

    /// A stall of parse, before its `causes`.
    static let stall = #"{"seq":3,"t":0.5,"kind":"stall","stuck":{"parse":"its queue disk is suspended"},"#

    @Test("the problem's line, column and message; the events before it kept", arguments: cases)
    func badLine(_ bad: Case) throws {
        var bytes = Self.goodStart + bad.line
        if !bad.isLast { bytes += [10] + Self.goodAfter }
        let recording = try #require(RecordingFixture.decode(bytes))
        let problem = try #require(recording.problem, "\(bad.name): read without a problem")
        #expect(problem.line == 4)
        #expect(problem.message.contains(bad.fragment), "\(problem.message)")
        #expect(problem.column == bad.column, "\(problem)")
        #expect(recording.events.map(\.seq) == [1, 2], "the two lines before it, and nothing after")
    }

    @Test("invalid UTF-8 in a string is a problem, not a replacement character")
    func invalidUTF8() throws {
        for sequence: [UInt8] in [
            [0xFF], [0xC3], [0xE2, 0x9C], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
        ] {
            let line = Array(#"{"seq":3,"t":0.5,"kind":"caption","text":"a"#.utf8) + sequence + Array(#""}"#.utf8)
            let recording = try #require(RecordingFixture.decode(Self.goodStart + line + [10]))
            #expect(recording.problem?.message == "invalid UTF-8 in a string", "\(sequence)")
            #expect(recording.problem?.column == 44, "\(sequence)")
        }
    }

    @Test("nothing may follow the end of the run")
    func afterTheEnd() throws {
        let bytes =
            Self.goodStart + Self.goodAfter + Array(#"{"seq":100,"t":5.000,"kind":"end","status":"completed"}"#.utf8)
        let recording = try #require(RecordingFixture.decode(bytes))
        #expect(
            recording.problem
                == RecordingProblem(
                    line: 5, column: 29,
                    message: "a line after the end of the run (line 4): only main-blocked summaries may follow it"))
        #expect(recording.events.map(\.seq) == [1, 2, 99])
    }

    @Test("a recording cut at any byte: a problem on its last line, or a clean read when cut at a line's end")
    func truncatedAnywhere() throws {
        let full = RecordingFixture.recording(RecordingFixture.events)
        let all = try #require(RecordingFixture.decode(full)).events
        let newlines = full.indices.filter { full[$0] == 10 }
        // Every byte of the header, of the first two and the last two event
        // lines (every kind of cut: in a key, a string, a number, a
        // literal, the nested stuck map); every 7th byte elsewhere.
        let firstTwo = newlines[0] - 16...newlines[2] + 1
        let lastTwo = newlines[newlines.count - 3]...full.count
        let cuts = (0...full.count).filter { cut in
            cut <= newlines[0] || firstTwo.contains(cut) || lastTwo.contains(cut) || cut % 7 == 0
        }
        for cut in cuts {
            let bytes = Array(full[..<cut])
            guard cut >= newlines[0] else {
                // Inside the header: nothing to open.
                #expect(throws: RecordingProblem.self) { try RecordingDecoder.decode(bytes) }
                continue
            }
            guard let recording = RecordingFixture.decode(bytes) else { return }
            let complete = newlines.count(where: { $0 < cut })
            let lineStart = complete == 0 ? 0 : newlines[complete - 1] + 1
            let wholeLine = cut == lineStart || full[cut] == 10
            // The header is not an event; a whole last line without its newline is.
            let kept = max(complete - 1 + (cut > lineStart && full[cut] == 10 ? 1 : 0), 0)
            if wholeLine {
                #expect(recording.problem == nil, "cut at \(cut): \(String(describing: recording.problem))")
            } else {
                #expect(recording.problem?.line == complete + 1, "cut at \(cut)")
                #expect(
                    recording.problem?.message.hasPrefix("the last line is cut short") == true,
                    "cut at \(cut): \(String(describing: recording.problem))")
            }
            #expect(recording.events == Array(all.prefix(kept)), "cut at \(cut)")
        }
    }

    @Test("any byte at any place of a line: never a trap, and a problem or an event")
    func mangledBytes() throws {
        let full = RecordingFixture.recording(RecordingFixture.events)
        let headerEnd = try #require(full.firstIndex(of: 10))
        var random = SplitMix(seed: 7)
        for _ in 0..<500 {
            var bytes = full
            let at = headerEnd + 1 + Int(random.next() % UInt64(full.count - headerEnd - 1))
            bytes[at] = UInt8(truncatingIfNeeded: random.next())
            let recording = try #require(RecordingFixture.decode(bytes))
            // The line the byte is on (1: the header), and the events of
            // the lines before it, which nothing touched.
            let line = 1 + bytes[..<at].count { $0 == 10 }
            let untouched = line - 2
            let recorded = RecordingFixture.events.map(RecordingFixture.toMillisecond)
            #expect(Array(recording.events.prefix(untouched)) == Array(recorded.prefix(untouched)))
            #expect(recording.events.count <= RecordingFixture.events.count)
            if let problem = recording.problem {
                // Said where it is wrong, or later (a seq that stopped
                // increasing is the next line's problem), never earlier.
                #expect(problem.line >= line, "byte \(at) on line \(line): \(problem)")
                #expect(recording.events.count == problem.line - 2, "the events before the problem's line")
            } else {
                #expect(recording.events.count == RecordingFixture.events.count, "no problem: every event")
            }
        }
    }

    /// The latest moment a run can stamp is Int64.max nanoseconds to the
    /// millisecond: a recording may reach it, never pass it.
    @Test(
        "a time is read up to the latest a run reaches, and refused past it",
        arguments: [
            ("9223372036.854", nil), ("9223372036.8540", nil), ("9223372036.855", "9223372036.855"),
            ("9.3e15", "9.3e15"), ("1e300", "1e300"), ("1.7976931348623157e308", "1.7976931348623157e308"),
        ])
    func latestTime(_ written: String, refused: String?) throws {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendHeader(RecordingFixture.header, to: &bytes)
        bytes += Array(#"{"seq":1,"t":\#(written),"kind":"end","status":"stalled","stuck":{}}"#.utf8) + [10]
        let recording = try #require(RecordingFixture.decode(bytes))
        guard let refused else {
            #expect(recording.problem == nil)
            #expect(recording.events.first?.time == LifecycleEvent.latestTime)
            return
        }
        #expect(
            recording.problem
                == RecordingProblem(
                    line: 2, column: 14,
                    message: "'t' is \(refused), later than any run reaches: a time is at most 9223372036.854 seconds "
                        + "(the longest duration the language writes, about 292 years)"))
        #expect(recording.events.isEmpty)
    }
}

/// A small seeded generator, so that a failure repeats.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
