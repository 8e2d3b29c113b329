import TextKit

extension ScenarioPicker {
    /// The whole picker screen: the title bar with the highlighted entry's
    /// place ("12 of 31"), the list under its section headings, the key
    /// bar, and the diagnostics pane over the list when it is open. With
    /// any glyph set but `.unicode`, every cell is ASCII (the text too).
    public static func render(
        list: PickerList, state: PickerState, size: Size, glyphs: GlyphSet = .unicode, colors: Bool = true
    ) -> CellGrid {
        var grid = CellGrid(size: size)
        let theme = Theme(colors: colors)
        let ascii = glyphs != .unicode
        let text: (String) -> String = { Wording.plain($0, glyphs: glyphs) }
        let count = list.count

        let titleBar = Rect(x: 0, y: 0, width: size.columns, height: 1)
        grid.fill(titleBar, with: .blank(theme.titleBar))
        grid.write(" opscope: choose a scenario", at: .zero, style: theme.titleBar, clippedTo: titleBar)
        if count > 0 {
            let place = "\(min(max(0, state.selected), count - 1) + 1) of \(count) "
            grid.write(
                place, at: Position(column: size.columns - displayWidth(place), row: 0), style: theme.titleBar,
                clippedTo: titleBar)
        }

        var area = listArea(size: size)
        let diagnostics = state.pane.flatMap {
            (0..<count).contains($0.entry) ? list[entry: $0.entry].paneText : nil
        }
        let pane = state.pane.map { _ in paneLayout(diagnostics ?? [], size: size, ascii: ascii) }
        if let pane {
            // The list shows above the pane, the selected entry among it.
            area.height = max(0, min(area.height, pane.box.y - area.y))
        }
        let rows = PickerRows(list)
        let offset = rows.offset(stored: state.scroll, capacity: area.height, selected: state.selected)
        if count == 0 {
            grid.write(
                "no scenario files found", at: Position(column: 2, row: area.y), style: theme.dim, clippedTo: area)
        }
        let entries = list.entries
        let notes = list.showsNotes(selected: state.selected)
        for (i, row) in rows.rows.enumerated().dropFirst(offset).prefix(area.height) {
            let y = area.y + i - offset
            let line = Rect(x: 0, y: y, width: size.columns, height: 1).intersection(area)
            func put(_ string: String, _ style: Style) {
                grid.write(
                    truncate(text(string), toWidth: size.columns, ellipsis: glyphs.ellipsis),
                    at: Position(column: 0, row: y), style: style, clippedTo: line)
            }
            switch row {
            case .gap:
                break
            case .heading(let heading):
                put(heading, theme.heading.underlined)
            case .entry(let n):
                let selected = n == state.selected
                var label = "\(selected ? glyphs.pointer : " ") \(entries[n].fileName)"
                if let title = entries[n].title { label += "  \(title)" }
                put(label, selected ? theme.selected.bolded : theme.heading)
            case .note(let n):
                if notes, let note = entries[n].firstNote { put("    " + note, theme.dim) }
            }
        }

        let arrows = ascii ? "Up/Down" : "↑↓"
        let keyBar = Rect(x: 0, y: size.rows - 1, width: size.columns, height: 1)
        var keys: String
        if let pane, let open = state.pane {
            let scrolls = pane.lines.count > pane.text.height
            keys = scrolls ? " \(arrows) PgUp PgDn scroll  Esc close" : " Esc close"
            let entry = entries[open.entry]
            let title =
                "\(entry.fileName): what opscope \(entry.diagnostics == nil && entry.isKata ? "kata" : "check") says"
            drawPane(open, title: title, layout: pane, glyphs: glyphs, theme: theme, into: &grid)
        } else {
            let entry = (0..<count).contains(state.selected) ? list[entry: state.selected] : nil
            let enter =
                entry?.opens == false ? "show the errors" : entry?.isKata == true ? "check your file" : "open"
            let sections = list.sections.filter { !$0.entries.isEmpty }.count > 1 ? "  Tab next section" : ""
            keys = " \(arrows) choose\(sections)  Enter \(enter)  q quit"
        }
        grid.write(keys, at: Position(column: 0, row: keyBar.y), style: theme.dim, clippedTo: keyBar)
        if ascii { grid.makeASCII() }
        return grid
    }

    // MARK: - The diagnostics pane

    /// The kinds of line `opscope check` prints for a diagnostic.
    enum PaneLine: Hashable {
        /// `file:line:col: error: message` (and any other prose): wrapped.
        case header(String)
        /// The source line and the caret line under it: cut at the edge,
        /// never wrapped, so that the caret stays under its column.
        case source(String)
        case caret(String)
        /// A note or any other line: wrapped, continuation lines indented.
        case text(String)
    }

    /// `diagnostics` as the pane shows them at `width` cells: prose wrapped
    /// (continuation lines indented by two), source and caret lines kept
    /// whole; tabs become four spaces in both, so the caret still lines up.
    static func paneLines(_ diagnostics: [String], width: Int, ascii: Bool) -> [PaneLine] {
        func isCaret(_ line: String) -> Bool {
            line.contains("^") && line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "^" }
        }
        var lines: [PaneLine] = []
        for (i, raw) in diagnostics.enumerated() {
            let untabbed = raw.replacingOccurrences(of: "\t", with: "    ")
            if isCaret(raw) {
                lines.append(.caret(untabbed))
                continue
            }
            if i + 1 < diagnostics.count, isCaret(diagnostics[i + 1]) {
                // Kept as it is: the grid's ASCII pass maps it cell by
                // cell, so the caret stays under its column.
                lines.append(.source(untabbed))
                continue
            }
            let shown = ascii ? Wording.plain(raw, glyphs: .ascii) : raw
            guard !shown.isEmpty else {
                lines.append(.text(""))
                continue
            }
            let isHeader = shown.contains(": error: ") || shown.contains(": warning: ")
            for (j, piece) in wrap(shown, width: width - 2).enumerated() {
                let line = j == 0 ? piece : "  " + piece
                lines.append(isHeader ? .header(line) : .text(line))
            }
        }
        return lines
    }

    static func drawPane(
        _ pane: PickerPane, title: String, layout: (box: Rect, text: Rect, lines: [PaneLine]), glyphs: GlyphSet,
        theme: Theme, into grid: inout CellGrid
    ) {
        let (box, inner, lines) = layout
        guard box.width > 4, box.height > 2 else { return }
        let ascii = glyphs != .unicode
        grid.fill(box, with: .blank)
        grid.drawBox(
            box, glyphs: glyphs, style: theme.heading, title: Wording.plain(title, glyphs: glyphs),
            titleStyle: theme.heading)
        let scroll = min(max(0, pane.scroll), max(0, lines.count - inner.height))
        for (i, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            let at = Position(column: inner.x, row: inner.y + i)
            switch line {
            case .header(let s): grid.write(s, at: at, style: theme.heading, clippedTo: inner)
            case .source(let s): grid.write(s, at: at, style: theme.plain, clippedTo: inner)
            case .caret(let s): grid.write(s, at: at, style: theme.failed, clippedTo: inner)
            case .text(let s): grid.write(s, at: at, style: theme.plain, clippedTo: inner)
            }
        }
        var footer = "Esc close"
        if lines.count > inner.height {
            let shown = "\(scroll + 1)-\(min(lines.count, scroll + inner.height)) of \(lines.count)"
            footer = "\(shown)  Esc close, \(ascii ? "Up/Down" : "↑↓") scroll"
        }
        let width = displayWidth(footer) + 2
        if box.width > width + 2 {
            grid.write(
                " \(footer) ", at: Position(column: box.maxX - width - 2, row: box.maxY - 1), style: theme.heading,
                clippedTo: box)
        }
    }
}
