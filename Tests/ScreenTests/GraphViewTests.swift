import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// `G`: the dependency graph in the board area, through the controller
/// and the renderer: the edges, the keys that walk the graph, `t` back.
@Suite struct GraphViewTests {
    static let size = Size(columns: 80, rows: 24)

    /// fetch → decode → thumb, and fetch → log; decode running.
    static let photos: Script = {
        let scenario = ScenarioReader.read(
            """
            queue q max 4
            op fetch work 100ms
            op decode work 100ms after fetch
            op thumb work 10ms after decode
            op log work 10ms after fetch

            """, path: "photos.ops"
        ).scenario!
        var s = Script(scenario)
        s.add("fetch")
        s.add("decode", ready: false)
        s.add("thumb", ready: false)
        s.add("log", ready: false)
        s.start("fetch", thread: 1)
        s.at(0.1)
        s.finish("fetch")
        s.ready("decode")
        s.ready("log")
        s.start("decode", thread: 1)
        return s
    }()

    @Test func gShowsTheGraphInPlaceOfTheBoardAndTakesItAway() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("fetch")
        #expect(InterfaceKeys.table.command(for: .character("G")) == .toggleGraph)
        #expect(scene.press(.character("G")) == .redraw)
        let screen = scene.wholeScreen
        let top = screen.firstIndex { $0.hasPrefix("Graph · 3 layers") }
        #expect(top != nil, "\(screen.joined(separator: "\n"))")
        guard let top else { return }
        #expect(screen[top].hasPrefix("Graph · 3 layers · fetch: waits for 0, 3 wait for it"))
        #expect(screen[top + 1] == "fetch──────────┬───▸decode─────────────▸thumb", "\(screen)")
        #expect(screen[top + 2] == "               └───▸log", "\(screen)")
        scene.press(.character("G"))
        #expect(!scene.wholeScreen.contains { $0.hasPrefix("Graph · ") })
        #expect(!scene.state.graphShown)
    }

    @Test func theArrowsWalkTheGraphAndTGoesBackToTheBoardArea() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("fetch")
        scene.press(.character("G"))
        let id = { (name: String) in Self.photos.id(name) }
        #expect(scene.state.selectedOperation == id("fetch"))
        scene.press(.right)
        #expect(scene.state.selectedOperation == id("decode"))
        scene.press(.down)
        #expect(scene.state.selectedOperation == id("log"))
        scene.press(.down)
        #expect(scene.message == "no other operation in this layer that way")
        scene.press(.up)
        scene.press(.right)
        #expect(scene.state.selectedOperation == id("thumb"))
        scene.press(.right)
        #expect(scene.message == "nothing waits for thumb")
        scene.press(.left)
        scene.press(.left)
        #expect(scene.state.selectedOperation == id("fetch"))
        scene.press(.character("t"))
        #expect(!scene.state.graphShown && scene.state.boardArea == .columns)
    }

    @Test func theSelectionsAncestorsAndDescendantsAreCounted() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("fetch")
        scene.press(.character("G"))
        scene.press(.right)
        #expect(scene.wholeScreen.contains { $0.hasPrefix("Graph · 3 layers · decode: waits for 1, 1 wait for it") })
    }

    /// A fan-out of 60 (src, f0…f59, and sink after f59), every one added,
    /// src ready.
    static func fanOut() -> Script {
        var text = "queue q\nop src work 1ms\n"
        for i in 0..<60 { text += "op f\(i) work 1ms after src\n" }
        text += "op sink work 1ms after f59\n"
        let scenario = ScenarioReader.read(text, path: "fan.ops").scenario!
        var s = Script(scenario)
        for op in scenario.operations { s.add(op.name, ready: op.name == "src") }
        return s
    }

    /// Scrolled down a tall layer, the short layers beside it end above
    /// the rows in view: every selection of a fan-out of 60 draws, at
    /// 80×24 and 200×60, in both glyph sets.
    @Test func aTallLayerScrollsPastTheShortOnesBesideIt() {
        let s = Self.fanOut()
        for size in [Size(columns: 80, rows: 24), Size(columns: 200, rows: 60)] {
            for ascii in [false, true] {
                var scene = TimelineScene(s, .columns, size: size, ascii: ascii)
                scene.press(.character("G"))
                for i in [0, 30, 59] {
                    scene.state.selectedOperation = s.id("f\(i)")
                    let screen = scene.wholeScreen
                    #expect(screen.contains { $0.contains("f\(i): waits for 1, \(i == 59 ? 1 : 0) wait for it") })
                }
                scene.state.selectedOperation = s.id("sink")
                #expect(scene.wholeScreen.contains { $0.contains("sink") })
            }
        }
    }

    @Test func pageKeysGoAScreenDownTheColumnAndHomeEndToTheGraphsEnds() throws {
        let s = Self.fanOut()
        var scene = TimelineScene(s, .columns, size: Self.size)
        scene.state.selectedOperation = s.id("f0")
        scene.press(.character("G"))
        let layout = GraphView.drawing(board: scene.board, state: scene.state, frame: scene.frame).layout
        // -1: nothing selected (every check below then fails).
        func place() -> Int { scene.state.selectedOperation.map { Int(layout.placeOf[$0.index]) } ?? -1 }
        func layer() -> Int { scene.state.selectedOperation.map { Int(layout.layerOf[$0.index]) } ?? -1 }
        scene.press(.home)
        #expect(scene.state.selectedOperation == s.id("src"))
        scene.press(.end)
        #expect(scene.state.selectedOperation == s.id("sink"))
        scene.press(.home)
        scene.press(.right)
        #expect(layer() == 1)
        let top = place()
        #expect(scene.press(.pageDown) == .redraw)
        let paged = place() - top
        // About a screen of rows (the board area less the title), in the same column.
        #expect(layer() == 1 && paged > 5 && paged < Self.size.rows)
        var name = scene.board[operation: try #require(scene.state.selectedOperation)].name
        #expect(scene.wholeScreen.contains { $0.contains("\(name): waits for 1") })
        for _ in 0..<10 { scene.press(.pageDown) }
        let bottom = try #require(layout.layers[1].lastIndex { if case .operation = $0 { true } else { false } })
        #expect(place() == bottom)
        #expect(scene.message == "the bottom of this column")
        name = scene.board[operation: try #require(scene.state.selectedOperation)].name
        #expect(scene.wholeScreen.contains { $0.contains("\(name): waits for 1") })
        scene.press(.pageUp)
        #expect(layer() == 1 && place() == bottom - paged)
    }

    @Test func eFoldsWhatWaitsForTheSelectionIntoItsNodeAndUnfoldsIt() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("decode")
        scene.press(.character("G"))
        #expect(scene.press(.character("e")) == .redraw)
        var screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix("Graph · 2 layers · decode: waits for 1, 0 wait for it · 1 folded") })
        #expect(screen.contains { $0.hasPrefix("fetch──────────┬───▸decode +1") }, "\(screen)")
        #expect(!screen.contains { $0.contains("▸thumb") })
        scene.press(.character("e"))
        screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix("fetch──────────┬───▸decode─────────────▸thumb") }, "\(screen)")
        scene.state.selectedOperation = Self.photos.id("thumb")
        scene.press(.character("e"))
        #expect(scene.message == "nothing waits for thumb: nothing to fold into it")
        scene.press(.character("G"))
        scene.press(.character("e"))
        #expect(scene.message == "e folds the graph: G shows it")
    }

    @Test func theFilterNarrowsTheGraph() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("decode")
        scene.press(.character("G"))
        scene.press(.character("F"))
        for c in "text:e" { scene.press(.character(c)) }
        scene.press(.enter)
        // fetch and decode hold an e; thumb and log do not.
        let screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix("fetch──────────────▸decode") }, "\(screen)")
        #expect(!screen.contains { $0.contains("▸thumb") || $0.contains("▸log") }, "\(screen)")
    }

    @Test func hMarksTheCriticalPathAndListsItsLinksThatAddUpToTheStart() {
        // At the history's last notification: the path is read from the history.
        var scene = TimelineScene(Self.photos, .columns, size: Self.size, history: Self.photos.events.count)
        scene.state.selectedOperation = Self.photos.id("decode")
        #expect(scene.press(.character("H")) == .redraw)
        #expect(scene.state.graphShown && scene.state.criticalPathShown)
        let screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix("▶fetch") }, "\(screen.joined(separator: "\n"))")
        // One sentence first: what cost most, as the run had it.
        #expect(screen.contains { $0.hasPrefix("decode started at 0.100s: it waited for fetch, which ran 100ms on q") })
        #expect(screen.contains { $0.contains("fetch ran on q") })
        #expect(screen.contains { $0.contains("the links add up to 0.100s") }, "\(screen.joined(separator: "\n"))")
        scene.press(.character("H"))
        #expect(!scene.wholeScreen.contains { $0.hasPrefix("decode started at") })
        // One that has not started has no chain yet.
        scene.state.selectedOperation = Self.photos.id("thumb")
        scene.press(.character("H"))
        #expect(scene.wholeScreen.contains { $0.hasPrefix("thumb has not started at this moment") })
    }

    /// A chain of 30 operations, each 10ms after the one before, on a
    /// serial queue: more links than the band has rows at 80×24.
    static let longChain: Script = {
        var text = "queue q serial\n"
        for i in 0..<30 { text += "op s\(i) work 10ms" + (i > 0 ? " after s\(i - 1)" : "") + "\n" }
        var s = Script(ScenarioReader.read(text, path: "chain.ops").scenario!)
        for i in 0..<30 { s.add("s\(i)", ready: i == 0) }
        for i in 0..<30 {
            if i > 0 { s.ready("s\(i)") }
            s.start("s\(i)", thread: 1)
            s.at(Double(i + 1) * 0.01)
            s.finish("s\(i)")
        }
        return s
    }()

    @Test func hsBandOpensWithItsSentenceAndScrollsToEveryLink() {
        var scene = TimelineScene(Self.longChain, .columns, size: Self.size, history: Self.longChain.events.count)
        // Live at the run's end (in history, Home and End move the cursor).
        scene.state.historyCursor = nil
        scene.frame.historyShown = nil
        scene.state.selectedOperation = Self.longChain.id("s29")
        scene.press(.character("H"))
        var screen = scene.wholeScreen
        let sentence = "s29 started at 0.290s: it waited for s28, which ran 10ms on q"
        #expect(screen.contains { $0.hasPrefix(sentence) }, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.hasPrefix("  waiting for dependencies to finish: 290ms, 58 links") })
        #expect(screen.contains { $0.contains("PgDn for more, End for the last link · H hides") })
        #expect(!screen.contains { $0.contains("the links add up to") })
        // The key bar says how the band scrolls.
        #expect(screen.last?.contains("PgDn links") == true, "\(screen.last ?? "")")
        // PgDn pages down, the sentence staying on top; End goes to the last link.
        #expect(scene.press(.pageDown) == .redraw)
        screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix(sentence) })
        #expect(scene.press(.end) == .redraw)
        screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix(sentence) })
        #expect(screen.contains { $0.contains("s29 turned ready when its dependency s28 finished") })
        #expect(screen.contains { $0.contains("the links add up to 0.290s") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("the last link: PgUp goes back, Home to the first") })
        // At the end, End is refused; Home goes back to the first group.
        scene.press(.end)
        #expect(scene.message == "the chain's last link")
        #expect(scene.press(.home) == .redraw)
        #expect(scene.wholeScreen.contains { $0.hasPrefix("  waiting to be added") })
        // Another operation's band starts at its top.
        scene.state.criticalPathScroll = .init(op: Self.longChain.id("s29"), line: 40)
        scene.state.selectedOperation = Self.longChain.id("s28")
        #expect(scene.wholeScreen.contains { $0.hasPrefix("  waiting to be added") })
    }

    @Test func hInHistoryReadsTheChainAsItStoodAtTheCursor() throws {
        let events = Self.longChain.events
        // Just after s10 started: the lanes hold the whole run, the band only what came by then.
        let s10 = Self.longChain.id("s10")
        let started = events.firstIndex {
            if case .operation(s10, .isExecuting, _, .bool(true)) = $0.kind { true } else { false }
        }
        let cursor = try #require(started) + 1
        var scene = TimelineScene(Self.longChain, .columns, size: Self.size, history: cursor)
        scene.state.selectedOperation = Self.longChain.id("s10")
        scene.press(.character("H"))
        scene.press(.pageDown)
        scene.press(.pageDown)
        scene.press(.pageDown)
        scene.press(.pageDown)
        scene.press(.pageDown)
        scene.press(.pageDown)
        let screen = scene.wholeScreen
        #expect(screen.contains { $0.hasPrefix("s10 started at 0.100s: it waited for s9, which ran 10ms on q") })
        #expect(screen.contains { $0.contains("the links add up to 0.100s") }, "\(screen.joined(separator: "\n"))")
        scene.state.selectedOperation = Self.longChain.id("s20")
        #expect(scene.wholeScreen.contains { $0.hasPrefix("s20 has not started at this moment") })
    }

    @Test func dAsksWhetherTheSelectionWaitsForAnotherAndTheInspectorAnswers() {
        var scene = TimelineScene(Self.photos, .columns, size: Self.size)
        scene.state.selectedOperation = Self.photos.id("thumb")
        scene.press(.character("D"))
        #expect(scene.wholeScreen.contains { $0.hasPrefix(" does thumb wait for: _") })
        // A typed c is a letter of the name, not a cancel.
        for c in "fetc" { scene.press(.character(c)) }
        #expect(scene.wholeScreen.contains { $0.hasPrefix(" does thumb wait for: fetc_  Enter asks about fetch") })
        scene.press(.enter)
        #expect(scene.board[operation: Self.photos.id("fetch")].phase != .cancelled)
        let yes = "yes: thumb waits for fetch through thumb → decode → fetch"
        #expect(scene.message == yes)
        #expect(
            scene.wholeScreen.contains { $0.contains("D: yes: thumb waits for") },
            "\(scene.wholeScreen.joined(separator: "\n"))")
        scene.state.selectedOperation = Self.photos.id("log")
        scene.press(.character("D"))
        for c in "decode" { scene.press(.character(c)) }
        scene.press(.enter)
        #expect(scene.message?.hasPrefix("no: log does not wait for decode") == true)
        scene.press(.character("D"))
        for c in "zzz" { scene.press(.character(c)) }
        scene.press(.enter)
        #expect(scene.message == "no operation's name holds 'zzz'")
        scene.press(.escape)
        #expect(!scene.wholeScreen.contains { $0.contains("does log wait for") })
    }
}
