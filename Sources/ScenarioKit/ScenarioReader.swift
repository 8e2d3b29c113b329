/// Entry point of the language: source → validated `Scenario` or diagnostics.
public enum ScenarioReader {
    /// Lexes, parses and validates `file`, collecting every diagnostic
    /// (sorted by location; equal locations keep the order found).
    /// Never traps, whatever the bytes. The scenario is nil when any
    /// diagnostic is an error; warnings never prevent it.
    public static func read(_ file: SourceFile) -> ParseResult {
        var lexer = Lexer(bytes: file.bytes)
        let (tree, syntax) = Parser.parse(&lexer)
        let lexical = lexer.diagnostics
        let hasErrors = lexical.contains(where: \.isError) || syntax.contains(where: \.isError)
        let (scenario, semantic) = Validator.validate(tree, hasEarlierErrors: hasErrors)
        let all = lexical + syntax + semantic
        let sorted = all.indices.sorted { a, b in
            all[a].location != all[b].location ? all[a].location < all[b].location : a < b
        }
        return ParseResult(scenario: scenario, diagnostics: sorted.map { all[$0] })
    }

    /// Reads scenario text (already valid UTF-8); `path` is only for messages.
    public static func read(_ text: String, path: String = "<text>") -> ParseResult {
        read(SourceFile(path: path, text: text))
    }
}
