import Foundation
import TextKit

/// A kata's grades as text: for each check a line (✓, ✗, or ? when it was
/// not decided, and what it checks), what happened under it, and under a
/// failure the rule; then the count. What came from the user's file or
/// program (its path, Foundation's message) is escaped by `TerminalText`
/// where it is put in.
public enum KataReport {
    /// `async-operation: AsyncDownload in async-operation.swift`.
    public static func heading(_ kata: Kata, file: String) -> String {
        "\(kata.name): \(kata.className) in \(TerminalText.escaped(file))"
    }

    /// A check's lines, each ending in a newline; what happened and the
    /// rule wrapped to `width` columns when one is given (a terminal's),
    /// each on a line of its own when not (a script reads them whole).
    public static func text(_ verdict: KataVerdict, width: Int? = nil) -> String {
        let says = TerminalText.escaped(verdict.says)
        let body = "      "
        var lines: [String]
        switch verdict.grade {
        case .passed:
            lines = paragraph(verdict.title, "  ✓ ", width) + paragraph(says, body, width)
        case .failed(let rule):
            lines =
                paragraph(verdict.title, "  ✗ ", width) + paragraph(says, body, width)
                + paragraph("rule: " + rule, body, width)
        case .undecided:
            lines = paragraph(verdict.title, "  ? ", width) + paragraph("not decided: " + says, body, width)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` after `lead`, wrapped to `width` (its later lines indented
    /// two past the lead), or on one line.
    private static func paragraph(_ text: String, _ lead: String, _ width: Int?) -> [String] {
        guard let width, width > lead.count + 20 else { return [lead + text] }
        let rest = String(repeating: " ", count: lead.count + 2)
        return Spelling.wrap(text, width: width - rest.count).enumerated().map {
            ($0.offset == 0 ? lead : rest) + $0.element
        }
    }

    /// `4 of 5 checks passed`, or `all 5 checks passed`.
    public static func summary(_ verdicts: [KataVerdict]) -> String {
        let passed = verdicts.filter(\.passed).count
        if passed == verdicts.count { return "all \(Spelling.count(verdicts.count, "check")) passed" }
        return "\(passed) of \(Spelling.count(verdicts.count, "check")) passed"
    }

    /// The list `opscope kata` prints: each kata's name and title.
    public static func list() -> String {
        let width = (Kata.all.map(\.name.count).max() ?? 0) + 2
        let rows = Kata.all.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.title }
        return
            (rows + [
                "",
                "'opscope kata NAME' writes NAME.swift here (when there is none) and checks it;",
                "'opscope kata NAME FILE.swift' checks that file.",
            ]).joined(separator: "\n") + "\n"
    }
}
