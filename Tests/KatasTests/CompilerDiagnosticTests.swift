import Testing
import TextKit

@testable import Katas

/// swiftc's output (llvm's style) read as diagnostics: each header with
/// the lines under it, paths and messages that hold colons kept whole.
@Suite struct CompilerDiagnosticTests {
    @Test func headersAndTheLinesUnderThemAreKeptTogether() throws {
        let output = """
            /home/a:b/kata.swift:12:30: error: cannot convert value of type 'String' to specified type 'Bool'
                override var isAsynchronous: Bool { "yes" }
                                                    ^~~~~
            main.swift:40:13: warning: class 'KataObserved' must restate inherited '@unchecked Sendable' conformance
            final class KataObserved: AsyncDownload {
                        ^
            main.swift:41:1: note: see: here: a note
            error: fatal error encountered during compilation

            """
        let found = CompilerDiagnostic.parse(output)
        #expect(found.count == 3)
        let first = try #require(found.first)
        #expect(first.file == "/home/a:b/kata.swift")
        #expect(first.line == 12 && first.column == 30 && first.severity == "error")
        #expect(first.message == "cannot convert value of type 'String' to specified type 'Bool'")
        #expect(first.text.count == 3 && first.text[2].hasSuffix("^~~~~"))
        #expect(found[1].severity == "warning" && found[1].file == "main.swift")
        #expect(found[2].message == "see: here: a note")
        #expect(found[2].text.last == "error: fatal error encountered during compilation")
    }

    @Test func textWithoutDiagnosticsGivesNone() {
        #expect(CompilerDiagnostic.parse("").isEmpty)
        #expect(CompilerDiagnostic.parse("ld: cannot find -lFoundation\nerror: link failed\n").isEmpty)
    }
}
