import Testing

@testable import ScenarioKit

/// A hostile file is read within bounds: each stage keeps the first
/// hundred diagnostics (every one counted), and one statement holds at
/// most a million tokens.
@Suite struct BoundedReadTests {
    @Test func aFileOfManyWrongLinesKeepsItsFirstHundredAndCountsThemAll() {
        let text = String(repeating: "x x x\n", count: 5_000) + "op a work 1ms after nowhere\n"
        let result = ScenarioReader.read(text)
        #expect(result.errorCount == 5_001)
        #expect(result.diagnostics.count == DiagnosticLimit.perFile)
        #expect(result.diagnostics.map(\.location.line) == Array(1...DiagnosticLimit.perFile))
        #expect(result.diagnostics.allSatisfy { $0.message == "unknown statement 'x'" })
    }

    @Test func aListKeepsTheFirstByLocationWhateverTheOrderFound() {
        var list = DiagnosticList()
        for line in (1...1_000).reversed() {
            list.append(.unexpectedCharacter("?", at: SourceLocation(line: line, column: 1)))
        }
        list.append(.unexpectedCharacter("!", at: SourceLocation(line: 1, column: 1)))
        #expect(list.count == 1_001 && list.errorCount == 1_001)
        let kept = list.kept
        #expect(kept.count == DiagnosticLimit.perFile)
        #expect(kept.map(\.location.line) == [1] + Array(1..<DiagnosticLimit.perFile))
        // Equal locations: in the order found.
        #expect(kept[0].message == "unexpected character '?'" && kept[1].message == "unexpected character '!'")
    }

    @Test func aStatementOfMoreThanAMillionTokensIsAnError() {
        let words = Lexer.maximumTokens + 10
        let text = "op a work 1ms after " + String(repeating: "b ", count: words) + "\nop b work 1ms\n"
        let result = ScenarioReader.read(text)
        #expect(result.scenario == nil)
        let tooLong = result.diagnostics.filter { $0.message == "statement too long: more than 1,000,000 words" }
        #expect(tooLong.count == 1)
        #expect(tooLong.first?.location == SourceLocation(line: 1, column: 21 + 2 * (Lexer.maximumTokens - 5)))
    }
}
