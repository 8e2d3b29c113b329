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
/// errors, and every diagnostic (errors and warnings) sorted by location.
public struct ParseResult: Sendable {
    public var scenario: Scenario?
    public var diagnostics: [Diagnostic]

    public init(scenario: Scenario?, diagnostics: [Diagnostic]) {
        self.scenario = scenario
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.contains { $0.isError } }
}
