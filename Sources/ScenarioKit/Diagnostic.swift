/// One problem found in a scenario file.
///
/// Diagnostics are values: the lexer, the parser and the validator only
/// collect them; `DiagnosticPrinter` alone turns them into text. Messages
/// are lower-case, without a trailing period, and are made by the named
/// factories in `Diagnostic+Messages.swift` so that every wording is pinned
/// by a test.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    /// Extra lines printed after the caret, such as `note: did you mean 'fetch'?`.
    public var notes: [String]
    /// A "did you mean" still to look up, filled in by `ScenarioReader`
    /// for the diagnostics it keeps (so a file of 100,000 unknown names
    /// pays for a hundred searches, not 100,000).
    var pendingSuggestion: PendingSuggestion?

    public init(
        _ severity: Severity, at location: SourceLocation, _ message: String,
        notes: [String] = []
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    public var isError: Bool { severity == .error }
}

/// The word of an unknown-name diagnostic and the names it may be a typo of.
struct PendingSuggestion: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case queue
        case operation
    }

    var word: String
    var kind: Kind
}

extension Diagnostic {
    /// This diagnostic, its "did you mean" to be looked up among `kind`.
    func suggesting(_ word: String, among kind: PendingSuggestion.Kind) -> Diagnostic {
        var copy = self
        copy.pendingSuggestion = PendingSuggestion(word: word, kind: kind)
        return copy
    }
}
