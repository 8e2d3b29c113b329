/// The text of one scenario file, as given, with its path for diagnostics.
public struct SourceFile: Sendable {
    /// The path as the user gave it; printed in diagnostics as is.
    public var path: String
    /// The raw bytes. Invalid UTF-8 and NUL bytes are diagnosed, never trusted.
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}

/// The outcome of reading a scenario file: the scenario when it has no
/// errors, and its diagnostics (errors and warnings) sorted by location:
/// every one up to `DiagnosticLimit.perFile`, the first that many beyond
/// (with the totals, so a summary can say how many more there are).
public struct ParseResult: Sendable {
    public var scenario: Scenario?
    /// The diagnostics kept, in location order.
    public var diagnostics: [Diagnostic]
    /// Every error and warning found, the ones not kept included.
    public var errorCount: Int
    public var warningCount: Int

    public init(scenario: Scenario?, diagnostics: [Diagnostic]) {
        let errors = diagnostics.count(where: \.isError)
        self.init(
            scenario: scenario, diagnostics: diagnostics, errorCount: errors,
            warningCount: diagnostics.count - errors)
    }

    public init(scenario: Scenario?, diagnostics: [Diagnostic], errorCount: Int, warningCount: Int) {
        self.scenario = scenario
        self.diagnostics = diagnostics
        self.errorCount = errorCount
        self.warningCount = warningCount
    }

    public var hasErrors: Bool { errorCount > 0 }

    /// Diagnostics found but not kept, by severity.
    public var omittedErrors: Int { errorCount - diagnostics.count(where: \.isError) }
    public var omittedWarnings: Int { warningCount - diagnostics.count(where: { !$0.isError }) }
}

/// How many diagnostics of one file are kept and shown. A file with a
/// million mistakes is one mistake made a million times: the first
/// hundred say what it is, a line says how many more there are, and
/// neither the terminal nor memory is flooded.
public enum DiagnosticLimit {
    public static let perFile = 100
}
