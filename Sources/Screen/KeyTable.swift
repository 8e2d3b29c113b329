import TextKit

/// One entry of a key table: the keys that trigger `command`, and how the
/// help screen and key bar describe it.
public struct KeyBinding<Command>: Sendable where Command: Sendable {
    public var keys: [Key]
    public var command: Command
    /// What the command does, short and lower-case ("cancel the selected operation").
    public var help: String
    /// The help-screen section it is listed under ("Operations", "Queue", …).
    public var group: String

    public init(_ keys: [Key], _ command: Command, help: String, group: String) {
        self.keys = keys
        self.command = command
        self.help = help
        self.group = group
    }
}

/// The single source of truth for keys: the input handler asks it which
/// command a key means, and the help screen lists it, so the two cannot
/// disagree. Bindings keep their order; groups appear in order of first use.
public struct KeyTable<Command>: Sendable where Command: Sendable {
    public let bindings: [KeyBinding<Command>]
    private let index: [Key: Int]
    /// Keys bound more than once, in binding order. The first binding wins;
    /// a test of the real table should expect this to be empty.
    public let conflicts: [Key]

    public init(_ bindings: [KeyBinding<Command>]) {
        self.bindings = bindings
        var index: [Key: Int] = [:]
        var conflicts: [Key] = []
        for (i, binding) in bindings.enumerated() {
            for key in binding.keys {
                if index[key] == nil { index[key] = i } else { conflicts.append(key) }
            }
        }
        self.index = index
        self.conflicts = conflicts
    }

    /// The command bound to `key`, or `nil` when the key means nothing here.
    public func command(for key: Key) -> Command? {
        index[key].map { bindings[$0].command }
    }

    /// The keys of one binding as shown to the user, e.g. `"c, Del"`.
    public func keyLabel(_ binding: KeyBinding<Command>, ascii: Bool = false) -> String {
        binding.keys.map { $0.label(ascii: ascii) }.joined(separator: ", ")
    }

    /// The help text, grouped: a line with each group name, then one line per
    /// binding, `"  keys  help"`, with the key labels padded to one column.
    /// Groups are separated by an empty line.
    public func helpLines(ascii: Bool = false) -> [String] {
        var groups: [String] = []
        var byGroup: [String: [KeyBinding<Command>]] = [:]
        for b in bindings {
            if byGroup[b.group] == nil { groups.append(b.group) }
            byGroup[b.group, default: []].append(b)
        }
        let keyWidth = bindings.map { displayWidth(keyLabel($0, ascii: ascii)) }.max() ?? 0
        var lines: [String] = []
        for group in groups {
            if !lines.isEmpty { lines.append("") }
            lines.append(group)
            for b in byGroup[group] ?? [] {
                let label = keyLabel(b, ascii: ascii)
                let pad = String(repeating: " ", count: keyWidth - displayWidth(label))
                lines.append("  \(label)\(pad)  \(b.help)")
            }
        }
        return lines
    }
}
