import Foundation
import Testing

/// The table view in the real interface: the 266 operations of a stuck
/// feed screen, sorted by how long each waited for its queue.
@Suite("the table view in tmux")
struct TableInterfaceTests {
    static let file = "Tests/opscopeTests/Fixtures/bugs/one-stuck-in-266.ops"

    /// `323ms`, `1.2s`, `3s+` in seconds; nil for an empty cell.
    static func seconds(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("+") { t.removeLast() }
        if t.hasSuffix("ms") { return Double(t.dropLast(2)).map { $0 / 1000 } }
        if t.hasSuffix("s") { return Double(t.dropLast()) }
        return nil
    }

    /// The rows of the table on `screen`: name → waited, in screen order.
    static func rows(_ screen: [String]) -> [(name: String, waited: Double?)] {
        guard let header = screen.firstIndex(where: { $0.hasPrefix("name ") && $0.contains("waited") }) else {
            return []
        }
        let titles = Array(screen[header])
        guard
            let start = screen[header].range(of: "waited").map({
                screen[header].distance(from: screen[header].startIndex, to: $0.lowerBound)
            })
        else { return [] }
        let end = min(titles.count, start + 9)
        var rows: [(String, Double?)] = []
        for line in screen[(header + 1)...] {
            guard !line.hasPrefix("─"), let name = line.split(separator: " ").first else { break }
            let cells = Array(line)
            let waited = cells.count > start ? String(cells[start..<min(end, cells.count)]) : ""
            rows.append((String(name), seconds(waited)))
        }
        return rows
    }

    @Test("t until the table shows, o until it sorts by waited: the first row waited longest of all 266")
    func theTableSortsByWaitedLongestFirst() throws {
        let tmux = try TmuxSession([Self.file, "--speed", "4"], columns: 80, rows: 24)
        try tmux.waitFor(text: "stuck")
        for _ in 0..<4 {
            if try tmux.screenText().contains("Table ·") { break }
            try tmux.send("t")
            Thread.sleep(forTimeInterval: 0.3)
        }
        try tmux.waitFor(text: "Table · in file order")
        for _ in 0..<15 {
            if try tmux.screenText().contains("Table · by waited ▼") { break }
            try tmux.send("o")
            Thread.sleep(forTimeInterval: 0.3)
        }
        let first = try tmux.waitFor(text: "Table · by waited ▼").components(separatedBy: "\n")
        let top = Self.rows(first)
        #expect(top.count > 5, "\(first.joined(separator: "\n"))")
        // The sort selects its first row: the inspector says why it waited.
        #expect(first.contains { $0.contains("Inspector: \(top.first?.name ?? "?")") })
        // Page down through the whole table, gathering every row's wait.
        var waits: [String: Double] = [:]
        var order: [String] = []
        var screen = first
        for _ in 0..<60 {
            for row in Self.rows(screen) where waits[row.name] == nil {
                waits[row.name] = row.waited ?? -1
                order.append(row.name)
            }
            if screen.contains(where: { $0.contains("of 266") && $0.contains("–266 of 266") }) { break }
            // Each page moves the selection, and the inspector with it.
            let inspector = screen.first { $0.contains("Inspector: ") } ?? ""
            try tmux.send("PageDown")
            screen = try tmux.waitFor("the next page") { text in
                !text.contains(inspector) && text.contains("Inspector: ")
            }.components(separatedBy: "\n")
        }
        #expect(order.count == 266, "\(order.count) rows seen")
        let longest = waits.values.max() ?? 0
        #expect(longest > 0.05, "the fetches behind the cap of 4 wait")
        #expect(waits[order[0]] == longest, "first \(order[0]) waited \(waits[order[0]] ?? -1), longest \(longest)")
        // And the order never goes up.
        let seen = order.compactMap { waits[$0] }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 >= $1 })
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
