import Board
import EventFixtures
import Grading
import RunEvents
import RunFormats
import ScenarioKit
import Testing
import TextKit

@testable import Screen

/// A run that reaches the latest moment a recording may hold, and runs
/// that reach beyond it (the decoder refuses those, but a pure view or
/// format may be handed anything), with sequence numbers near Int.max and
/// a cap and a count of Int.max: every view and every format draws them,
/// clamped where it must be, and none traps.
@Suite struct FarTimesTests {
    static let farTimes: [Double] = [LifecycleEvent.latestTime, 9.3e15, 1e300, .greatestFiniteMagnitude]

    /// net (cap Int.max): fetch works from 0 to `far`, `job` (asynchronous)
    /// is cancelled halfway by an `at` line, `pair` runs its first block
    /// from halfway on; ui (the main queue) starts `paint` at the end. The
    /// run stalls there on pair and paint.
    static func run(to far: Double) -> Script {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(Int.max)), QueueSpec(name: "ui", isMain: true)],
            ops: [
                op("fetch", on: "net"), op("pair", on: "net", body: .blocks([.seconds(1), .seconds(1)])),
                op("job", on: "net", body: .async(.seconds(1))), op("paint", on: "ui"),
            ],
            expect: [
                ("fetch before paint", { .before($0("fetch"), $0("paint")) }),
                ("peak net 3", { .peak($0.q("net"), 3) }), ("cancelled job", { .cancelled($0("job")) }),
            ])
        scenario.actions = [TimedAction(time: .seconds(1), action: .cancel(OperationID(2)))]
        scenario.captions = [Caption(trigger: .at(.seconds(2)), text: "far away")]
        var s = Script(scenario)
        s.nextSeq = Int.max - 40
        s.cap("net", Int.max)
        for name in ["fetch", "pair", "job", "paint"] { s.add(name) }
        s.count("net", Int.max)
        s.start("fetch", thread: 1)
        s.start("job", thread: 2)
        s.at(far / 2)
        s.start("pair", thread: 3)
        s.block("pair", 0, .started, thread: 3)
        s.emit(.action(.cancel(s.id("job")), origin: .timed(0), ignored: nil))
        s.cancel("job")
        s.emit(.caption(0, paused: false))
        s.at(far)
        s.finish("fetch")
        s.completion("fetch", thread: 4)
        s.finish("job")
        s.start("paint", thread: 0)
        s.end(.stalled([s.id("pair"): .unknown, s.id("paint"): .neverPostedFinish]))
        return s
    }

    static func header(_ scenario: Scenario) -> JSONLineEncoder.Header {
        JSONLineEncoder.Header(
            opscope: "test", language: 1, path: "far.ops", source: ScenarioPrinter().source(for: scenario))
    }

    @Test("text, jsonl, chrome, the text timeline and the expectations", arguments: farTimes)
    func everyFormat(far: Double) throws {
        let s = Self.run(to: far)
        let formatter = EventFormatter(scenario: s.scenario)
        var text = formatter.textHeader
        for event in s.events { text += formatter.text(event) + formatter.logLine(event) + formatter.json(event) }
        #expect(text.contains("\(Int.max - 40)"))
        let jsonl = String(
            decoding: JSONLineEncoder.recording(Self.header(s.scenario), of: s.scenario, events: s.events),
            as: UTF8.self)
        var chrome: [UInt8] = []
        var encoder = ChromeTraceEncoder(scenario: s.scenario)
        encoder.appendHeader(to: &chrome)
        for event in s.events { encoder.append(event, to: &chrome) }
        encoder.appendFooter(to: &chrome)
        let lanes = TimelineLanes(scenario: s.scenario, events: s.events)
        for width in [40, 41, 60, 100] {
            let lines = TimelineText.render(lanes, width: width).split(separator: "\n")
            #expect(lines.allSatisfy { displayWidth(String($0)) <= width }, "\(lines)")
            // The axis's labels never run into each other: each is a time.
            let labels = lines[lines.count > 1 && lines[1].hasPrefix("one column") ? 2 : 1]
            #expect(labels.split(separator: " ").allSatisfy { $0.hasSuffix("s") && $0.filter { $0 == "." }.count <= 1 })
        }
        let results = ExpectationChecker.evaluate(s.scenario, events: s.events)
        #expect(results.map(\.held) == [true, true, true])
        if far == LifecycleEvent.latestTime {
            // At the bound everything is still exact: the millisecond, the
            // microsecond, the label.
            #expect(jsonl.contains(#""t":9223372036.854,"#))
            #expect(String(decoding: chrome, as: UTF8.self).contains("9223372036854000"))
            #expect(
                TimelineText.render(lanes, width: 100).hasPrefix("timeline · 0s to 9223372036.854s · one column = "))
            let recording = try RecordingDecoder.decode(Array(jsonl.utf8))
            #expect(recording.problem == nil)
            #expect(recording.events == s.events)
        }
    }

    static let sizes = [Size(columns: 1, rows: 1), Size(columns: 80, rows: 24), Size(columns: 200, rows: 60)]

    @Test("the board, the timeline, the threads, the inspector and the log at any size", arguments: farTimes)
    func everyView(far: Double) {
        let s = Self.run(to: far)
        let scenario = s.scenario
        var history = BoardHistory(scenario: scenario)
        var board = BoardState(scenario: scenario)
        for event in s.events {
            board.apply(event)
            history.append(event, boardAfter: board)
        }
        let formatter = EventFormatter(scenario: scenario)
        for size in Self.sizes {
            var frame = FrameInput(
                now: far, size: size, log: s.events.map { LogEntry($0, formatter: formatter) },
                expectationResults: ExpectationChecker.evaluate(scenario, events: s.events), history: history,
                isReplay: true)
            frame.timeline = TimelineLanes(scenario: scenario, events: s.events)
            for area in BoardArea.allCases {
                for cursor in [nil, 0, s.events.count / 2, s.events.count] {
                    for selected in [nil, s.id("fetch"), s.id("pair")] {
                        var state = InterfaceState(board: board)
                        state.boardArea = area
                        state.selectedOperation = selected
                        state.inspectorExpanded = selected != nil
                        state.historyCursor = cursor
                        frame.historyShown = cursor
                        let shown = cursor.map { history.board(after: $0) } ?? board
                        let grid = InterfaceRenderer.render(board: shown, state: state, frame: frame).grid
                        #expect(grid.size == size)
                        // The keys that move over time: zoom, scroll, go to a time.
                        for key in [Key.character("z"), .character("."), .character("Z"), .character(","), .end] {
                            _ = InterfaceController.handle(key, state: &state, board: shown, frame: frame)
                            _ = InterfaceRenderer.render(board: shown, state: state, frame: frame)
                        }
                        for key in [Key.character("g")] + "9300000000000000".map(Key.character) + [.enter] {
                            _ = InterfaceController.handle(key, state: &state, board: shown, frame: frame)
                        }
                        _ = InterfaceRenderer.render(board: shown, state: state, frame: frame)
                    }
                }
            }
        }
        if far == LifecycleEvent.latestTime {
            var frame = FrameInput(now: far, size: Size(columns: 200, rows: 60), history: history, isReplay: true)
            frame.timeline = TimelineLanes(scenario: scenario, events: s.events)
            var state = InterfaceState(board: board)
            state.boardArea = .timeline
            let lines = screen(board, state, frame)
            #expect(lines.contains { $0.contains("Timeline · 0s to 9223372036.854s") }, "\(lines)")
            #expect(lines.contains { $0.contains("cap \(Int.max)") && $0.contains("\(Int.max) in queue") }, "\(lines)")
        }
    }

    /// A stream may say a count below zero (a pure view is handed what it
    /// is handed): the screen never draws one.
    @Test func countsAreNeverDrawnBelowZero() {
        let board = board { s in
            s.count("net", -3)
            s.count("disk", Int.min, old: -1)
        }
        let lines = screen(board, InterfaceState(board: board), frame(120, 24))
        #expect(lines.contains { $0.contains("net") && $0.contains(" 0 in queue") }, "\(lines)")
        #expect(!lines.joined().contains("-3"))
        #expect(!lines.joined().contains("\(Int.min)"))
    }

    /// The language writes caps up to Int.max: `+` on such a queue says so
    /// rather than add one past the largest integer.
    @Test func theLargestCapIsRaisedNoFurther() {
        let s = Self.run(to: 1)
        let board = BoardState(scenario: s.scenario, replaying: Array(s.events.prefix(10)))
        var state = InterfaceState(board: board)
        state.selectedQueue = s.qid("net")
        let frame = FrameInput(size: Size(columns: 80, rows: 24))
        let outcome = InterfaceController.handle(
            .character("+"), state: &state, board: board, live: board, frame: frame)
        #expect(outcome == .redraw)
        #expect(state.visibleMessage(now: 0)?.text == "net already has the largest cap there is")
    }
}
