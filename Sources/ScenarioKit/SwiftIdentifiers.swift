import TextKit

/// Swift spellings for the names and values of a scenario, for
/// `SwiftProgramPrinter`.
///
/// Scenario names (`[A-Za-z_][A-Za-z0-9_-]*`) are not all Swift
/// identifiers: `-` is allowed, and a name may be a keyword (`default`) or
/// shadow a name the generated program uses (`say`, `OperationQueue`).
/// Each name gets a distinct identifier: `-` becomes `_`; a keyword, a
/// reserved name or a name already taken gets a suffix (`defaultQueue`,
/// `sayOp`), then a number. The original name stays in the program as the
/// queue's or operation's `name`.
struct SwiftIdentifiers {
    private var taken: Set<String> = SwiftIdentifiers.reserved

    /// A fresh identifier for `name`; `suffix` is tried when the plain
    /// spelling is unavailable.
    mutating func claim(_ name: String, suffix: String) -> String {
        let base = String(name.map { $0 == "-" ? "_" : $0 })
        var candidate = base
        if taken.contains(candidate) { candidate = base + suffix }
        var n = 2
        while taken.contains(candidate) {
            candidate = base + suffix + String(n)
            n += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Swift's keywords (those that cannot name a constant without
    /// backquotes), and every name the generated program refers to inside
    /// the function that declares the scenario's constants: a constant of
    /// the same name would shadow it there.
    static let reserved: Set<String> = [
        "_", "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "Type", "Protocol", "some", "any",
        // The program's own names.
        "Clock", "say", "simulateWork", "Tally", "StartRecord", "SimulatedWork", "NonCooperativeWork",
        "SimulatedBlocks", "AsyncOperation", "ForgetfulAsyncOperation", "Barrier", "BarrierCancellation", "Ending",
        "Reported", "RecordsItsStart", "waitForTheEnd", "runScenario", "tally", "timeline", "t0",
        "ForgetsIsFinished", "ForgetsWhenCancelledAsyncOperation", "WorkLeftRunning", "reportTheEnd", "reporting",
        "startByHand",
        // Library names it uses.
        "Foundation", "Swift", "Dispatch", "Operation", "OperationQueue", "BlockOperation", "DispatchQueue",
        "DispatchTime", "DispatchGroup", "Mirror", "Date", "Thread", "RunLoop", "Timer", "NSLock", "QualityOfService",
        "String", "Double", "Int", "Bool", "Array", "Set", "print", "exit", "min", "max",
    ]

    /// `class TYPE`'s name can be written in Swift as it is and does not
    /// name something the generated program declares or uses: letters,
    /// digits and `_`, not starting with a digit.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
        return allowed && !reserved.contains(name)
    }

    /// A Swift string literal for `text`: quotes, backslashes and every
    /// character a terminal would act on (`TerminalText.isControl`: the
    /// controls, the line breaks, the bidi controls) escaped.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if TerminalText.isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Text safe inside a `//` comment: every character a terminal would
    /// act on (`TerminalText.isControl`) becomes a space (a carriage return
    /// would end the comment; a bidi control would reorder the line).
    static func commentText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { TerminalText.isControl($0) ? " " : $0 }))
    }

    /// `text` as `// ` comment lines of at most about `width` characters,
    /// broken at spaces, indented by `indent`.
    static func comment(_ text: String, indent: String = "", width: Int = 76) -> [String] {
        let words = commentText(text).split(separator: " ", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return [indent + "//"] }
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(indent + "// " + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(indent + "// " + line)
        return lines
    }

    /// A duration in seconds as an exact Swift `Double` literal: `1.2`,
    /// `0.3`, `0.0`, `0.000000001`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        guard whole >= 0, attoseconds >= 0 else { return "0.0" }
        var fraction = String(attoseconds / 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.count > 1 && fraction.last == "0" { fraction.removeLast() }
        return String(whole) + "." + fraction
    }
}
