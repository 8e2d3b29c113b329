import TextKit

/// A command's table: its name, its usage lines and its options, from
/// which both its parser (`parse`) and its help (`help`) are made, so that
/// an option is written in one place (as swift-argument-parser makes both
/// from one declaration). The prose around them (what the command does,
/// its exit status) is the command's own.
package struct CommandSpec: Sendable {
    /// The executable the usage lines start with.
    package var program: String
    package var name: String
    /// One line, for the list of commands.
    package var abstract: String
    /// Each a usage line after `opscope`.
    package var usage: [[UsageWord]]
    /// What the command does, between the usage and the options.
    package var about: String
    /// The heading of the options, `OPTIONS` unless said otherwise
    /// (`OPTIONS (before or after the file)`).
    package var optionsHeading: String
    /// Everything the parser takes, in the order the help lists them.
    package var options: [CommandOption]
    /// After the options: the exit status, notes.
    package var epilogue: String
    /// The column an option's summary starts in (0-based); a longer label
    /// gets a line of its own.
    package var summaryColumn: Int

    /// Columns the help's option summaries are wrapped to.
    package static let width = 78

    package init(
        program: String = "opscope", name: String, abstract: String, usage: [[UsageWord]], about: String = "",
        optionsHeading: String = "OPTIONS", options: [CommandOption] = [], epilogue: String = "",
        summaryColumn: Int = 24
    ) {
        self.program = program
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.about = about
        self.optionsHeading = optionsHeading
        self.options = options
        self.epilogue = epilogue
        self.summaryColumn = summaryColumn
        for line in usage {
            for case .option(let option, _, _) in line {
                precondition(self.option(named: option) != nil, "'\(name)' usage names '--\(option)', not in its table")
            }
        }
    }

    package func option(named name: String) -> CommandOption? {
        options.first { $0.name == name }
    }

    /// The arguments read with this table: an option it does not hold is an
    /// error (with the nearest it does hold).
    package func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        try Arguments(
            arguments, options: Set(options.filter { $0.value != nil }.map(\.name)),
            flags: Set(options.filter { $0.value == nil }.map(\.name)))
    }

    /// The whole help: usage lines, what the command does, its options,
    /// then the epilogue.
    package var help: String {
        var text = usage.enumerated().map { index, line in
            (index == 0 ? "USAGE: " : "       ") + ([program] + line.map(render)).joined(separator: " ")
        }.joined(separator: "\n")
        if !about.isEmpty { text += "\n\n" + about }
        if !options.isEmpty {
            text += "\n\n\(optionsHeading):\n" + options.map(entry).joined(separator: "\n")
        }
        if !epilogue.isEmpty { text += "\n\n" + epilogue }
        return text
    }

    /// `[--format text|jsonl]`, `--watch`, or a plain word.
    private func render(_ word: UsageWord) -> String {
        switch word {
        case .word(let text):
            return text
        case .option(let name, let value, let optional):
            let valueName = value ?? option(named: name)?.value
            let text = "--\(name)" + (valueName.map { " " + $0 } ?? "")
            return optional ? "[\(text)]" : text
        }
    }

    /// `  --speed X             scenario seconds per…`, the summary wrapped
    /// at `summaryColumn`.
    private func entry(_ option: CommandOption) -> String {
        Self.entry("  " + option.label, option.summary, column: summaryColumn)
    }

    /// `label` then `summary` wrapped from `column` (0-based) to `width`;
    /// the summary starts on the next line when the label is too long.
    package static func entry(_ label: String, _ summary: String, column: Int) -> String {
        let indent = String(repeating: " ", count: column)
        let lines = Spelling.wrap(summary, width: width - column)
        guard let first = lines.first else { return label }
        var text: String
        if label.count + 1 <= column {
            text = label + String(repeating: " ", count: column - label.count) + first
        } else {
            text = label + "\n" + indent + first
        }
        for line in lines.dropFirst() { text += "\n" + indent + line }
        return text
    }

}

/// One option of a command's table: its name (without `--`), the name of
/// its value (nil for a flag, which takes none) and what the help says of
/// it (one paragraph, wrapped where it is printed).
package struct CommandOption: Sendable, Equatable {
    package var name: String
    package var value: String?
    package var summary: String

    /// An option that takes a value: `--speed X`.
    package static func value(_ name: String, _ value: String, _ summary: String) -> CommandOption {
        CommandOption(name: name, value: value, summary: summary)
    }

    /// An option that takes none: `--paused`.
    package static func flag(_ name: String, _ summary: String) -> CommandOption {
        CommandOption(name: name, value: nil, summary: summary)
    }

    /// `--speed X`, `--paused`.
    package var label: String { "--\(name)" + (value.map { " " + $0 } ?? "") }
}

/// A word of a usage line: plain (`FILE`, `[DIR]`) or an option of the
/// table, drawn with its value's name (or `value`, where a line takes only
/// some: `--format text|jsonl`), in brackets when it may be left out.
package enum UsageWord: Sendable, ExpressibleByStringLiteral {
    case word(String)
    case option(String, value: String?, optional: Bool)

    package init(stringLiteral text: String) { self = .word(text) }

    /// `[--name VALUE]`.
    package static func optional(_ name: String, _ value: String? = nil) -> UsageWord {
        .option(name, value: value, optional: true)
    }

    /// `--name VALUE`.
    package static func required(_ name: String, _ value: String? = nil) -> UsageWord {
        .option(name, value: value, optional: false)
    }
}
