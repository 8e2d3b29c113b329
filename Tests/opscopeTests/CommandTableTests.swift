import CommandSupport
import Foundation
import Testing

@testable import opscope

/// Each command's help and its parser come from one table
/// (`CommandSpec`): what the parser takes is what the help lists, and
/// the other way round.
@Suite("one table per command: its parser and its help")
struct CommandTableTests {
    /// Every option name any command's table holds or any help mentions.
    static let candidates: Set<String> = {
        var names: Set<String> = []
        for command in Opscope.subcommands {
            names.formUnion(command.spec.options.map(\.name))
            names.formUnion(optionNames(in: command.help))
        }
        return names
    }()

    /// The `--name`s written in `text`.
    static func optionNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    /// The part of a help that the table makes: its usage lines and its
    /// options (not the prose, which may name another command's options).
    static func tablePart(of help: String) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let usage = lines.prefix { !$0.isEmpty }
        let options = lines.drop { !($0.hasPrefix("OPTIONS")) }.dropFirst().prefix { $0.isEmpty || $0.hasPrefix(" ") }
        return (usage + options).joined(separator: "\n")
    }

    /// The names the command's parser takes, found by asking it each name:
    /// one it does not know is an unknown option.
    static func accepted(by command: any Subcommand.Type) -> Set<String> {
        candidates.filter { name in
            do throws(UsageError) {
                _ = try command.spec.parse(["--\(name)=1"])
                return true
            } catch {
                return error.unknownOption == nil
            }
        }
    }

    @Test(
        "every option the parser takes is in the help, and every option the help lists is taken",
        arguments: Opscope.subcommands.map { $0.name })
    func parserAndHelpAgree(name: String) throws {
        let command = try #require(Opscope.subcommands.first { $0.name == name })
        let listed = Self.optionNames(in: Self.tablePart(of: command.help))
        let accepted = Self.accepted(by: command)
        #expect(
            accepted == listed,
            "\(name): taken but not in the help \(accepted.subtracting(listed)); in the help but not taken \(listed.subtracting(accepted))"
        )
        for option in command.spec.options {
            #expect(command.help.contains("\n  \(option.label)"), "\(name)'s help has no line for \(option.label)")
        }
    }

    @Test("opscope-bench: its help lists each section '--only' takes, and only those; and each option")
    func benchSections() throws {
        let bench = OpscopeBinary.url.deletingLastPathComponent().appendingPathComponent("opscope-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no \(bench.path): build it first")
        let help = try OpscopeBinary.run(["--help"], executable: bench)
        #expect(help.status == 0)
        let refused = try OpscopeBinary.run(["--only", "nothing-such"], executable: bench)
        #expect(refused.status == 2)
        let listed = try #require(
            refused.stderr.components(separatedBy: "is one of ").last?
                .components(separatedBy: ", not").first?.components(separatedBy: ", "))
        let described = help.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  --") else { return nil }
            return line.dropFirst(2).split(separator: " ").first.map(String.init)
        }
        #expect(listed.count > 10)
        #expect(listed == described, "'--only' takes \(listed); the help describes \(described)")
        for option in ["quick", "only", "chain-length", "seeds", "runs"] {
            #expect(help.stdout.contains("\n  --\(option)"), "no line for --\(option)")
        }
    }

    @Test("an option's summary is wrapped beside its name, or under a name too long for the column")
    func optionLines() {
        let spec = CommandSpec(
            name: "demo", abstract: "", usage: [["demo", .optional("speed"), .required("format", "a|b")]],
            options: [
                .value("speed", "X", "scenario seconds per real second (default: 1; --speed 4 runs four times faster)"),
                .value("format", "text|jsonl|chrome|timeline|dot|mermaid", "output format (default: text)"),
                .flag("quiet", "nothing"),
            ], summaryColumn: 24)
        #expect(
            spec.help == """
                USAGE: opscope demo [--speed X] --format a|b

                OPTIONS:
                  --speed X             scenario seconds per real second (default: 1; --speed
                                        4 runs four times faster)
                  --format text|jsonl|chrome|timeline|dot|mermaid
                                        output format (default: text)
                  --quiet               nothing
                """)
    }

    @Test("a value outside an option's choices names them all")
    func choices() throws {
        let args = try Arguments(["--format", "xml"], options: ["format"])
        #expect(throws: UsageError("'--format' is 'text', 'jsonl' or 'chrome', not 'xml'")) {
            try args.choice("format", among: ["text", "jsonl", "chrome"], default: "text")
        }
        #expect(try args.choice("format", among: ["xml"], default: "text") == "xml")
    }
}
