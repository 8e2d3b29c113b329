import TextKit

/// The one place where diagnostics become text.
///
/// ```
/// scenarios/x.ops:3:22: error: unknown operation 'fech'
/// op parse on net work 400ms after fech
///                                  ^
/// note: did you mean 'fetch'?
/// ```
///
/// The source line is shown with ill-formed bytes and NULs replaced by
/// U+FFFD (one column each, as the lexer counts them) and tabs kept. The
/// caret line copies tabs and puts two spaces under a wide (East Asian or
/// emoji) character and none under a combining mark, so the caret lines
/// up on a terminal while `SourceLocation.column` stays a count of scalars.
public struct DiagnosticPrinter: Sendable {
    public init() {}

    /// One diagnostic, every line ending in a newline. ANSI colours only
    /// when `color` is true (the caller decides: a terminal, no NO_COLOR).
    public func render(_ diagnostic: Diagnostic, file: SourceFile, color: Bool) -> String {
        render(diagnostic, path: file.path, lines: SourceLines(file.bytes), color: color)
    }

    /// Every diagnostic of `result`, sorted by location (equal locations
    /// keep their order), each rendered as by `render(_:file:color:)`.
    public func renderAll(_ result: ParseResult, file: SourceFile, color: Bool) -> String {
        let lines = SourceLines(file.bytes)
        let diagnostics = result.diagnostics.enumerated().sorted { a, b in
            a.element.location != b.element.location ? a.element.location < b.element.location : a.offset < b.offset
        }
        var text = ""
        for (_, diagnostic) in diagnostics {
            text += render(diagnostic, path: file.path, lines: lines, color: color)
        }
        return text
    }

    /// "2 errors, 1 warning"; "no errors" when there is nothing to report.
    public static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.count { $0.isError }
        let warnings = diagnostics.count - errors
        func counted(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        switch (errors, warnings) {
        case (0, 0): return "no errors"
        case (_, 0): return counted(errors, "error")
        case (0, _): return counted(warnings, "warning")
        default: return counted(errors, "error") + ", " + counted(warnings, "warning")
        }
    }

    private func render(_ diagnostic: Diagnostic, path: String, lines: SourceLines, color: Bool) -> String {
        func style(_ text: String, _ code: String) -> String {
            color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
        let location = diagnostic.location
        let label =
            diagnostic.isError ? style("error:", "1;31") : style("warning:", "1;35")
        var text =
            style("\(path):\(location.line):\(location.column):", "1") + " " + label + " "
            + style(diagnostic.message, "1") + "\n"
        if let source = lines.text(ofLine: location.line) {
            text += source + "\n"
            text += Self.caretIndent(under: source, column: location.column) + style("^", "1;32") + "\n"
        }
        for note in diagnostic.notes {
            text += style("note:", "1;36") + " " + note + "\n"
        }
        return text
    }

    /// The whitespace that puts a caret under `column` (1-based, in
    /// scalars) of `line`.
    static func caretIndent(under line: String, column: Int) -> String {
        var indent = ""
        var remaining = column - 1
        for scalar in line.unicodeScalars {
            if remaining <= 0 { break }
            remaining -= 1
            if scalar == "\t" {
                indent += "\t"
            } else {
                indent += String(repeating: " ", count: CharacterWidth.of(scalar) ?? 1)
            }
        }
        if remaining > 0 { indent += String(repeating: " ", count: remaining) }
        return indent
    }
}

/// Where each line of a file starts, to show one line of it.
struct SourceLines {
    private let bytes: [UInt8]
    /// Byte offset of the start of each line (line 1 at index 0).
    private var starts: [Int] = [0]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
    }

    /// Line `number` (1-based) without its line break, ill-formed bytes as
    /// U+FFFD; nil when the file has no such line.
    func text(ofLine number: Int) -> String? {
        guard number >= 1 && number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] - 1 : bytes.count
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return UTF8Scanner.lossyString(bytes, start..<end)
    }
}
