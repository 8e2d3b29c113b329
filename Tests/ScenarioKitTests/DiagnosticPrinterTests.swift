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
}
