import Testing

@testable import ScenarioKit

@Suite struct DiagnosticPrinterTests {
    let printer = DiagnosticPrinter()

    func renderAll(_ text: String, path: String = "scenarios/x.ops", color: Bool = false) -> String {
        let file = SourceFile(path: path, text: text)
        return printer.renderAll(ScenarioReader.read(file), file: file, color: color)
    }

    @Test func unknownOperationWithSuggestion() {
        let text = "queue net\nop fetch on net work 1s\nop parse on net work 400ms after fech\n"
        #expect(
            renderAll(text) == """
                scenarios/x.ops:3:34: error: unknown operation 'fech'
                op parse on net work 400ms after fech
                                                 ^
                note: did you mean 'fetch'?

                """)
    }

    @Test func severalDiagnosticsInLocationOrderWithWarnings() {
        let text = "queue spare\nqueue q max 0\nop a on q work 1s\n"
        #expect(
            renderAll(text, path: "s.ops") == """
                s.ops:1:7: warning: queue 'spare' has no operations
                queue spare
                      ^
                s.ops:2:13: error: a cap of 0 would stall the queue without saying so
                queue q max 0
                            ^
                note: use 1 or more, or 'default'

                """)
    }

    @Test func tabsAreCopiedIntoTheCaretLine() {
        #expect(
            renderAll("op a\twork\t1s\tprority high", path: "t.ops") == """
                t.ops:1:14: error: unknown clause 'prority'
                op a\twork\t1s\tprority high
                    \t    \t  \t^
                note: did you mean 'priority'?

                """)
    }

    @Test func wideCharactersTakeTwoCellsInTheCaretLine() {
        #expect(
            renderAll("note \"한국어\" x", path: "k.ops") == """
                k.ops:1:12: error: unexpected 'x' in 'note' statement
                note "한국어" x
                              ^

                """)
    }

    @Test func invalidBytesAreShownAsReplacementCharacters() {
        let file = SourceFile(path: "b.ops", bytes: Array("op a".utf8) + [0xFF] + Array(" work 1s".utf8))
        let rendered = printer.renderAll(ScenarioReader.read(file), file: file, color: false)
        #expect(
            rendered == """
                b.ops:1:5: error: invalid UTF-8 byte 0xFF
                op a\u{FFFD} work 1s
                    ^
                note: a scenario file must be UTF-8 text

                """)
    }

    /// What came from the file (its path, a character a message quotes,
    /// the line) reaches the terminal as escapes, the caret still under
    /// its column.
    @Test func controlCharactersFromTheFileAreEscaped() {
        #expect(
            renderAll("op b work 1ms after zz\u{1B}[31m", path: "e\u{1B}]0;x\u{7}\n.ops") == """
                e\\u{1B}]0;x\\u{7}\\n.ops:1:21: error: unknown operation 'zz'
                op b work 1ms after zz\\u{1B}[31m
                                    ^
                e\\u{1B}]0;x\\u{7}\\n.ops:1:23: error: unexpected character '\\u{1B}'
                op b work 1ms after zz\\u{1B}[31m
                                      ^
                e\\u{1B}]0;x\\u{7}\\n.ops:1:24: error: unexpected character '['
                op b work 1ms after zz\\u{1B}[31m
                                            ^

                """)
    }

    @Test func colourUsesANSIOnlyWhenAsked() {
        let file = SourceFile(path: "c.ops", text: "op a work 1s after a")
        let d = ScenarioReader.read(file).diagnostics[0]
        #expect(
            printer.render(d, file: file, color: true)
                == "\u{1B}[1mc.ops:1:20:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m \u{1B}[1m'a' cannot depend on itself\u{1B}[0m\n"
                + "op a work 1s after a\n" + String(repeating: " ", count: 19) + "\u{1B}[1;32m^\u{1B}[0m\n")
        #expect(!printer.render(d, file: file, color: false).contains("\u{1B}"))
    }

    @Test func aLocationOutsideTheFileShowsNoSourceLine() {
        let d = Diagnostic(.warning, at: Loc(line: 9, column: 1), "something", notes: ["n"])
        #expect(
            printer.render(d, file: SourceFile(path: "e.ops", text: "x"), color: false)
                == "e.ops:9:1: warning: something\nnote: n\n")
    }

    @Test(arguments: [
        (0, 0, "no errors"), (1, 0, "1 error"), (2, 0, "2 errors"), (0, 1, "1 warning"),
        (2, 1, "2 errors, 1 warning"), (1, 3, "1 error, 3 warnings"),
    ])
    func summary(errors: Int, warnings: Int, expected: String) {
        let at = Loc(line: 1, column: 1)
        let list =
            Array(repeating: Diagnostic(.error, at: at, "e"), count: errors)
            + Array(repeating: Diagnostic(.warning, at: at, "w"), count: warnings)
        #expect(DiagnosticPrinter.summary(list) == expected)
    }

    // MARK: Limits

    @Test func afterTheLimitOneLineSaysHowManyMoreThereAre() {
        let lines = ["queue q"] + (0..<250).map { "op o\($0) work 0ms after p\($0)" }
        let file = SourceFile(path: "m.ops", text: lines.joined(separator: "\n"))
        let result = ScenarioReader.read(file)
        #expect(result.errorCount == 250)
        #expect(result.diagnostics.count == DiagnosticLimit.perFile)
        let rendered = printer.renderAll(result, file: file, color: false)
        #expect(rendered.components(separatedBy: ": error: ").count - 1 == DiagnosticLimit.perFile)
        #expect(
            rendered.hasSuffix(
                "m.ops: note: 150 more errors not shown (opscope shows the first 100 diagnostics of a file)\n"))
        // The kept ones still have their "did you mean", looked up last.
        #expect(rendered.contains("m.ops:2:22: error: unknown operation 'p0'\n"))
        #expect(result.diagnostics.allSatisfy { $0.notes.count == 1 && $0.notes[0].hasPrefix("did you mean 'o") })
    }

    @Test func theOmittedLineCountsErrorsAndWarningsApart() {
        let result = ParseResult(
            scenario: nil, diagnostics: [Diagnostic(.error, at: Loc(line: 1, column: 1), "e")], errorCount: 3,
            warningCount: 1)
        #expect(
            DiagnosticPrinter.omitted(result)
                == "2 more errors and 1 more warning not shown (opscope shows the first 100 diagnostics of a file)")
        #expect(DiagnosticPrinter.omitted(ParseResult(scenario: nil, diagnostics: [])) == nil)
    }

    @Test func aLineWiderThanTheWidthIsAWindowAroundTheCaret() {
        let filler = String(repeating: "x", count: 5_000)
        let text = "op a work 1s after \(filler)b\(filler)"
        let rendered = DiagnosticPrinter(width: 40).renderAll(
            ScenarioReader.read(text, path: "w.ops"), file: SourceFile(path: "w.ops", text: text), color: false)
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        // The message quotes the name shortened to four widths.
        #expect(lines[0].hasPrefix("w.ops:1:20: error: unknown operation 'xxx"))
        #expect(lines[0].count == "w.ops:1:20: error: ".count + 159)
        #expect(lines[0].contains("x…x"))
        // Column 20 is near the start: the window begins with the line.
        #expect(lines[1] == "op a work 1s after " + String(repeating: "x", count: 20) + "…")
        #expect(lines[1].count == 40)
        #expect(lines[2] == String(repeating: " ", count: 19) + "^")
    }

    @Test func aCaretFarIntoALongLineIsCentredWithBothEndsMarked() {
        let filler = String(repeating: "y", count: 3_000)
        let text = "note \"\(filler)\t\(filler)\" stray \(filler)"
        let file = SourceFile(path: "c.ops", text: text)
        let lines = DiagnosticPrinter(width: 30).renderAll(ScenarioReader.read(file), file: file, color: false)
            .split(separator: "\n")
        let column = Int(lines[0].split(separator: ":")[2])!
        #expect(column == 6_010)
        let shown = Array(lines[1].unicodeScalars)
        #expect(shown.first == "…" && shown.last == "…")
        #expect(shown.count == 30)
        #expect(!lines[1].contains("\t"))
        // The caret stands under the first letter of the stray word, near the middle.
        let caretColumn = lines[2].count - 1
        #expect(String(String.UnicodeScalarView(shown[caretColumn..<caretColumn + 5])) == "stray")
        #expect((13...17).contains(caretColumn))
    }

    @Test func wideCharactersCountTwoColumnsInTheWindow() {
        let wide = String(repeating: "가", count: 50)
        let text = "op a work 1s after \(wide)"
        let file = SourceFile(path: "k.ops", text: text)
        let lines = DiagnosticPrinter(width: 30).renderAll(ScenarioReader.read(file), file: file, color: false)
            .split(separator: "\n")
        #expect(displayWidthOf(String(lines[1])) <= 30)
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
        // The caret is under the first wide character, counted in columns.
        let before = lines[1].prefix { $0 != "가" }
        #expect(lines[2] == String(repeating: " ", count: displayWidthOf(String(before))) + "^")
    }
    func displayWidthOf(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.value >= 0xAC00 && $1.value <= 0xD7A3 ? 2 : 1) }
    }
}
