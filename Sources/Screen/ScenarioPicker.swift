/// One scenario file offered by `opscope` without arguments; the loop reads
/// the files and supplies these.
public struct PickerEntry: Sendable, Hashable {
    public var fileName: String
    public var title: String?
    public var firstNote: String?

    public init(fileName: String, title: String? = nil, firstNote: String? = nil) {
        self.fileName = fileName
        self.title = title
        self.firstNote = firstNote
    }
}

/// The picker's persistent state: the highlighted entry and the first one
/// shown (both indices into the entries).
public struct PickerState: Sendable, Hashable {
    public var selected = 0
    public var scroll = 0
    public init() {}
}

/// What the loop does after a key in the picker.
public enum PickerOutcome: Sendable, Hashable {
    case none
    case redraw
    /// Open `entries[index]`.
    case open(Int)
    case quit
}

/// The scenario picker: keys and view, pure. ↑/k and ↓/j move, Home/End
/// jump, PgUp/PgDn page, Enter opens, q / Ctrl-C / Esc quit; a click on an
/// entry selects it.
public enum ScenarioPicker {
    /// Rows of an entry: file and title, then its first note (dim).
    static let entryHeight = 2

    public static func handle(
        _ key: Key, state: inout PickerState, entries: [PickerEntry], size: Size
    ) -> PickerOutcome {
        let rows = visibleEntries(size: size)
        var next = state.selected
        switch key {
        case .up, .character("k"): next -= 1
        case .down, .character("j"): next += 1
        case .pageUp: next -= max(1, rows - 1)
        case .pageDown: next += max(1, rows - 1)
        case .home: next = 0
        case .end: next = entries.count - 1
        case .enter: return entries.indices.contains(state.selected) ? .open(state.selected) : .none
        case .character("q"), .ctrl("c"), .escape: return .quit
        case .resize: return .redraw
        case .mouse(_, let row):
            let index = state.scroll + (row - 2) / entryHeight
            guard row >= 2, entries.indices.contains(index), (row - 2) / entryHeight < rows else { return .none }
            next = index
        default: return .none
        }
        next = min(max(0, next), max(0, entries.count - 1))
        guard next != state.selected else { return .none }
        state.selected = next
        state.scroll = ColumnScroll.offset(stored: state.scroll, count: entries.count, capacity: rows, selected: next)
        return .redraw
    }

    /// How many entries fit under the title row and above the key row.
    static func visibleEntries(size: Size) -> Int { max(1, (size.rows - 3) / entryHeight) }

    public static func render(
        entries: [PickerEntry], state: PickerState, size: Size, glyphs: GlyphSet = .unicode, colors: Bool = true
    ) -> CellGrid {
        var grid = CellGrid(size: size)
        let theme = Theme(colors: colors)
        let screen = Rect(size: size)
        let title = Rect(x: 0, y: 0, width: size.columns, height: 1)
        grid.fill(title, with: .blank(theme.titleBar))
        grid.write(" opscope: choose a scenario", at: .zero, style: theme.titleBar, clippedTo: title)
        let rows = visibleEntries(size: size)
        let offset = ColumnScroll.offset(
            stored: state.scroll, count: entries.count, capacity: rows, selected: state.selected)
        if entries.isEmpty {
            grid.write("no scenario files found", at: Position(column: 2, row: 2), style: theme.dim)
        }
        for (i, entry) in entries.enumerated().dropFirst(offset).prefix(rows) {
            let y = 2 + (i - offset) * entryHeight
            let selected = i == state.selected
            let marker = selected ? glyphs.pointer : " "
            var line = "\(marker) \(entry.fileName)"
            if let t = entry.title { line += "  \(t)" }
            let lineRect = Rect(x: 0, y: y, width: size.columns, height: 1).intersection(screen)
            grid.write(
                truncate(line, toWidth: size.columns, ellipsis: glyphs.ellipsis), at: Position(column: 0, row: y),
                style: selected ? theme.selected.bolded : theme.heading, clippedTo: lineRect)
            if let note = entry.firstNote {
                grid.write(
                    truncate("    " + note, toWidth: size.columns, ellipsis: glyphs.ellipsis),
                    at: Position(column: 0, row: y + 1), style: theme.dim)
            }
        }
        let arrows = glyphs == .unicode ? "↑↓" : "Up/Down"
        let keys = Rect(x: 0, y: size.rows - 1, width: size.columns, height: 1)
        grid.write(" \(arrows) choose  Enter open  q quit", at: Position(column: 0, row: keys.y), style: theme.dim, clippedTo: keys)
        return grid
    }
}
