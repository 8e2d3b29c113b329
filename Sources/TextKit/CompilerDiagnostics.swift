/// What swiftc wrote when a program of the user's code did not compile
/// (`-diagnostic-style llvm`: `FILE:LINE:COLUMN: error: MESSAGE`, then the
/// source line and a caret), split into diagnostics, so that the user sees
/// the errors in their own file as swiftc gave them, and an error in
/// opscope's own part (a kata's harness, a scenario's probe of a class) as
/// what it means: the file does not declare what is asked for.
public struct CompilerDiagnostic: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    /// `error`, `warning`, `note`.
    public var severity: String
    public var message: String
    /// The header line and what followed it (the source line, the caret).
    public var text: [String]

    /// The diagnostics in `output`, in order; lines before the first one
    /// and lines that are no diagnostic's are left out.
    public static func parse(_ output: String) -> [CompilerDiagnostic] {
        var found: [CompilerDiagnostic] = []
        for raw in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if let header = header(line) {
                found.append(header)
            } else if !found.isEmpty, !line.isEmpty {
                found[found.count - 1].text.append(line)
            }
        }
        return found
    }

    /// `FILE:LINE:COLUMN: SEVERITY: MESSAGE`, read from the right: a path
    /// may hold colons, a message too.
    private static func header(_ line: String) -> CompilerDiagnostic? {
        for severity in ["error", "warning", "note", "remark"] {
            guard let marker = line.firstRange(of: ": \(severity): ") else { continue }
            let location = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard location.count >= 3, let lineNumber = Int(location[location.count - 2]),
                let column = Int(location[location.count - 1])
            else { continue }
            let file = location.dropLast(2).joined(separator: ":")
            return CompilerDiagnostic(
                file: file, line: lineNumber, column: column, severity: severity,
                message: String(line[marker.upperBound...]), text: [line])
        }
        return nil
    }
}
