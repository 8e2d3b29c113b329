import ScenarioKit
import TextKit

/// What a save changed in a scenario, as a reload says it: how many
/// statements differ, and which operations came or went, by name.
///
/// Statements are compared in their canonical form (`ScenarioPrinter`):
/// a comment, a blank line, spacing or a reordering of clauses is no
/// change, and neither is a statement moved within its section. A
/// statement edited counts once (its old form gone, its new one there).
package struct ScenarioChanges: Sendable, Equatable {
    /// Canonical statements that differ: the more of those only in the old
    /// text and those only in the new.
    package var statements: Int
    /// Operations only in the new file, in its order; only in the old, in
    /// the old one's.
    package var added: [String]
    package var removed: [String]
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

    package init(statements: Int, added: [String] = [], removed: [String] = []) {
        self.statements = statements
        self.added = added
        self.removed = removed
    }

    package init(from old: Scenario, to new: Scenario) {
        guard old.operations.count + new.operations.count <= Self.comparedUpTo else {
            self.init(statements: 0)
            uncompared = OperationCounts(before: old.operations.count, now: new.operations.count)
            return
        }
        let printer = ScenarioPrinter()
        var count: [Substring: Int] = [:]
        let oldText = printer.source(for: old)
        let newText = printer.source(for: new)
        for line in oldText.split(separator: "\n") { count[line, default: 0] += 1 }
        for line in newText.split(separator: "\n") { count[line, default: 0] -= 1 }
        let gone = count.values.filter { $0 > 0 }.reduce(0, +)
        let came = count.values.filter { $0 < 0 }.reduce(0, -)
        let oldNames = Set(old.operations.map(\.name))
        let newNames = Set(new.operations.map(\.name))
        self.init(
            statements: max(gone, came), added: new.operations.map(\.name).filter { !oldNames.contains($0) },
            removed: old.operations.map(\.name).filter { !newNames.contains($0) })
    }

    /// `no change`, `1 change`, `3 changes: save added, fetch removed`
    /// (at most three names each, then how many more), or
    /// (`not compared: 2,549,519 operations before, 2 now` for files too
    /// large to compare).
    package var summary: String {
        if let uncompared {
            return "not compared: \(Spelling.grouped(uncompared.before)) operations before, "
                + "\(Spelling.grouped(uncompared.now)) now"
        }
        guard statements > 0 else { return "no change" }
        var text = Spelling.count(statements, "change")
        var parts: [String] = []
        if !added.isEmpty { parts.append(Self.names(added) + " added") }
        if !removed.isEmpty { parts.append(Self.names(removed) + " removed") }
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        return text
    }

    private static func names(_ names: [String]) -> String {
        let shown = names.prefix(3)
        let more = names.count - shown.count
        return Spelling.list(Array(shown) + (more > 0 ? ["\(more) more"] : []))
    }
}
