import Testing

@testable import ScenarioKit

/// A large file is lexed and parsed in two halves at once; what it gives
/// must be exactly what one pass gives: the same tree, the same
/// diagnostics at the same lines and columns.
@Suite struct TwoPartParseTests {
    /// A file past the two-part size with every kind of statement,
    /// backslash continuations around the middle, and (`withErrors`)
    /// errors in both halves.
    static func mixed(continuationsEvery: Int, withErrors: Bool) -> [UInt8] {
        var lines = ["title \"two parts\"", "note \"both halves\"", "queue q max 3", "queue r serial"]
        var i = 0
        var bytes = 0
        while bytes < Parser.twoPartBytes * 5 / 4 {
            var line: String
            switch i % 6 {
            case 0: line = "op a\(i) on q work \(i % 50)ms" + (i >= 6 ? " after a\(i - 6)" : "")
            case 1: line = "op a\(i) on r work 1ms priority high qos utility"
            case 2: line = "op a\(i) work 2ms  # a comment with \\ in it"
            case 3: line = "at \(i)ms cancel a\(i - 3)"
            case 4: line = "op a\(i) on q work 1ms after a\(i - 2)"
            default: line = "when a\(i - 5) finishes say \"line \(i)\""
            }
            if i % continuationsEvery == 0 { line = line.replacingOccurrences(of: " work", with: " \\\n  work") }
            lines.append(line)
            if withErrors && i % 97 == 0 {
                lines += ["op b\(i) on nowhere work 1ms", "op c\(i) wrok 1ms", "op d\(i) on q \"stray\" \u{1}"]
            }
            bytes += line.utf8.count + 1
            i += 1
        }
        lines.append("expect finished a1")
        return Array(lines.joined(separator: "\n").utf8)
    }

    static func onePass(_ bytes: [UInt8]) -> (SyntaxTree, DiagnosticList, DiagnosticList) {
        var lexer = Lexer(bytes: bytes)
        let (tree, syntax) = Parser.parse(&lexer)
        return (tree, lexer.diagnostics, syntax)
    }

    @Test(arguments: [2, 7, 1_000_000])
    func twoHalvesGiveWhatOnePassGives(continuationsEvery: Int) throws {
        let bytes = Self.mixed(continuationsEvery: continuationsEvery, withErrors: true)
        #expect(bytes.count >= Parser.twoPartBytes)
        #expect(Parser.splitPoint(in: bytes) != nil)
        let (tree, lexical, syntax) = Parser.parse(bytes: bytes)
        let (oneTree, oneLexical, oneSyntax) = Self.onePass(bytes)
        #expect(lexical == oneLexical)
        #expect(syntax == oneSyntax)
        #expect(!syntax.isEmpty && !lexical.isEmpty)
        #expect(tree.operations.map(\.name) == oneTree.operations.map(\.name))
        #expect(tree.actions.count == oneTree.actions.count && tree.captions.count == oneTree.captions.count)
        let read = ScenarioReader.read(SourceFile(path: "two.ops", bytes: bytes))
        let validated = Validator.validate(oneTree, hasEarlierErrors: true)
        #expect(read.errorCount == oneLexical.count + oneSyntax.count + validated.diagnostics.errorCount)
    }

    @Test func aCleanFileReadsToTheScenarioOnePassBuilds() throws {
        let bytes = Self.mixed(continuationsEvery: 5, withErrors: false)
        let read = ScenarioReader.read(SourceFile(path: "clean.ops", bytes: bytes))
        #expect(read.diagnostics.isEmpty)
        let scenario = try #require(read.scenario)
        let (tree, _, _) = Self.onePass(bytes)
        #expect(scenario == Validator.validate(tree, hasEarlierErrors: false).scenario)
        #expect(scenario.operations.count > 5_000)
    }

    @Test func noSplitWhereEveryLineContinues() {
        let line = "op a \\\n"
        let bytes = Array(String(repeating: line, count: Parser.twoPartBytes / line.utf8.count + 10).utf8)
        #expect(Parser.splitPoint(in: bytes) == nil)
    }
}
