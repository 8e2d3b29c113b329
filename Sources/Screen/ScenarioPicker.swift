/// The picker's persistent state: the highlighted entry, the first list row
/// shown, and the diagnostics pane when it is open.
public struct PickerState: Sendable, Hashable {
    /// The highlighted entry, numbered across the sections (`PickerList`).
    /// Headings are not entries, so no key or click can land on one.
    public var selected = 0
    /// The first row of the list shown, in rows of the list (an entry is
    /// two rows; a heading and the blank row before it count too). A stored
    /// wish: drawing moves it just enough to show the selected entry.
    public var scroll = 0
    /// Why the entry cannot run, shown over the list; nil when closed.
    public var pane: PickerPane?

    public init() {}
}

/// The diagnostics pane: which entry's diagnostics it shows, and how many
/// wrapped lines are scrolled out of sight above.
public struct PickerPane: Sendable, Hashable {
    public var entry: Int
    public var scroll: Int

    public init(entry: Int, scroll: Int = 0) {
        self.entry = entry
        self.scroll = scroll
    }
}

/// What the loop does after a key in the picker.
public enum PickerOutcome: Sendable, Hashable {
    case none
    case redraw
    /// Open entry `index` (numbered across the sections).
    case open(Int)
    /// The pane now shows why entry `index` cannot run (the state says so
    /// already): redraw. The loop starts no run.
    case showDiagnostics(Int)
    case quit
}

/// The scenario picker: keys and view, pure. ↑/k and ↓/j move (over the
/// section headings), Home/End jump, PgUp/PgDn page, Tab and Shift-Tab go
/// to the next and previous section's first entry, Enter opens the file
/// or, for one that cannot run, shows its diagnostics in a pane; q / Ctrl-C /
/// Esc quit; a click on an entry selects it, a wheel notch moves the
/// selection by one. In the pane, ↑↓ PgUp PgDn Home End and the wheel
/// scroll; Esc, Enter or q close it; clicks do nothing.
public enum ScenarioPicker {
    /// Lines the wheel scrolls the pane per notch.
    static let wheelLines = 3

    public static func handle(
        _ key: Key, state: inout PickerState, list: PickerList, size: Size, glyphs: GlyphSet = .unicode
    ) -> PickerOutcome {
        if state.pane != nil {
            return handlePane(key, state: &state, list: list, size: size, glyphs: glyphs)
        }
        let rows = PickerRows(list)
        let area = listArea(size: size)
        let page = max(1, area.height / PickerRows.entryHeight - 1)
        var next = state.selected
        switch key {
        case .resize: return .redraw
        case .mouse(_, let row):
            guard row >= area.minY, row < area.maxY else { return .none }
            let offset = rows.offset(stored: state.scroll, capacity: area.height, selected: state.selected)
            guard let index = rows.entry(atRow: offset + row - area.minY) else { return .none }
            next = index
        case .wheel(_, _, let down):
            next += down ? 1 : -1
        default:
            switch PickerKeys.table.command(for: key) {
            case .up: next -= 1
            case .down: next += 1
            case .pageUp: next -= page
            case .pageDown: next += page
            case .first: next = 0
            case .last: next = list.count - 1
            case .nextSection, .previousSection:
                let filled = list.sections.indices.filter { !list.sections[$0].entries.isEmpty }
                guard filled.count > 1, let here = list.section(ofEntry: state.selected),
                    let at = filled.firstIndex(of: here)
                else { return .none }
                let step = PickerKeys.table.command(for: key) == .nextSection ? 1 : filled.count - 1
                next = list.firstEntry(ofSection: filled[(at + step) % filled.count])
            case .choose:
                guard (0..<list.count).contains(state.selected) else { return .none }
                guard !list[entry: state.selected].opens else { return .open(state.selected) }
                state.pane = PickerPane(entry: state.selected)
                return .showDiagnostics(state.selected)
            case .back, .quit: return .quit
            case nil: return .none
            }
        }
        next = min(max(0, next), max(0, list.count - 1))
        guard next != state.selected else { return .none }
        state.scroll = rows.offset(stored: state.scroll, capacity: area.height, selected: state.selected)
        state.selected = next
        state.scroll = rows.offset(stored: state.scroll, capacity: area.height, selected: next)
        return .redraw
    }

    /// Keys while the diagnostics pane is open: scroll it or close it.
    static func handlePane(
        _ key: Key, state: inout PickerState, list: PickerList, size: Size, glyphs: GlyphSet
    ) -> PickerOutcome {
        guard var pane = state.pane else { return .none }
        let diagnostics = (0..<list.count).contains(pane.entry) ? list[entry: pane.entry].paneText : []
        let layout = paneLayout(diagnostics, size: size, ascii: glyphs != .unicode)
        let most = max(0, layout.lines.count - layout.text.height)
        let page = max(1, layout.text.height - 1)
        var next = pane.scroll
        switch key {
        case .wheel(_, _, let down): next += down ? wheelLines : -wheelLines
        case .resize:
            pane.scroll = min(pane.scroll, most)
            state.pane = pane
            return .redraw
        default:
            switch PickerKeys.table.command(for: key) {
            case .up: next -= 1
            case .down: next += 1
            case .pageUp: next -= page
            case .pageDown: next += page
            case .first: next = 0
            case .last: next = most
            case .nextSection, .previousSection: return .none
            case .choose, .back:
                state.pane = nil
                return .redraw
            case .quit: return .quit
            case nil: return .none
            }
        }
        next = min(max(0, next), most)
        guard next != pane.scroll else { return .none }
        pane.scroll = next
        state.pane = pane
        return .redraw
    }

    /// How far the open pane can scroll (its lines past its height); nil
    /// when no pane is open. A report that grows follows its end while the
    /// pane is scrolled this far.
    public static func paneScrollLimit(list: PickerList, state: PickerState, size: Size, glyphs: GlyphSet) -> Int? {
        guard let pane = state.pane, (0..<list.count).contains(pane.entry) else { return nil }
        let layout = paneLayout(list[entry: pane.entry].paneText, size: size, ascii: glyphs != .unicode)
        return max(0, layout.lines.count - layout.text.height)
    }

    // MARK: - Geometry

    /// The list's rows: under the title bar and a blank row, above the key bar.
    static func listArea(size: Size) -> Rect {
        Rect(x: 0, y: 2, width: max(0, size.columns), height: max(0, size.rows - 3))
    }

    /// The diagnostics pane for `diagnostics`: a box over the lower part
    /// of the list, just above the key bar, as tall as its lines (at most
    /// leaving the title bar and one entry above it), the rect of its text
    /// inside, and its lines wrapped to that width.
    static func paneLayout(
        _ diagnostics: [String], size: Size, ascii: Bool
    ) -> (box: Rect, text: Rect, lines: [PaneLine]) {
        let lines = paneLines(diagnostics, width: size.columns - 4, ascii: ascii)
        let tallest = size.rows >= 8 ? size.rows - 5 : max(0, size.rows - 2)
        let height = min(tallest, max(4, lines.count + 2))
        let box = Rect(x: 0, y: max(0, size.rows - 1 - height), width: max(0, size.columns), height: height)
        return (box, box.inset(top: 1, left: 2, bottom: 1, right: 2), lines)
    }
}
