import TextKit

/// Entry point of the language: source → validated `Scenario` or diagnostics.
public enum ScenarioReader {
    /// Lexes, parses and validates `file`, collecting every diagnostic
    /// (sorted by location; equal locations keep the order found) and
    /// keeping the first `DiagnosticLimit.perFile` of them, whose "did
    /// you mean" notes are looked up last. Never traps, whatever the
    /// bytes. The scenario is nil when any diagnostic is an error;
    /// warnings never prevent it.
    public static func read(_ file: SourceFile, ownCode: OwnCode = .refused) -> ParseResult {
        // Without a cancellation, a read always gives a result.
        read(file, cancellation: nil, ownCode: ownCode)!
    }

    /// What a read does with `class TYPE`. Only the commands that can
    /// handle it accept it (`check`, `swift`, `trace`, which runs it in a
    /// child, and a recording's reader); every other read refuses it with
    /// a diagnostic at the type (the default, so that no run is ever handed
    /// one it cannot make).
    public enum OwnCode: Sendable {
        case refused
        case accepted
    }

    /// `read(_:)`, given up (nil) once `cancellation` says so: the read of
    /// a save that a newer one replaced. What it made so far is let go of.
    public static func read(
        _ file: SourceFile, ownCode: OwnCode = .refused, unless cancellation: ReadCancellation
    ) -> ParseResult? {
        read(file, cancellation: cancellation, ownCode: ownCode)
    }

    private static func read(
        _ file: SourceFile, cancellation: ReadCancellation?, ownCode: OwnCode = .refused
    ) -> ParseResult? {
        let (tree, lexical, syntax) = Parser.parse(bytes: file.bytes, cancellation: cancellation)
        if cancellation.isCancelled {
            ReleaseLater.release(tree, operations: tree.operations.count)
            return nil
        }
        let hasErrors = lexical.hasErrors || syntax.hasErrors
        let validated = Validator.validate(
            tree, hasEarlierErrors: hasErrors, cancellation: cancellation, ownCode: ownCode)
        if cancellation.isCancelled {
            ReleaseLater.release((tree, validated.names), operations: tree.operations.count)
            return nil
        }
        // Each list kept its first `perFile` by location: together they
        // hold the file's first `perFile`.
        let all = lexical.kept + syntax.kept + validated.diagnostics.kept
        let errors = lexical.errorCount + syntax.errorCount + validated.diagnostics.errorCount
        let warnings = lexical.warningCount + syntax.warningCount + validated.diagnostics.warningCount
        let sorted = all.indices.sorted { a, b in
            all[a].location != all[b].location ? all[a].location < all[b].location : a < b
        }
        var names = validated.names
        let kept = sorted.prefix(DiagnosticLimit.perFile).map { names.suggest(all[$0]) }
        ReleaseLater.release((tree, names), operations: tree.operations.count)
        return ParseResult(
            scenario: validated.scenario, diagnostics: kept, errorCount: errors, warningCount: warnings)
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
