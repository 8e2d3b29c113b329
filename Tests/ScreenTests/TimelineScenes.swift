import Board
import EventFixtures
import RunEvents
import ScenarioKit

@testable import Screen

/// Hand-written runs for the timeline: each is a scenario and the script
/// of its events, as the engine would announce them.
enum TimelineRuns {
    /// a → b → c on a serial queue, one second each.
    static let chain: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))],
            ops: [op("a", on: "q"), op("b", on: "q", after: ["a"]), op("c", on: "q", after: ["b"])])
        var s = Script(scenario)
        s.cap("q", 1)
        s.add("a")
        s.add("b", ready: false)
        s.add("c", ready: false)
        s.start("a", thread: 1)
        s.at(1)
        s.finish("a")
        s.ready("b")
        s.start("b", thread: 1)
        s.at(2)
        s.finish("b")
        s.ready("c")
        s.start("c", thread: 2)
        s.at(3)
        s.finish("c")
        s.end()
        return s
    }()

    /// Four ready at once on a queue of cap 2: two run, two wait.
    static let cap: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2))],
            ops: [op("a", on: "net"), op("b", on: "net"), op("c", on: "net"), op("d", on: "net")])
        var s = Script(scenario)
        s.cap("net", 2)
        for name in ["a", "b", "c", "d"] { s.add(name) }
        s.start("a", thread: 1)
        s.start("b", thread: 2)
        s.at(1)
        s.finish("a")
        s.start("c", thread: 1)
        s.at(1.5)
        s.finish("b")
        s.start("d", thread: 2)
        s.at(2)
        s.finish("c")
        s.at(2.5)
        s.finish("d")
        s.end()
        return s
    }()

    /// On a serial queue: `long` is cancelled while it runs (at 0.5s, by an
    /// `at` line) and stops at 0.6s; `waiting` is cancelled while it waits;
    /// `last` runs after. A caption at 1s.
    static let cancel: Script = {
        var scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(1))],
            ops: [op("long", on: "q", work: 2), op("waiting", on: "q"), op("last", on: "q", work: 0.6)])
        scenario.actions = [TimedAction(time: .milliseconds(500), action: .cancel(OperationID(0)))]
        scenario.captions = [Caption(trigger: .at(.seconds(1)), text: "last runs")]
        var s = Script(scenario)
        s.cap("q", 1)
        s.add("long")
        s.add("waiting")
        s.add("last")
        s.start("long", thread: 1)
        s.at(0.2)
        s.skip("waiting")
        s.at(0.5)
        s.emit(.action(.cancel(s.id("long")), origin: .timed(0), ignored: nil))
        s.cancel("long")
        s.at(0.6)
        s.finish("long")
        s.start("last", thread: 1)
        s.at(1)
        s.emit(.caption(0, paused: false))
        s.at(1.2)
        s.finish("last")
        s.end()
        return s
    }()

    /// Six downloads on a queue of cap 4, on a pool that starts with one
    /// thread and gets its second at 0.3s, its third at 0.6s (scenario
    /// 18's ramp, small).
    static let ramp: Script = {
        let names = (1...6).map { "dl\($0)" }
        let scenario = makeScenario(
            queues: [QueueSpec(name: "downloads", cap: .limit(4))],
            ops: names.map { op($0, on: "downloads", work: 0.4) })
        var s = Script(scenario)
        s.cap("downloads", 4)
        for name in names { s.add(name) }
        s.start("dl1", thread: 1)
        s.at(0.3)
        s.start("dl2", thread: 2)
        s.at(0.4)
        s.finish("dl1")
        s.start("dl3", thread: 1)
        s.at(0.6)
        s.start("dl4", thread: 3)
        s.at(0.7)
        s.finish("dl2")
        s.start("dl5", thread: 2)
        s.at(0.8)
        s.finish("dl3")
        s.start("dl6", thread: 1)
        s.at(1)
        s.finish("dl4")
        s.at(1.1)
        s.finish("dl5")
        s.at(1.2)
        s.finish("dl6")
        s.end()
        return s
    }()

    /// A BlockOperation of three blocks run one after another on thread
    /// #1, its completion block on #2, then `upload` on #1 with its
    /// completion block on #2 as well.
    static let blocks: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "images")],
            ops: [
                op(
                    "thumbs", on: "images", body: .blocks([.milliseconds(400), .milliseconds(400), .milliseconds(400)])),
                op("upload", on: "images", work: 0.4, after: ["thumbs"]),
            ])
        var s = Script(scenario)
        s.add("thumbs")
        s.add("upload", ready: false)
        s.start("thumbs", thread: 1)
        for i in 0..<3 {
            s.at(Double(i) * 0.4)
            if i > 0 { s.block("thumbs", i - 1, .returned, thread: 1) }
            s.block("thumbs", i, .started, thread: 1)
        }
        s.at(1.2)
        s.block("thumbs", 2, .returned, thread: 1)
        s.finish("thumbs")
        s.ready("upload")
        s.completion("thumbs", thread: 2)
        s.start("upload", thread: 1)
        s.at(1.6)
        s.finish("upload")
        s.completion("upload", thread: 2)
        s.end()
        return s
    }()

    /// Four asynchronous downloads on `net` (cap 2), 0.4s in flight each:
    /// each `start()` runs on a pool thread and returns at once (dl3's and
    /// dl4's a moment after a slot freed), so two threads call all four
    /// while `decode` (synchronous, on `cpu`) holds thread #2 from 0.5s
    /// to 0.9s.
    static let async: Script = {
        let scenario = makeScenario(
            queues: [QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "cpu")],
            ops: ["dl1", "dl2", "dl3", "dl4"].map { op($0, on: "net", body: .async(.milliseconds(400))) }
                + [op("decode", on: "cpu", work: 0.4)])
        var s = Script(scenario)
        s.cap("net", 2)
        for name in ["dl1", "dl2", "dl3", "dl4", "decode"] { s.add(name) }
        s.start("dl1", thread: 1)
        s.start("dl2", thread: 2)
        s.at(0.4)
        s.finish("dl1")
        s.at(0.41)
        s.start("dl3", thread: 1)
        s.at(0.45)
        s.finish("dl2")
        s.at(0.46)
        s.start("dl4", thread: 1)
        s.at(0.5)
        s.start("decode", thread: 2)
        s.at(0.81)
        s.finish("dl3")
        s.at(0.85)
        s.finish("dl4")
        s.at(0.9)
        s.finish("decode")
        s.end()
        return s
    }()

    /// `count` operations, the first 60 on `a` (cap 4), the rest on `b`
    /// (serial); all added at once, the first four of `a` running.
    static func many(_ count: Int = 100) -> Script {
        let names = (0..<count).map { "op\($0)" }
        let scenario = makeScenario(
            queues: [QueueSpec(name: "a", cap: .limit(4)), QueueSpec(name: "b", cap: .limit(1))],
            ops: names.enumerated().map { i, name in op(name, on: i < 60 ? "a" : "b") })
        var s = Script(scenario)
        s.cap("a", 4)
        s.cap("b", 1)
        for name in names { s.add(name) }
        for i in 0..<4 { s.start(names[i], thread: i + 1) }
        s.at(1)
        return s
    }
}

/// The pieces of a timeline test: the board, the lanes and a frame with them.
struct TimelineScene {
    let board: BoardState
    var state: InterfaceState
    var frame: FrameInput

    init(
        _ script: Script, _ area: BoardArea = .timeline, size: Size = Size(columns: 60, rows: 9), now: Double? = nil,
        ascii: Bool = false, history cursor: Int? = nil
    ) {
        board = BoardState(scenario: script.scenario, replaying: script.events)
        state = InterfaceState(board: board)
        state.boardArea = area
        frame = FrameInput(
            now: now ?? script.time, size: size, glyphs: ascii ? .ascii : .unicode, colors: true)
        frame.timeline = TimelineLanes(scenario: script.scenario, events: script.events)
        if let cursor {
            var history = BoardHistory(scenario: script.scenario)
            var after = BoardState(scenario: script.scenario)
            for event in script.events {
                after.apply(event)
                history.append(event, boardAfter: after)
            }
            frame.history = history
            frame.historyShown = cursor
            state.historyCursor = cursor
        }
    }

    /// The timeline alone, drawn over the whole of a grid of the frame's size.
    var grid: CellGrid {
        var grid = CellGrid(size: frame.size)
        var hits = HitMap()
        TimelineView.draw(
            board: board, state: state, frame: frame, theme: Theme(colors: frame.colors), into: &grid,
            rect: grid.bounds, hits: &hits)
        return grid
    }

    var lines: [String] { grid.lines.map(trimmed) }

    /// The whole screen, as the interface draws it.
    var wholeScreen: [String] { screen(board, state, frame) }

    @discardableResult
    mutating func press(_ key: Key) -> InterfaceOutcome {
        InterfaceController.handle(key, state: &state, board: board, frame: frame)
    }

    var message: String? { state.visibleMessage(now: frame.wallClock)?.text }
}
