import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

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
    /// completion block on the main thread's neighbour #2 as well.
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

/// The timeline and the thread view, drawn whole into small grids.
@Suite struct TimelineViewTests {
    @Test func aChainOnASerialQueueRunsOneAfterAnother() {
        #expect(
            TimelineScene(TimelineRuns.chain).lines == [
                "Timeline · 0s to 3s · 61ms a column",
                "           0s              1s              2s",
                "           ├───────────────┼───────────────┼───────────────▼",
                "q cap 1    1111111111111111111111111111111111111111111111111",
                "  a        ████████████████✓                               │",
                "  b        ················████████████████✓               │",
                "  c        ································████████████████✓",
                "",
                "",
            ])
    }

    @Test func aCapOfTwoRunsTwoAndTheRestWaitReady() {
        let scene = TimelineScene(TimelineRuns.cap)
        #expect(
            scene.lines == [
                "Timeline · 0s to 2.5s · 51ms a column",
                "           0s                 1s                  2s",
                "           ├──────────────────┼───────────────────┼────────▼",
                "net cap 2  2222222222222222222222222222222222222222111111111",
                "  a        ███████████████████✓                            │",
                "  b        █████████████████████████████✓                  │",
                "  c        ░░░░░░░░░░░░░░░░░░░████████████████████✓        │",
                "  d        ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░███████████████████✓",
                "",
            ])
        // The running count is marked where it reached the cap, and only there.
        let grid = scene.grid
        let theme = Theme(colors: true)
        #expect(grid[11, 3].style == theme.capReached)
        #expect(grid[11 + 38, 3].style == theme.capReached)
        #expect(grid[11 + 40, 3].style == theme.runningCount)
        // The selected operation's name is reversed; spans have their column's colour.
        #expect(scene.state.selectedOperation == OperationID(0))
        #expect(grid[2, 4].style == theme.selected)
        #expect(grid[2, 5].style == theme.plain)
        #expect(grid[11, 6].style == theme.readySpan)
        #expect(grid[11 + 30, 6].style == theme.executingSpan)
        #expect(grid[11 + 19, 4].style == theme.finishedEnd)
    }

    @Test func cancelledOperationsEndWithTheCancelMarkAndActionsAndCaptionsAreMarked() {
        let scene = TimelineScene(TimelineRuns.cancel)
        #expect(
            scene.lines == [
                "Timeline · 0s to 1.2s · 24ms a column",
                "           0s                  0.5s                1s",
                "           ├───────────────────▲───────────────────▲───────▼",
                "q cap 1    1111111111111111111111111111111111111111111111111",
                "  long     ████████████████████████⊘                       │",
                "  waiting  ░░░░░░░░⊘                                       │",
                "  last     ░░░░░░░░░░░░░░░░░░░░░░░░████████████████████████✓",
                "",
                "",
            ])
        let theme = Theme(colors: true)
        #expect(scene.grid[11 + 24, 4].style == theme.cancelledEnd)
        #expect(scene.grid[11 + 20, 2].style == theme.timeMark)
    }

    @Test func theHistoryCursorIsALineThroughTheLanesAtItsMoment() {
        // After the 9th notification: the cancel of `long` at 0.5s.
        let scene = TimelineScene(TimelineRuns.cancel, history: 9)
        #expect(
            scene.lines == [
                "Timeline · 0s to 1.2s · 24ms a column",
                "           0s                  0.5s                1s",
                "           ├───────────────────▼───────────────────▲────────",
                "q cap 1    1111111111111111111111111111111111111111111111111",
                "  long     ████████████████████████⊘",
                "  waiting  ░░░░░░░░⊘           │",
                "  last     ░░░░░░░░░░░░░░░░░░░░░░░░████████████████████████✓",
                "",
                "",
            ])
        // Where it crosses a span, the glyph stays and turns reverse.
        let grid = scene.grid
        #expect(grid[11 + 20, 4].text == "█")
        #expect(grid[11 + 20, 4].style.reverse)
        #expect(grid[11 + 20, 6].style.reverse)
        #expect(!grid[11 + 19, 6].style.reverse)
    }

    @Test func theThreadViewShowsThreadsArrivingLate() {
        // The ramp of scenario 18 in small: #2 comes at 0.3s, #3 at 0.6s,
        // while the queue's cap of 4 would run more.
        #expect(
            TimelineScene(TimelineRuns.ramp, .threads).lines == [
                "Threads · 0s to 1.2s · 27ms a column",
                "                0s                0.5s              1s",
                "                ├─────────────────┼─────────────────┼──────▼",
                "thread #1       dl1███████████dl3▓▓▓▓▓▓▓▓▓▓▓▓dl6████████████",
                "thread #2                  dl2███████████dl5▓▓▓▓▓▓▓▓▓▓▓▓▓  │",
                "thread #3                             dl4████████████      │",
                "",
                "",
                "",
            ])
        #expect(
            TimelineScene(TimelineRuns.ramp).lines[3] == "downloads cap 4 11111111111222222222223333333333333332222111")
    }

    @Test func theThreadViewShowsTheBlocksOfABlockOperationAndCompletionBlocks() {
        let scene = TimelineScene(TimelineRuns.blocks, .threads, size: Size(columns: 70, rows: 6))
        #expect(
            scene.lines == [
                "Threads · 0s to 1.6s · 27ms a column",
                "           0s                0.5s              1s                 1.5s",
                "           ├─────────────────┼─────────────────┼──────────────────┼──▼",
                "thread #1  thumbs▒▒▒▒▒▒▒▒2▒▒▒▒▒▒▒▒▒▒▒▒▒▒3▒▒▒▒▒▒▒▒▒▒▒▒▒▒upload▓▓▓▓▓▓▓▓▓",
                "thread #2                                              ◆             ◆",
                "",
            ])
        // The selected operation (thumbs) is underlined wherever it shows,
        // its completion block too.
        let grid = scene.grid
        #expect(grid[11, 3].style.underline && grid[11 + 43, 3].style.underline)
        #expect(!grid[11 + 44, 3].style.underline)
        #expect(grid[11 + 44, 4].style.underline)
        #expect(grid[0, 3].style.reverse)
    }

    @Test func withoutAnyThreadYetTheThreadViewSaysSo() {
        var script = Script(TimelineRuns.chain.scenario)
        script.add("a")
        #expect(
            TimelineScene(script, .threads, size: Size(columns: 50, rows: 5)).lines == [
                "Threads · 0s to 0.1s · 2.564ms a column",
                "           0s                 0.05s",
                "           ▼──────────────────┼──────────────────┼",
                "no operation has run on a thread yet",
                "",
            ])
    }

    @Test func aZoomedWindowSaysSoAndShowsItsPart() {
        var scene = TimelineScene(TimelineRuns.chain)
        scene.state.timelineView.window = TimeWindow(start: 0.5, span: 1)
        #expect(
            scene.lines == [
                "Timeline · 0.5s to 1.5s · 20ms a column · zoomed",
                "           0.5s                    1s",
                "           ┼───────────────────────┼───────────────────────┼",
                "q cap 1    1111111111111111111111111111111111111111111111111",
                "  a        ████████████████████████✓",
                "  b        ························█████████████████████████",
                "  c        ·················································",
                "",
                "",
            ])
    }

    @Test func asciiModeDrawsOnlyAscii() {
        for area in [BoardArea.timeline, .threads] {
            for script in [TimelineRuns.cancel, TimelineRuns.blocks, TimelineRuns.ramp] {
                var scene = TimelineScene(script, area, size: Size(columns: 80, rows: 24), ascii: true)
                // The view itself, before the grid's last word (makeASCII) …
                #expect(scene.grid.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
                // … and the whole screen, in history too.
                #expect(scene.wholeScreen.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
                scene.state.timelineView.window = TimeWindow(start: 0.1, span: 0.5)
                #expect(scene.grid.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
            }
        }
        #expect(
            TimelineScene(TimelineRuns.cancel, ascii: true).lines == [
                "Timeline - 0s to 1.2s - 24ms a column",
                "           0s                  0.5s                1s",
                "           +-------------------^-------------------^-------V",
                "q cap 1    1111111111111111111111111111111111111111111111111",
                "  long     ########################x                       |",
                "  waiting  --------x                                       |",
                "  last     ------------------------########################v",
                "",
                "",
            ])
    }

    @Test func theWholeScreenShowsTheTimelineWhereTheColumnsWere() {
        var scene = TimelineScene(TimelineRuns.ramp, size: Size(columns: 80, rows: 24))
        #expect(
            scene.wholeScreen == [
                " opscope · untitled scenario                                t=1.200s  ×1  ended",
                "▶ downloads  0 running · cap 4   0 in queue",
                "Timeline · 0s to 1.2s · 19ms a column",
                "                0s        0.2s       0.4s       0.6s      0.8s       1s",
                "                ├─────────┼──────────┼──────────┼─────────┼──────────┼─────────▼",
                "downloads cap 4 1111111111111111222222222222222233333333333333333333332222211111",
                "  dl1           █████████████████████✓                                         │",
                "  dl2           ░░░░░░░░░░░░░░░░█████████████████████✓                         │",
                "  dl3           ░░░░░░░░░░░░░░░░░░░░░█████████████████████✓                    │",
                "  dl4           ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░█████████████████████✓         │",
                "  dl5           ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░█████████████████████✓    │",
                "  dl6           ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░█████████████████████✓",
                "",
                "",
                "─ Inspector: dl1 ───────────────────────────── Log ─────────────────────────────",
                "work 400ms on downloads; priority normal    │no notifications yet",
                "  (default)                                 │",
                "finished: isReady=true isExecuting=false    │",
                "  isFinished=true isCancelled=false         │",
                "                                            │",
                "                                            │",
                "                                            │",
                " the run ended: n shows the expectations, r runs it again",
                " ? help  q quit  t threads  z zoom in  Z zoom out  , earlier  . later  x fit",
            ])
        scene.press(.down)
        #expect(
            scene.wholeScreen[14] == "─ Inspector: dl2 ───────────────────────────── Log ─────────────────────────────")
    }
}

/// The keys of the views over time, through the controller.
@Suite struct TimelineKeyTests {
    static let size = Size(columns: 80, rows: 24)

    @Test(arguments: [
        (Key.character("t"), InterfaceCommand.cycleBoardArea), (.character("z"), .zoomIn), (.character("Z"), .zoomOut),
        (.character(","), .scrollEarlier), (.character("."), .scrollLater), (.character("x"), .fitTimeline),
    ])
    func theTimelineKeysFindTheirCommands(key: Key, command: InterfaceCommand) {
        #expect(InterfaceKeys.table.command(for: key) == command)
    }

    @Test func tGoesRoundTheBoardTheTimelineAndTheThreads() {
        var scene = TimelineScene(TimelineRuns.chain, .columns, size: Self.size)
        #expect(scene.wholeScreen[2].hasPrefix("Pending 0"))
        var seen: [BoardArea] = []
        for _ in 0..<3 {
            #expect(scene.press(.character("t")) == .redraw)
            seen.append(scene.state.boardArea)
        }
        #expect(seen == [.timeline, .threads, .columns])
        scene.press(.character("t"))
        #expect(scene.wholeScreen[2].hasPrefix("Timeline · 0s to 3s"))
        scene.press(.character("t"))
        #expect(scene.wholeScreen[2].hasPrefix("Threads · 0s to 3s"))
        // A restart keeps the view.
        #expect(scene.state.restarted().boardArea == .threads)
    }

    @Test func theKeyBarSaysWhereTGoesNext() {
        #expect(
            KeyBarView.text(width: 200, status: .running, area: .columns, glyphs: .unicode).hasSuffix(
                "< slower  t timeline"))
        #expect(
            KeyBarView.text(width: 80, status: .running, area: .timeline, glyphs: .unicode)
                == " ? help  q quit  t threads  z zoom in  Z zoom out  , earlier  . later  x fit")
        #expect(
            KeyBarView.text(width: 30, status: .ended, area: .threads, glyphs: .unicode) == " ? help  q quit  t board")
    }

    @Test func zoomHalvesAndDoublesTheWindowAroundTheCursor() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        #expect(scene.press(.character("z")) == .redraw)
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 2.25, span: 0.75))
        #expect(scene.wholeScreen[2] == "Timeline · 2.25s to 3s · 11ms a column · zoomed")
        scene.press(.character("Z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        // Out as far as the whole run: the window fits (and follows) it again.
        scene.press(.character("Z"))
        #expect(scene.state.timelineView.window == nil)
        #expect(scene.press(.character("Z")) == .redraw)
        #expect(scene.message == "the whole run shows already: z zooms in")
    }

    @Test func zoomAroundTheCursorInHistory() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size, history: 9)  // at 1s
        scene.press(.character("z"))
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window == TimeWindow(start: 0.625, span: 0.75))
    }

    @Test func zoomInStopsAtATenthOfAMillisecondAColumn() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        for _ in 0..<8 { scene.press(.character("z")) }
        #expect(scene.state.timelineView.window?.span == 3.0 / 256)
        scene.press(.character("z"))
        #expect(scene.state.timelineView.window?.span == 3.0 / 256)
        #expect(scene.message == "zoomed in as far as it goes: one column is 0.17ms")
    }

    @Test func scrollMovesAFixedWindowAQuarterAtATime() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        scene.press(.character("z"))
        scene.press(.character(","))
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.125, span: 1.5))
        scene.press(.left)
        scene.press(.character("h"))
        scene.press(.character(","))
        #expect(scene.state.timelineView.window == TimeWindow(start: 0, span: 1.5))
        scene.press(.character(","))
        #expect(scene.message == "this is the start of the run")
        scene.press(.right)
        #expect(scene.state.timelineView.window == TimeWindow(start: 0.375, span: 1.5))
        for _ in 0..<4 { scene.press(.character(".")) }
        #expect(scene.state.timelineView.window == TimeWindow(start: 1.5, span: 1.5))
        #expect(scene.message == "this is the end of the run so far")
    }

    @Test func xFitsTheWholeRunAgain() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size)
        scene.press(.character("z"))
        #expect(scene.press(.character("x")) == .redraw)
        #expect(scene.state.timelineView.window == nil)
        scene.press(.character("x"))
        #expect(scene.message == "the whole run shows already")
        scene.press(.left)
        #expect(scene.message == "the whole run shows: z zooms in first")
    }

    @Test func onTheBoardTheTimelineKeysSayWhereTheyApply() {
        var scene = TimelineScene(TimelineRuns.chain, .columns, size: Self.size)
        for key in ["z", "Z", ",", ".", "x"] {
            scene.press(.character(Character(key)))
            #expect(scene.message == "\(key) moves the timeline: t shows it")
        }
        #expect(scene.state.timelineView.window == nil)
    }

    @Test func upAndDownSelectInLaneOrderAndTheInspectorFollows() {
        var scene = TimelineScene(TimelineRuns.cap, size: Self.size)
        #expect(scene.state.selectedOperation == OperationID(0))
        scene.press(.down)
        scene.press(.character("j"))
        #expect(scene.state.selectedOperation == OperationID(2))
        scene.press(.up)
        #expect(scene.state.selectedOperation == OperationID(1))
        #expect(scene.wholeScreen[14].hasPrefix("─ Inspector: b "))
        scene.press(.character("k"))
        #expect(scene.press(.up) == InterfaceOutcome.none)
        // The board finds it where its card is when t comes back round.
        scene.press(.character("t"))
        scene.press(.character("t"))
        #expect(scene.state.boardArea == .columns)
        #expect(scene.state.selectedColumn == 3)
    }

    @Test func aClickOnALaneSelectsItsOperationAndOnTheAxisMovesTheCursor() {
        var scene = TimelineScene(TimelineRuns.chain, size: Self.size, history: 16)
        scene.state.historyCursor = nil
        scene.frame.historyShown = nil
        // Rows: title, queue line, header, labels, axis, q's header, a, b, c.
        #expect(scene.press(.mouse(column: 30, row: 8)) == .redraw)
        #expect(scene.state.selectedOperation == OperationID(2))
        // The column of 1.5s (plot from column 11, 3s over 69 columns): b is running.
        #expect(scene.press(.mouse(column: 11 + 34, row: 4)) == .redraw)
        #expect(scene.state.historyCursor == 9)
        // The last column: live again.
        scene.press(.mouse(column: 79, row: 3))
        #expect(scene.state.historyCursor == nil)
        let rendered = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame)
        #expect(rendered.hitMap == InterfaceRenderer.hitMap(board: scene.board, state: scene.state, frame: scene.frame))
        #expect(rendered.hitMap.target(column: 5, row: 7) == .lane(OperationID(1)))
    }

    @Test func aClickOnASpanInTheThreadViewSelectsItsOperation() {
        var scene = TimelineScene(TimelineRuns.ramp, .threads, size: Self.size)
        // thread #2's row: dl2 from 0.3s, dl5 from 0.7s.
        scene.press(.mouse(column: 16 + 50, row: 6))
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "dl5"))
        // The wheel walks the lane order.
        scene.press(.wheel(column: 40, row: 6, down: true))
        #expect(scene.state.selectedOperation == scene.board.scenario.operationID(named: "dl6"))
    }
}

/// A hundred operations: one row each, the rows scrolled to keep the
/// selection in sight, the header saying which show.
@Suite struct TimelineScrollTests {
    /// The board area's rows of the whole screen.
    static func area(_ scene: TimelineScene) -> [String] {
        let layout = InterfaceRenderer.layout(board: scene.board, state: scene.state, frame: scene.frame)!
        let grid = InterfaceRenderer.render(board: scene.board, state: scene.state, frame: scene.frame).grid
        return lines(of: grid, layout.boardArea).map(trimmed)
    }

    @Test func aHundredOperationsScrollWithTheSelection() {
        var scene = TimelineScene(TimelineRuns.many(), size: Size(columns: 80, rows: 24), now: 1)
        InterfaceController.selectLane(OperationID(0), state: &scene.state, board: scene.board, frame: scene.frame)
        #expect(Self.area(scene)[0].hasSuffix("lanes 1–8 of 100"))
        for _ in 0..<60 { scene.press(.down) }
        #expect(scene.state.selectedOperation == OperationID(60))
        #expect(scene.state.timelineView.laneScroll == 54)
        #expect(
            Self.area(scene) == [
                "Timeline · 0s to 1s · 14ms a column                           lanes 55–61 of 100",
                "           0s           0.2s          0.4s          0.6s          0.8s",
                "           ├────────────┼─────────────┼─────────────┼─────────────┼────────────▼",
                "a cap 4    444444444444444444444444444444444444444444444444444444444444444444444",
                "  op54     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op55     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op56     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op57     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op58     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "  op59     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
                "b cap 1                                                                        │",
                "  op60     ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
            ])
        // Back up: the top row is the selection's, under its queue's header.
        for _ in 0..<10 { scene.press(.up) }
        let rows = Self.area(scene)
        #expect(rows[0].hasSuffix("lanes 51–58 of 100"))
        #expect(rows[3].hasPrefix("a cap 4"))
        #expect(rows[4].hasPrefix("  op50 "))
        // To the very end: the last rows fill the area, none stays empty.
        for _ in 0..<60 { scene.press(.down) }
        let last = Self.area(scene)
        #expect(last[0].hasSuffix("lanes 93–100 of 100"))
        #expect(last[3].hasPrefix("b cap 1"))
        #expect(last[11].hasPrefix("  op99 "))
    }

    @Test func theLaneOrderGroupsByQueueAndRowsCountTheirHeaders() {
        let order = TimelineOrder(TimelineRuns.many().scenario)
        #expect(order.groups.map(\.operations.count) == [60, 40])
        #expect(order.rows(from: 58, through: 61) == 6)
        #expect(order.offset(stored: 0, height: 9, selected: 60) == 54)
        #expect(order.offset(stored: 99, height: 9, selected: nil) == 92)
        #expect(order.offset(stored: 70, height: 9, selected: 10) == 10)
    }
}
