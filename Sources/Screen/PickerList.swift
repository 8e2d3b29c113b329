/// One scenario file offered by `opscope` without arguments; the loop reads
/// the files and supplies these.
public struct PickerEntry: Sendable, Hashable {
    public var fileName: String
    public var title: String?
    public var firstNote: String?
    /// What `opscope check` prints for the file on standard error, one
    /// string per line, without colour, when the file cannot run: a file of
    /// `scenarios/mistakes`, a library file with errors, or one that cannot
    /// be read. nil when the file runs: Enter opens it. Otherwise Enter
    /// shows these lines in a pane instead.
    public var diagnostics: [String]?
    /// A kata rather than a file: Enter checks the user's file with the
    /// kata's checks (`opscope kata NAME`), and the pane shows `report`.
    public var isKata: Bool
    /// What the last check of a kata printed so far, one string per line;
    /// nil before the first. Enter checks again.
    public var report: [String]?

    public init(
        fileName: String, title: String? = nil, firstNote: String? = nil, diagnostics: [String]? = nil,
        isKata: Bool = false
    ) {
        self.fileName = fileName
        self.title = title
        self.firstNote = firstNote
        self.diagnostics = diagnostics
        self.isKata = isKata
    }

    /// Enter opens the file (it has no diagnostics to show instead), or
    /// checks the kata.
    public var opens: Bool { diagnostics == nil }

    /// The lines the pane shows for it: its diagnostics, or its kata's report.
    public var paneText: [String] { diagnostics ?? report ?? [] }
}

/// Entries listed together, under a heading (the library has none; the
/// mistakes have theirs).
public struct PickerSection: Sendable, Hashable {
    public var heading: String?
    public var entries: [PickerEntry]
    /// Its entries open as questions: while one is selected, no entry of
    /// the list shows its first note (a lesson's note often gives a
    /// question's answer away).
    public var asksQuestions: Bool

    public init(heading: String? = nil, entries: [PickerEntry], asksQuestions: Bool = false) {
        self.heading = heading
        self.entries = entries
        self.asksQuestions = asksQuestions
    }
}

/// What the picker lists: its sections in order. Entries are numbered
/// across all sections (the first entry of the second section follows the
/// last of the first); `PickerState.selected`, `PickerPane.entry` and the
/// outcomes use these numbers, and so does the loop for its paths.
public struct PickerList: Sendable, Hashable {
    public var sections: [PickerSection]

    public init(_ sections: [PickerSection]) {
        self.sections = sections
    }

    /// One section without a heading.
    public init(entries: [PickerEntry]) {
        self.init([PickerSection(entries: entries)])
    }

    /// Every entry, section after section.
    public var entries: [PickerEntry] { sections.flatMap(\.entries) }

    public var count: Int { sections.reduce(0) { $0 + $1.entries.count } }

    /// Entry `index`, counted across the sections.
    public subscript(entry index: Int) -> PickerEntry {
        get {
            let (s, i) = locate(index)
            return sections[s].entries[i]
        }
        set {
            let (s, i) = locate(index)
            sections[s].entries[i] = newValue
        }
    }

    /// The section entry `index` is in; nil when there is no such entry.
    public func section(ofEntry index: Int) -> Int? {
        guard (0..<count).contains(index) else { return nil }
        return locate(index).section
    }

    /// The number of the first entry of section `section`.
    public func firstEntry(ofSection section: Int) -> Int {
        sections.prefix(section).reduce(0) { $0 + $1.entries.count }
    }

    /// The list's notes show: the selected entry is not a question's.
    public func showsNotes(selected: Int) -> Bool {
        section(ofEntry: selected).map { !sections[$0].asksQuestions } ?? true
    }

    private func locate(_ index: Int) -> (section: Int, offset: Int) {
        var rest = index
        for (s, section) in sections.enumerated() {
            if rest < section.entries.count { return (s, rest) }
            rest -= section.entries.count
        }
        preconditionFailure("picker entry \(index) of \(count)")
    }
}

/// The list laid out as screen rows, top to bottom: each entry takes two
/// rows (file and title, then its first note); a section with a heading
/// starts with a blank row (unless it is first) and the heading's row.
/// Shared by keys, clicks and drawing, so they agree on what is where.
struct PickerRows {
    enum Row: Hashable {
        case gap
        case heading(String)
        /// The first row of entry `n`: file name and title.
        case entry(Int)
        /// The second row of entry `n`: its first note.
        case note(Int)
    }

    static let entryHeight = 2

    private(set) var rows: [Row] = []
    /// Per entry: the row of its first line.
    private(set) var entryRow: [Int] = []
    /// Per entry: the first row that must be visible with it: its
    /// section's heading when it is the first entry under one, else its own.
    private(set) var spanTop: [Int] = []

    init(_ list: PickerList) {
        var index = 0
        for section in list.sections where !section.entries.isEmpty {
            var top: Int?
            if let heading = section.heading {
                if !rows.isEmpty { rows.append(.gap) }
                top = rows.count
                rows.append(.heading(heading))
            }
            for _ in section.entries {
                spanTop.append(top ?? rows.count)
                top = nil
                entryRow.append(rows.count)
                rows += [.entry(index), .note(index)]
                index += 1
            }
        }
    }

    /// The first row shown in `capacity` rows: `stored` moved just enough
    /// that the selected entry shows whole (with its heading when it opens
    /// a section), and never past the end of the list.
    func offset(stored: Int, capacity: Int, selected: Int) -> Int {
        guard capacity > 0, rows.count > capacity else { return 0 }
        var offset = min(max(0, stored), rows.count - capacity)
        if entryRow.indices.contains(selected) {
            let bottom = entryRow[selected] + Self.entryHeight
            if bottom > offset + capacity { offset = bottom - capacity }
            if spanTop[selected] < offset { offset = spanTop[selected] }
        }
        return offset
    }

    /// The entry drawn on list row `row`, if any (headings and gaps are none).
    func entry(atRow row: Int) -> Int? {
        guard rows.indices.contains(row) else { return nil }
        switch rows[row] {
        case .entry(let n), .note(let n): return n
        case .gap, .heading: return nil
        }
    }
}
