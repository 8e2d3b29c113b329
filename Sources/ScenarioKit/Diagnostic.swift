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
