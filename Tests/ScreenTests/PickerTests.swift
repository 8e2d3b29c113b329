import Testing

@testable import Screen

/// The scenario picker: its list in sections, the place of the highlighted
/// entry, and the pane that shows why a file cannot run.
@Suite struct PickerTests {
    static let entries = [
        PickerEntry(fileName: "01-basics.ops", title: "Basics", firstNote: "one queue, three operations"),
        PickerEntry(fileName: "02-deps.ops", title: "Dependencies"),
        PickerEntry(fileName: "03-cap.ops", title: "The cap", firstNote: "cap 2"),
        PickerEntry(fileName: "04-qos.ops"),
    ]
    let flat = PickerList(entries: entries)

    static let capZero = [
        "scenarios/mistakes/cap-zero.ops:4:15: error: a cap of 0 would stall the queue without saying so",
        "queue net max 0",
        "              ^",
        "note: use 1 or more, or 'default'",
    ]
    static let cycle = [
        "scenarios/mistakes/cycle.ops:9:27: error: dependency cycle: save → parse → save",
        "op save  work 100ms after parse",
        "                          ^",
        "note: every operation in a cycle waits forever",
    ]
    static let heading = "Mistakes: files that fail `opscope check`, each teaching one rule"

    /// The library (three files), then two mistakes under their heading.
    let sectioned = PickerList([
        PickerSection(entries: [
            PickerEntry(
                fileName: "01-chain.ops", title: "Download, parse, save: a dependency chain",
                firstNote: "parse depends on fetch, and save on parse"),
            PickerEntry(
                fileName: "02-cap.ops", title: "Six downloads, two at a time", firstNote: "at most two at once"),
            PickerEntry(fileName: "03-cancel.ops", title: "Cancel: before it starts, and while it runs"),
        ]),
        PickerSection(
            heading: heading,
            entries: [
                PickerEntry(
                    fileName: "cap-zero.ops", title: "error: a cap of 0 would stall the queue without saying so",
                    firstNote: "use 1 or more, or 'default'", diagnostics: capZero),
                PickerEntry(
                    fileName: "cycle.ops", title: "error: dependency cycle: save → parse → save",
                    firstNote: "every operation in a cycle waits forever", diagnostics: cycle),
            ]),
    ])

    func render(_ list: PickerList, _ state: PickerState, _ columns: Int, _ rows: Int, ascii: Bool = false) -> [String]
    {
        ScenarioPicker.render(
            list: list, state: state, size: Size(columns: columns, rows: rows), glyphs: ascii ? .ascii : .unicode
        ).lines.map(trimmed)
    }

    // MARK: - Keys

    @Test func navigationAndOpen() {
        var state = PickerState()
        let size = Size(columns: 40, rows: 7)  // two entries visible
        #expect(ScenarioPicker.handle(.up, state: &state, list: flat, size: size) == .none)
        #expect(ScenarioPicker.handle(.down, state: &state, list: flat, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.character("j"), state: &state, list: flat, size: size) == .redraw)
        #expect(state.selected == 2)
        #expect(state.scroll == 2)  // rows: each entry is two
        #expect(ScenarioPicker.handle(.end, state: &state, list: flat, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.character("j"), state: &state, list: flat, size: size) == .none)
        #expect(ScenarioPicker.handle(.character("k"), state: &state, list: flat, size: size) == .redraw)
        #expect(ScenarioPicker.handle(.enter, state: &state, list: flat, size: size) == .open(2))
        #expect(ScenarioPicker.handle(.character("q"), state: &state, list: flat, size: size) == .quit)
        #expect(ScenarioPicker.handle(.character("x"), state: &state, list: PickerList([]), size: size) == .none)
        #expect(ScenarioPicker.handle(.enter, state: &state, list: PickerList([]), size: size) == .none)
    }

    /// Every key the picker answers is in its table, bound once, and each
    /// binding does what the table says.
    @Test func thePickersKeysComeFromItsTable() {
        #expect(PickerKeys.table.conflicts.isEmpty)
        let size = Size(columns: 40, rows: 7)
        for binding in PickerKeys.table.bindings {
            for key in binding.keys {
                var state = PickerState()
                state.selected = 1
                let outcome = ScenarioPicker.handle(key, state: &state, list: flat, size: size)
                switch binding.command {
                case .up: #expect(state.selected == 0, "\(key)")
                case .down: #expect(state.selected == 2, "\(key)")
                case .first: #expect(state.selected == 0, "\(key)")
                case .last: #expect(state.selected == flat.count - 1, "\(key)")
                case .pageDown: #expect(state.selected > 1, "\(key)")
                case .pageUp: #expect(state.selected == 0, "\(key)")
                case .choose: #expect(outcome == .open(1), "\(key)")
                case .back, .quit: #expect(outcome == .quit, "\(key)")
                case .nextSection, .previousSection: #expect(outcome == .none, "\(key): one section")
                }
            }
        }
        // A key not in the table does nothing.
        var state = PickerState()
        #expect(ScenarioPicker.handle(.character("x"), state: &state, list: flat, size: size) == .none)
    }

    @Test func movingAcrossTheSectionBoundarySkipsTheHeading() {
        var state = PickerState()
        let size = Size(columns: 80, rows: 12)  // nine rows of list
        state.selected = 2
        #expect(ScenarioPicker.handle(.down, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 3)
        #expect(!sectioned[entry: state.selected].opens)
        // The first entry under a heading brings the heading into view.
        #expect(
            render(sectioned, state, 80, 12)[2...7] == [
                "    parse depends on fetch, and save on parse",
                "  02-cap.ops  Six downloads, two at a time",
                "    at most two at once",
                "  03-cancel.ops  Cancel: before it starts, and while it runs",
                "",
                "",
            ])
        #expect(render(sectioned, state, 80, 12)[8] == Self.heading)
        #expect(ScenarioPicker.handle(.up, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 2)
    }

    @Test func homeAndEndJumpToTheFirstAndLastEntryOfAllSections() {
        var state = PickerState()
        let size = Size(columns: 80, rows: 12)
        #expect(ScenarioPicker.handle(.end, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 4)
        #expect(render(sectioned, state, 80, 12)[0].hasSuffix("5 of 5"))
        #expect(ScenarioPicker.handle(.end, state: &state, list: sectioned, size: size) == .none)
        #expect(ScenarioPicker.handle(.home, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 0)
        #expect(state.scroll == 0)
        #expect(ScenarioPicker.handle(.pageDown, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 3)
    }

    @Test func tabGoesToTheNextSectionsFirstEntryAndRoundShiftTabBack() {
        var state = PickerState()
        let size = Size(columns: 80, rows: 12)
        state.selected = 1
        #expect(ScenarioPicker.handle(.tab, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 3)
        #expect(ScenarioPicker.handle(.tab, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 0, "round to the first section")
        #expect(ScenarioPicker.handle(.shiftTab, state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 3)
    }

    /// While a question is selected no lesson shows its first note: a
    /// note often gives the question's answer away.
    @Test func noNoteShowsWhileAQuestionIsSelected() {
        let list = PickerList([
            PickerSection(
                heading: "Practice", entries: [PickerEntry(fileName: "next ▸", title: "02-cap.ops: how many?")],
                asksQuestions: true),
            PickerSection(entries: [
                PickerEntry(fileName: "02-cap.ops", title: "Six downloads", firstNote: "at most two at once")
            ]),
        ])
        var state = PickerState()
        #expect(!render(list, state, 60, 10).contains("    at most two at once"))
        state.selected = 1
        #expect(render(list, state, 60, 10).contains("    at most two at once"))
    }

    @Test func enterOnAMistakeShowsItsDiagnosticsInsteadOfOpeningIt() {
        var state = PickerState()
        state.selected = 4
        let size = Size(columns: 80, rows: 24)
        #expect(ScenarioPicker.handle(.enter, state: &state, list: sectioned, size: size) == .showDiagnostics(4))
        #expect(state.pane == PickerPane(entry: 4))
        // While the pane is open, keys are the pane's: q closes it, not the picker.
        #expect(ScenarioPicker.handle(.down, state: &state, list: sectioned, size: size) == .none)  // nothing to scroll
        #expect(ScenarioPicker.handle(.character("q"), state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.pane == nil)
        #expect(state.selected == 4)
        for close in [Key.escape, .enter] {
            _ = ScenarioPicker.handle(.enter, state: &state, list: sectioned, size: size)
            #expect(ScenarioPicker.handle(close, state: &state, list: sectioned, size: size) == .redraw)
            #expect(state.pane == nil)
        }
        _ = ScenarioPicker.handle(.enter, state: &state, list: sectioned, size: size)
        #expect(ScenarioPicker.handle(.ctrl("c"), state: &state, list: sectioned, size: size) == .quit)
        state = PickerState()
        #expect(ScenarioPicker.handle(.enter, state: &state, list: sectioned, size: size) == .open(0))
        #expect(state.pane == nil)
    }

    @Test func aLongPaneScrollsWithArrowsAndPages() {
        var list = sectioned
        list[entry: 3].diagnostics = Self.capZero + Self.cycle + Self.capZero + Self.cycle  // 20 lines at 60 wide
        var state = PickerState()
        state.selected = 3
        let size = Size(columns: 60, rows: 16)  // a pane of 9 lines of text
        #expect(ScenarioPicker.handle(.enter, state: &state, list: list, size: size) == .showDiagnostics(3))
        #expect(ScenarioPicker.handle(.up, state: &state, list: list, size: size) == .none)
        #expect(ScenarioPicker.handle(.down, state: &state, list: list, size: size) == .redraw)
        #expect(state.pane?.scroll == 1)
        #expect(ScenarioPicker.handle(.pageDown, state: &state, list: list, size: size) == .redraw)
        #expect(state.pane?.scroll == 9)
        #expect(ScenarioPicker.handle(.end, state: &state, list: list, size: size) == .redraw)
        #expect(state.pane?.scroll == 11)
        #expect(ScenarioPicker.handle(.pageDown, state: &state, list: list, size: size) == .none)
        #expect(
            render(list, state, 60, 16) == [
                " opscope: choose a scenario                          4 of 5",
                "",
                "Mistakes: files that fail `opscope check`, each teaching on…",
                "▶ cap-zero.ops  error: a cap of 0 would stall the queue wit…",
                "┌ cap-zero.ops: what opscope check says ───────────────────┐",
                "│   0 would stall the queue without saying so              │",
                "│ queue net max 0                                          │",
                "│               ^                                          │",
                "│ note: use 1 or more, or 'default'                        │",
                "│ scenarios/mistakes/cycle.ops:9:27: error: dependency     │",
                "│   cycle: save → parse → save                             │",
                "│ op save  work 100ms after parse                          │",
                "│                           ^                              │",
                "│ note: every operation in a cycle waits forever           │",
                "└────────────────────── 12-20 of 20  Esc close, ↑↓ scroll ─┘",
                " ↑↓ PgUp PgDn scroll  Esc close",
            ])
        #expect(ScenarioPicker.handle(.home, state: &state, list: list, size: size) == .redraw)
        #expect(state.pane?.scroll == 0)
        #expect(ScenarioPicker.handle(.pageUp, state: &state, list: list, size: size) == .none)
    }

    // MARK: - Mouse

    @Test func aClickSelectsTheEntryUnderItAndNotAHeading() {
        var state = PickerState()
        state.selected = 3
        state.scroll = 1  // as shown at 80×12: list rows 1…9
        let size = Size(columns: 80, rows: 12)
        #expect(ScenarioPicker.handle(.mouse(column: 4, row: 8), state: &state, list: sectioned, size: size) == .none)
        #expect(ScenarioPicker.handle(.mouse(column: 4, row: 7), state: &state, list: sectioned, size: size) == .none)
        #expect(ScenarioPicker.handle(.mouse(column: 4, row: 0), state: &state, list: sectioned, size: size) == .none)
        #expect(ScenarioPicker.handle(.mouse(column: 4, row: 5), state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 2)
        #expect(state.scroll == 1)  // a click does not scroll what it clicked on
        #expect(
            ScenarioPicker.handle(.mouse(column: 40, row: 10), state: &state, list: sectioned, size: size) == .redraw)
        #expect(state.selected == 3)  // the note row belongs to its entry
    }

    // MARK: - Screens

    @Test func rendersTheWindowAroundTheSelection() {
        var state = PickerState()
        state.selected = 2
        state.scroll = 2
        #expect(
            render(flat, state, 40, 7) == [
                " opscope: choose a scenario      3 of 4",
                "",
                "  02-deps.ops  Dependencies",
                "",
                "▶ 03-cap.ops  The cap",
                "    cap 2",
                " ↑↓ choose  Enter open  q quit",
            ])
        var clicked = state
        #expect(
            ScenarioPicker.handle(
                .mouse(column: 3, row: 2), state: &clicked, list: flat, size: Size(columns: 40, rows: 7)) == .redraw)
        #expect(clicked.selected == 1)
    }

    @Test func theLibraryThenTheMistakesUnderTheirHeadingAt80x24() {
        var state = PickerState()
        state.selected = 3
        #expect(
            render(sectioned, state, 80, 24) == [
                " opscope: choose a scenario                                              4 of 5",
                "",
                "  01-chain.ops  Download, parse, save: a dependency chain",
                "    parse depends on fetch, and save on parse",
                "  02-cap.ops  Six downloads, two at a time",
                "    at most two at once",
                "  03-cancel.ops  Cancel: before it starts, and while it runs",
                "",
                "",
                "Mistakes: files that fail `opscope check`, each teaching one rule",
                "▶ cap-zero.ops  error: a cap of 0 would stall the queue without saying so",
                "    use 1 or more, or 'default'",
                "  cycle.ops  error: dependency cycle: save → parse → save",
                "    every operation in a cycle waits forever",
                "", "", "", "", "", "", "", "", "",
                " ↑↓ choose  Tab next section  Enter show the errors  q quit",
            ])
    }

    @Test func theDiagnosticsPaneShowsWhatCheckPrintsAboveTheKeyBar() {
        var state = PickerState()
        state.selected = 4
        state.pane = PickerPane(entry: 4)
        #expect(
            render(sectioned, state, 80, 24) == [
                " opscope: choose a scenario                                              5 of 5",
                "",
                "  01-chain.ops  Download, parse, save: a dependency chain",
                "    parse depends on fetch, and save on parse",
                "  02-cap.ops  Six downloads, two at a time",
                "    at most two at once",
                "  03-cancel.ops  Cancel: before it starts, and while it runs",
                "",
                "",
                "Mistakes: files that fail `opscope check`, each teaching one rule",
                "  cap-zero.ops  error: a cap of 0 would stall the queue without saying so",
                "    use 1 or more, or 'default'",
                "▶ cycle.ops  error: dependency cycle: save → parse → save",
                "    every operation in a cycle waits forever",
                "",
                "",
                "┌ cycle.ops: what opscope check says ──────────────────────────────────────────┐",
                "│ scenarios/mistakes/cycle.ops:9:27: error: dependency cycle: save → parse →   │",
                "│   save                                                                       │",
                "│ op save  work 100ms after parse                                              │",
                "│                           ^                                                  │",
                "│ note: every operation in a cycle waits forever                               │",
                "└────────────────────────────────────────────────────────────────── Esc close ─┘",
                " Esc close",
            ])
    }

    @Test func asciiModeDrawsThePickerAndThePaneInAsciiOnly() {
        var state = PickerState()
        state.selected = 4
        let list = render(sectioned, state, 80, 24, ascii: true)
        #expect(list[12] == "> cycle.ops  error: dependency cycle: save -> parse -> save")
        #expect(list[23] == " Up/Down choose  Tab next section  Enter show the errors  q quit")
        state.pane = PickerPane(entry: 4)
        let pane = render(sectioned, state, 80, 24, ascii: true)
        #expect(pane[16] == "+ cycle.ops: what opscope check says ------------------------------------------+")
        #expect(pane[17] == "| scenarios/mistakes/cycle.ops:9:27: error: dependency cycle: save -> parse    |")
        for screen in [list, pane] {
            #expect(screen.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        }
    }

    @Test(arguments: [
        ("save → parse … “done” — ok", "save -> parse ... \"done\" - ok"),
        ("naïve 中", "naive ??"),
    ])
    func asciiLookAlikes(text: String, ascii: String) {
        var grid = CellGrid(columns: 40, rows: 1)
        grid.write(Wording.plain(text, glyphs: .ascii), at: .zero)
        grid.makeASCII()
        #expect(trimmed(grid.lines[0]) == ascii)
    }

    @Test func sourceLinesKeepTheirWidthInAsciiSoTheCaretStillLinesUp() {
        let lines = ScenarioPicker.paneLines(
            ["x.ops:1:12: error: unknown operation 'b'", "op 中 after b", "            ^"], width: 60, ascii: true)
        #expect(
            lines == [
                .header("x.ops:1:12: error: unknown operation 'b'"), .source("op 中 after b"), .caret("            ^"),
            ])
        var grid = CellGrid(columns: 20, rows: 2)
        grid.write("op 中 after b", at: .zero)
        grid.write("            ^", at: Position(column: 0, row: 1))
        grid.makeASCII()
        #expect(grid.lines.map(trimmed) == ["op ?? after b", "            ^"])
    }
}
