import TextKit

/// What a save changed in a scenario, as a reload says it (and as `diff`
/// says how two files differ): each change named in the words `check`'s
/// canonical print uses — `net cap 2 → 3`, `fetch added`, `upload: after
/// save → after encode`, `at 20ms suspend net added` — and how many
/// statements differ.
///
/// Statements are compared in their canonical form (`ScenarioPrinter`):
/// a comment, a blank line, spacing or a reordering of clauses is no
/// change, and neither is a statement moved within its section. A queue
/// and an operation are matched by name, so an edited one is said clause
/// by clause; every other statement (an action, a caption, an
/// expectation) is there or not, as a multiset.
package struct ScenarioChanges: Sendable, Equatable {
    /// Canonical statements that differ: the more of those only in the old
    /// text and those only in the new.
    package var statements: Int
    /// Operations only in the new file, in its order; only in the old, in
    /// the old one's.
    package var added: [String]
    package var removed: [String]
    /// Each change in words, in the file's order (queues, operations, the
    /// rest; what was removed after what is there).
    package var named: [String]
    /// Set when the two files were too large to compare
    /// (`comparedUpTo`): how many operations each has.
    package var uncompared: OperationCounts?

    /// The operations of the file before and of the file now.
    package struct OperationCounts: Sendable, Equatable {
        package var before: Int
        package var now: Int
    }

    /// Files of more operations than this, the two together, are not
    /// compared statement by statement: printing both and counting their
    /// statements costs seconds at a million (a debug build's 2.5 million
    /// took longer than the read), on the way to showing the save, for a
    /// count nobody reads; the summary gives the sizes instead.
    package static let comparedUpTo = 200_000

    /// How many named changes a summary shows before `and N more`.
    package static let shownInSummary = 3

    package init(statements: Int, added: [String] = [], removed: [String] = [], named: [String] = []) {
        self.statements = statements
        self.added = added
        self.removed = removed
        self.named = named
    }

    package init(from old: Scenario, to new: Scenario) {
        guard old.operations.count + new.operations.count <= Self.comparedUpTo else {
            self.init(statements: 0)
            uncompared = OperationCounts(before: old.operations.count, now: new.operations.count)
            return
        }
        let printer = ScenarioPrinter()
        let oldLines = printer.source(for: old).split(separator: "\n")
        let newLines = printer.source(for: new).split(separator: "\n")
        var count: [Substring: Int] = [:]
        for line in oldLines { count[line, default: 0] += 1 }
        for line in newLines { count[line, default: 0] -= 1 }
        let gone = count.values.filter { $0 > 0 }.reduce(0, +)
        let came = count.values.filter { $0 < 0 }.reduce(0, -)
        let oldNames = Set(old.operations.map(\.name))
        let newNames = Set(new.operations.map(\.name))
        self.init(
            statements: max(gone, came), added: new.operations.map(\.name).filter { !oldNames.contains($0) },
            removed: old.operations.map(\.name).filter { !newNames.contains($0) },
            named: max(gone, came) == 0 ? [] : Self.named(oldLines, newLines))
    }

    /// `no change`, `1 change: net cap 2 → 3`, `5 changes: net cap 2 → 3,
    /// fetch added, save removed and 2 more`, or (`not compared: 2,549,519
    /// operations before, 2 now` for files too large to compare).
    package var summary: String {
        if let uncompared {
            return "not compared: \(Spelling.grouped(uncompared.before)) operations before, "
                + "\(Spelling.grouped(uncompared.now)) now"
        }
        guard statements > 0 else { return "no change" }
        guard !named.isEmpty else { return Spelling.count(statements, "change") }
        return Spelling.count(named.count, "change") + ": " + list
    }

    /// The named changes, the first `shownInSummary` of them, then `and N
    /// more`.
    package var list: String {
        let shown = named.prefix(Self.shownInSummary)
        let more = named.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    // MARK: - Naming

    /// A statement matched by name in the other file: `queue net`, `op
    /// fetch` (a barrier too: an operation that became a barrier is
    /// changed, not removed and added).
    private static func key(_ words: [Substring]) -> String? {
        guard words.count >= 2 else { return words.first.flatMap { singletons.contains($0) ? String($0) : nil } }
        switch words[0] {
        case "queue": return "queue " + words[1]
        case "op", "barrier": return "op " + words[1]
        case let first where singletons.contains(first): return String(first)
        default: return nil
        }
    }

    /// Statements a file has at most one of: said as `speed 1 → 2`.
    private static let singletons: Set<Substring> = ["title", "speed", "quiz"]

    private static func named(_ oldLines: [Substring], _ newLines: [Substring]) -> [String] {
        var oldKeyed: [String: [Substring]] = [:]
        var rest: [Substring: Int] = [:]
        for line in oldLines {
            let words = line.split(separator: " ")
            if let key = key(words) { oldKeyed[key] = words } else { rest[line, default: 0] += 1 }
        }
        var named: [String] = []
        var newKeys: Set<String> = []
        var restAdded: [String] = []
        for line in newLines {
            let words = line.split(separator: " ")
            guard let key = key(words) else {
                if let n = rest[line], n > 0 { rest[line] = n - 1 } else { restAdded.append(line + " added") }
                continue
            }
            newKeys.insert(key)
            guard let before = oldKeyed[key] else {
                named.append(words[0] == "queue" ? "queue \(words[1]) added" : addedText(words))
                continue
            }
            guard before != words else { continue }
            switch words[0] {
            case "queue": named += queueChanges(before, words)
            case "op", "barrier": named += operationChanges(before, words)
            default: named.append(before.joined(separator: " ") + " → " + words.dropFirst().joined(separator: " "))
            }
        }
        named += restAdded
        for line in oldLines {
            let words = line.split(separator: " ")
            if let key = key(words) {
                guard !newKeys.contains(key) else { continue }
                named.append(words[0] == "queue" ? "queue \(words[1]) removed" : addedText(words, "removed"))
            } else if let n = rest[line], n > 0 {
                rest[line] = n - 1
                named.append(line + " removed")
            }
        }
        return named
    }

    /// `fetch added`; a singleton statement whole: `speed 2 added`.
    private static func addedText(_ words: [Substring], _ verb: String = "added") -> String {
        words[0] == "op" || words[0] == "barrier" ? "\(words[1]) \(verb)" : words.joined(separator: " ") + " " + verb
    }

    /// `net cap 2 → 3`, `net serial → cap 2`, `net qos utility added`,
    /// `net suspended removed`.
    private static func queueChanges(_ old: [Substring], _ new: [Substring]) -> [String] {
        let name = new[1]
        let (a, b) = (queueOptions(old), queueOptions(new))
        var changes: [String] = []
        if a.cap != b.cap {
            changes.append(
                a.cap == "serial" || b.cap == "serial"
                    ? "\(name) \(capText(a.cap)) → \(capText(b.cap))" : "\(name) cap \(a.cap) → \(b.cap)")
        }
        changes += clauseChange("\(name) qos", a.qos, b.qos)
        for flag in ["main", "suspended"] where a.flags.contains(flag) != b.flags.contains(flag) {
            changes.append("\(name) \(flag) " + (b.flags.contains(flag) ? "added" : "removed"))
        }
        return changes
    }

    private static func capText(_ cap: String) -> String { cap == "serial" ? "serial" : "cap " + cap }

    /// A queue line's options: its cap (`default`, `serial` or the number),
    /// its QoS, and its flags.
    private static func queueOptions(_ words: [Substring]) -> (cap: String, qos: String?, flags: Set<String>) {
        var cap = "default"
        var qos: String?
        var flags: Set<String> = []
        var i = 2
        while i < words.count {
            switch words[i] {
            case "serial": cap = "serial"
            case "max" where i + 1 < words.count:
                cap = String(words[i + 1])
                i += 1
            case "qos" where i + 1 < words.count:
                qos = String(words[i + 1])
                i += 1
            default: flags.insert(String(words[i]))
            }
            i += 1
        }
        return (cap, qos, flags)
    }

    /// `upload: after save → after encode`, `upload: priority high added`,
    /// `cursor: op → barrier`.
    private static func operationChanges(_ old: [Substring], _ new: [Substring]) -> [String] {
        let name = new[1]
        var changes: [String] = []
        if old[0] != new[0] { changes.append("\(name): \(old[0]) → \(new[0])") }
        let (a, b) = (clauses(old), clauses(new))
        for key in clauseOrder where a[key] != b[key] {
            changes += clauseChange("\(name):", a[key], b[key])
        }
        return changes
    }

    /// `PREFIX OLD → NEW`, `PREFIX NEW added`, `PREFIX OLD removed`.
    private static func clauseChange(_ prefix: String, _ old: String?, _ new: String?) -> [String] {
        switch (old, new) {
        case (let old?, let new?) where old != new: ["\(prefix) \(old) → \(new)"]
        case (nil, let new?): ["\(prefix) \(new) added"]
        case (let old?, nil): ["\(prefix) \(old) removed"]
        default: []
        }
    }

    /// The clauses of an operation's canonical line, by the word that
    /// begins each (`work`, `blocks` and `async` are one: its body).
    private static let clauseOrder = [
        "on", "body", "after", "priority", "qos", "completion", "ignores-cancel", "never-finishes", "leaves",
    ]

    private static let takesAName: Set<Substring> = [
        "on", "after", "cancel", "cancel-all", "suspend", "resume",
    ]

    private static func clauses(_ words: [Substring]) -> [String: String] {
        var clauses: [String: String] = [:]
        var key: String?
        var text: [Substring] = []
        func close() {
            if let key { clauses[key] = text.joined(separator: " ") }
        }
        for (i, word) in words.enumerated().dropFirst(2) {
            // A name (`after a, qos`, `on work`, `completion cancel after`)
            // follows a comma or the word that takes it.
            let listed = words[i - 1].hasSuffix(",") || Self.takesAName.contains(words[i - 1])
            let begins = !listed && (clauseOrder.contains(String(word)) || ["work", "blocks", "async"].contains(word))
            if begins {
                close()
                key = ["work", "blocks", "async"].contains(word) ? "body" : String(word)
                text = [word]
            } else {
                text.append(word)
            }
        }
        close()
        return clauses
    }
}
