import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

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
        // After the 11th notification: the cancel of `long` at 0.5s.
        let scene = TimelineScene(TimelineRuns.cancel, history: 11)
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

    @Test func asynchronousOperationsAreInFlightOffTheThreadsAndTheirStartIsAMark() {
        // The threads show only the start() calls (▸: they return at once)
        // and decode, which really holds #2; the downloads' time in flight
        // is on rows of their own, two for a cap of 2.
        let scene = TimelineScene(TimelineRuns.async, .threads, size: Size(columns: 60, rows: 9))
        #expect(
            scene.lines == [
                "Threads · 0s to 0.9s · 18ms a column",
                "           0s        0.2s       0.4s       0.6s       0.8s",
                "           ├─────────┼──────────┼──────────┼──────────┼────▼",
                "thread #1  ▸                     ▸  ▸                      │",
                "thread #2  ▸                          decode████████████████",
                "in flight, no thread                                       │",
                "net 1      dl1███████████████████dl3▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓   │",
                "net 2      dl2██████████████████████dl4▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ │",
                "",
            ])
        // dl1 is selected: its start() mark and its span are underlined, and
        // both its thread and its in-flight row are named in reverse.
        let grid = scene.grid
        #expect(scene.state.selectedOperation == OperationID(0))
        #expect(grid[11, 3].style.underline && grid[11 + 20, 6].style.underline)
        #expect(!grid[11, 4].style.underline && !grid[11 + 22, 6].style.underline)
        #expect(grid[0, 3].style.reverse && grid[0, 6].style.reverse)
        #expect(!grid[0, 4].style.reverse && !grid[0, 7].style.reverse && !grid[0, 5].style.reverse)
    }

    @Test func theThreadViewScrollsToTheSelectedOperationsInFlightRow() {
        var scene = TimelineScene(TimelineRuns.async, .threads, size: Size(columns: 60, rows: 6))
        InterfaceController.selectLane(
            scene.board.scenario.operationID(named: "dl4")!, state: &scene.state, board: scene.board,
            frame: scene.frame)
        let lines = scene.lines
        #expect(lines[0].hasSuffix("rows 3–5 of 5"))
        #expect(lines[3].hasPrefix("in flight, no thread"))
        #expect(lines[5].hasPrefix("net 2      dl2"))
        // Synchronous: its thread's row.
        InterfaceController.selectLane(
            scene.board.scenario.operationID(named: "decode")!, state: &scene.state, board: scene.board,
            frame: scene.frame)
        #expect(scene.lines[3...].contains { $0.hasPrefix("thread #2  ▸") })
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
            for script in [TimelineRuns.cancel, TimelineRuns.blocks, TimelineRuns.ramp, TimelineRuns.async] {
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
                "ran 0.000→0.400s on thread #1               │",
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
