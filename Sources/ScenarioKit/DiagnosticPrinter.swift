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
/// U+FFFD (one column each, as the lexer counts them), tabs kept, and
/// every other control character as its escape (`TerminalText`); the path
/// and the messages, which may quote the file, are escaped too. The
/// caret line copies tabs and puts two spaces under a wide (East Asian or
/// emoji) character and none under a combining mark, so the caret lines
/// up on a terminal while `SourceLocation.column` stays a count of scalars.
///
/// A source line wider than `width` columns (a generated file, a 50 MB
/// line) is shown as a window of `width` columns around the caret, cut
/// ends marked with `…` and tabs shown as spaces; the whole line is never
/// copied. After `DiagnosticLimit.perFile` diagnostics, one line says how
/// many more the file has.
public struct DiagnosticPrinter: Sendable {
    /// The widest source line shown whole, in terminal columns.
    public var width: Int

    /// The width used when standard error is not a terminal.
    public static let widthWithoutTerminal = 160

    public init(width: Int = DiagnosticPrinter.widthWithoutTerminal) {
        self.width = max(width, 24)
    }

    /// One diagnostic, every line ending in a newline. ANSI colours only
    /// when `color` is true (the caller decides: a terminal, no NO_COLOR).
    public func render(_ diagnostic: Diagnostic, file: SourceFile, color: Bool) -> String {
        var cursor = SourceLines.Cursor()
        return render(diagnostic, path: file.path, lines: SourceLines(file.bytes), cursor: &cursor, color: color)
    }

    /// Every diagnostic of `result`, sorted by location (equal locations
    /// keep their order), each rendered as by `render(_:file:color:)`;
    /// then, when the file had more than were kept, how many more.
    public func renderAll(_ result: ParseResult, file: SourceFile, color: Bool) -> String {
        let lines = SourceLines(file.bytes)
        let diagnostics = result.diagnostics.enumerated().sorted { a, b in
            a.element.location != b.element.location ? a.element.location < b.element.location : a.offset < b.offset
        }
        var text = ""
        var cursor = SourceLines.Cursor()
        for (_, diagnostic) in diagnostics {
            text += render(diagnostic, path: file.path, lines: lines, cursor: &cursor, color: color)
        }
        if let more = Self.omitted(result) {
            text +=
                style("\(TerminalText.escaped(file.path)):", "1", color) + " " + style("note:", "1;36", color) + " "
                + more + "\n"
        }
        return text
    }

    /// "99900 more errors and 2 more warnings not shown (…)", or nil when
    /// every diagnostic was kept.
    static func omitted(_ result: ParseResult) -> String? {
        let errors = result.omittedErrors
        let warnings = result.omittedWarnings
        guard errors + warnings > 0 else { return nil }
        func more(_ n: Int, _ word: String) -> String { "\(n) more \(word)\(n == 1 ? "" : "s")" }
        let parts = [errors > 0 ? more(errors, "error") : nil, warnings > 0 ? more(warnings, "warning") : nil]
        return parts.compactMap { $0 }.joined(separator: " and ")
            + " not shown (opscope shows the first \(DiagnosticLimit.perFile) diagnostics of a file)"
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

    private func style(_ text: String, _ code: String, _ color: Bool) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func render(
        _ diagnostic: Diagnostic, path: String, lines: SourceLines, cursor: inout SourceLines.Cursor, color: Bool
    ) -> String {
        let location = diagnostic.location
        let label =
            diagnostic.isError ? style("error:", "1;31", color) : style("warning:", "1;35", color)
        // What came from the file (the path, a name or a character quoted
        // in a message, the source line) goes out through `TerminalText`.
        var text =
            style("\(TerminalText.escaped(path)):\(location.line):\(location.column):", "1", color) + " " + label + " "
            + style(TerminalText.escaped(shortened(diagnostic.message)), "1", color) + "\n"
        if let excerpt = lines.excerpt(ofLine: location.line, column: location.column, width: width, cursor: &cursor) {
            text += Self.shown(excerpt.text) + "\n"
            text += Self.caretIndent(under: excerpt.text, column: excerpt.column) + style("^", "1;32", color) + "\n"
        }
        for note in diagnostic.notes {
            text += style("note:", "1;36", color) + " " + TerminalText.escaped(shortened(note)) + "\n"
        }
        return text
    }

    /// A source line as it is shown: tabs kept, every other control
    /// character as its escape (`TerminalText`).
    static func shown(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { TerminalText.isControl($0) && $0 != "\t" }) else { return line }
        var out = ""
        for scalar in line.unicodeScalars {
            out += scalar == "\t" ? "\t" : TerminalText.escaped(String(scalar))
        }
        return out
    }
    /// `text` when it is at most four widths long, else its start and end
    /// around "…" (a message quoting a 50 MB name says which one it is
    /// without printing it).
    func shortened(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let limit = width * 4
        guard scalars.count > limit else { return text }
        let kept = (limit - 1) / 2
        var result = String.UnicodeScalarView(scalars.prefix(kept))
        result.append("…")
        result.append(contentsOf: scalars.suffix(kept))
        return String(result)
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
            } else if TerminalText.isControl(scalar) {
                // Under its escape, as `shown` writes it.
                indent += String(repeating: " ", count: TerminalText.escaped(String(scalar)).count)
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

    /// Bytes of line `number` (1-based) without its line break; nil when
    /// the file has no such line.
    private func range(ofLine number: Int) -> Range<Int>? {
        guard number >= 1 && number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] - 1 : bytes.count
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<end
    }

    /// Line `number` (1-based) without its line break, ill-formed bytes as
    /// U+FFFD; nil when the file has no such line.
    func text(ofLine number: Int) -> String? {
        range(ofLine: number).map { UTF8Scanner.lossyString(bytes, $0) }
    }

    /// Where the last excerpt of a line began, so that the diagnostics of
    /// one long line (in column order) scan it once between them.
    struct Cursor {
        var line = 0
        var column = 1
        var offset = 0
    }

    /// What to show of line `number` for a caret at `column`: the whole
    /// line when it is at most `width` columns wide, else a window of
    /// `width` columns around the caret; with the caret's column in it.
    func excerpt(
        ofLine number: Int, column: Int, width: Int, cursor: inout Cursor
    ) -> (text: String, column: Int)? {
        guard let range = range(ofLine: number) else { return nil }
        // Display width never exceeds the byte count but for tabs (up to 8).
        if range.count <= width * 4 {
            let whole = UTF8Scanner.lossyString(bytes, range)
            var columns = 0
            for scalar in whole.unicodeScalars {
                columns = scalar == "\t" ? (columns / 8 + 1) * 8 : columns + (CharacterWidth.of(scalar) ?? 1)
            }
            if columns <= width { return (whole, column) }
        }
        // Start far enough left for any window, from the cursor when it is
        // on this line and not past that point.
        let first = max(1, column - width)
        var offset = range.lowerBound
        var at = 1
        if cursor.line == number && cursor.column <= first && cursor.offset >= offset {
            offset = cursor.offset
            at = cursor.column
        }
        while at < first && offset < range.upperBound {
            offset += UTF8Scanner.scalar(in: bytes, at: offset).length
            at += 1
        }
        cursor = Cursor(line: number, column: at, offset: offset)
        // Up to `width` scalars either side of the caret: enough to fill it.
        var scalars: [Unicode.Scalar] = []
        while offset < range.upperBound && scalars.count < (column - at) + width + 1 {
            let (scalar, length) = UTF8Scanner.scalar(in: bytes, at: offset)
            let shown = scalar.map { $0 == "\t" ? " " : $0.value == 0 ? "\u{FFFD}" : $0 } ?? "\u{FFFD}"
            scalars.append(shown)
            offset += length
        }
        let reachesEnd = offset >= range.upperBound
        let caret = column - at
        func cells(_ i: Int) -> Int { i < scalars.count ? CharacterWidth.of(scalars[i]) ?? 1 : 1 }
        // At most half the width before the caret, then as much after it
        // as fits, then before it again; a cut end costs a column for its mark.
        func marks(_ low: Int, _ high: Int) -> Int {
            (at + low > 1 ? 1 : 0) + (high < scalars.count || !reachesEnd ? 1 : 0)
        }
        var low = min(caret, scalars.count)
        var high = min(caret + 1, scalars.count)
        var used = cells(caret)
        while low > 0 && used + cells(low - 1) + marks(low - 1, high) <= width / 2 + 1 {
            low -= 1
            used += cells(low)
        }
        while high < scalars.count && used + cells(high) + marks(low, high + 1) <= width {
            used += cells(high)
            high += 1
        }
        while low > 0 && used + cells(low - 1) + marks(low - 1, high) <= width {
            low -= 1
            used += cells(low)
        }
        let cutBefore = at + low > 1
        let cutAfter = high < scalars.count || !reachesEnd
        var text = String.UnicodeScalarView()
        if cutBefore { text.append("…") }
        text.append(contentsOf: scalars[low..<high])
        if cutAfter { text.append("…") }
        return (String(text), caret - low + 1 + (cutBefore ? 1 : 0))
    }
}
