extension SwiftProgramPrinter {
    /// `program`'s lines without their comments: a line that was only a
    /// comment goes, a comment after code is cut off, and blank lines
    /// never come two in a row. For a question shown as code (predict
    /// mode's Swift overlay): the printed program's comments explain the
    /// very rules a question asks about. `//` inside a string literal is
    /// code, not a comment (the printer writes no multi-line literal).
    public static func withoutComments(_ program: [String]) -> [String] {
        var kept: [String] = []
        for line in program {
            guard let cut = commentStart(in: line) else {
                if !(line.isEmpty && (kept.last?.isEmpty ?? true)) { kept.append(line) }
                continue
            }
            var code = String(line[..<cut])
            while code.last == " " { code.removeLast() }
            if !code.isEmpty { kept.append(code) }
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        return kept
    }

    /// Where a `//` comment starts in `line`, outside string literals.
    private static func commentStart(in line: String) -> String.Index? {
        var inString = false
        var escaped = false
        var previousSlash: String.Index?
        var index = line.startIndex
        while index < line.endIndex {
            let c = line[index]
            if inString {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
                previousSlash = nil
            } else if c == "\"" {
                inString = true
                previousSlash = nil
            } else if c == "/" {
                if let slash = previousSlash { return slash }
                previousSlash = index
            } else {
                previousSlash = nil
            }
            index = line.index(after: index)
        }
        return nil
    }
}
