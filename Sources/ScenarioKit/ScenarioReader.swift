import TextKit

/// Entry point of the language: source → validated `Scenario` or diagnostics.
public enum ScenarioReader {
    /// Lexes, parses and validates `file`, collecting every diagnostic
    /// (sorted by location; equal locations keep the order found) and
    /// keeping the first `DiagnosticLimit.perFile` of them, whose "did
    /// you mean" notes are looked up last. Never traps, whatever the
    /// bytes. The scenario is nil when any diagnostic is an error;
    /// warnings never prevent it.
    public static func read(_ file: SourceFile) -> ParseResult {
        let (tree, lexical, syntax) = Parser.parse(bytes: file.bytes)
        let hasErrors = lexical.contains(where: \.isError) || syntax.contains(where: \.isError)
        let validated = Validator.validate(tree, hasEarlierErrors: hasErrors)
        let all = lexical + syntax + validated.diagnostics
        let errors = all.count(where: \.isError)
        let sorted = all.indices.sorted { a, b in
            all[a].location != all[b].location ? all[a].location < all[b].location : a < b
        }
        var names = validated.names
        let kept = sorted.prefix(DiagnosticLimit.perFile).map { names.suggest(all[$0]) }
        ReleaseLater.release((tree, names), operations: tree.operations.count)
        return ParseResult(
            scenario: validated.scenario, diagnostics: kept, errorCount: errors, warningCount: all.count - errors)
    }

    /// Reads scenario text (already valid UTF-8); `path` is only for messages.
    public static func read(_ text: String, path: String = "<text>") -> ParseResult {
        read(SourceFile(path: path, text: text))
    }
}

/// The queue and operation names of a file, in declaration order, indexed
/// for suggestions the first time one is needed (a file without an
/// unknown name never lists its operations' names).
struct DeclaredNames {
    let queues: [String]
    private let operationSyntax: [OperationSyntax]
    private var queueIndex: SuggestionIndex?
    private var operationIndex: SuggestionIndex?

    init(queues: [String], operations: [OperationSyntax]) {
        self.queues = queues
        operationSyntax = operations
    }

    var operations: [String] { operationSyntax.map(\.name.text) }

    /// `diagnostic` with its pending "did you mean" note looked up.
    mutating func suggest(_ diagnostic: Diagnostic) -> Diagnostic {
        guard let pending = diagnostic.pendingSuggestion else { return diagnostic }
        var resolved = diagnostic
        resolved.pendingSuggestion = nil
        let suggestion: String?
        switch pending.kind {
        case .queue:
            if queueIndex == nil { queueIndex = SuggestionIndex(queues) }
            suggestion = queueIndex!.nearest(to: pending.word)
        case .operation:
            if operationIndex == nil { operationIndex = SuggestionIndex(operations) }
            suggestion = operationIndex!.nearest(to: pending.word)
        }
        resolved.notes += Diagnostic.didYouMean(suggestion)
        return resolved
    }
}
