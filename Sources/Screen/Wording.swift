import Board
import FoundationRules
import RunEvents
import ScenarioKit
import TextKit

/// Small pieces of text the views share, so a thing is called the same
/// everywhere.
enum Wording {
    /// `×2`, `×0.5`, `×0.125` (`x2` in ASCII mode).
    static func speed(_ speed: Double, glyphs: GlyphSet) -> String {
        let sign = glyphs.times
        if abs(speed) < 1e9 && Double(Int(speed)) == speed { return sign + String(Int(speed)) }
        return sign + String(speed)
    }

    /// Real seconds, to a tenth: `2.0s` (the clock says scenario time;
    /// this says how long a person waited).
    static func realSeconds(_ seconds: Double) -> String {
        let tenths = Int(saturating: (max(0, seconds) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)s"
    }

    /// `2 running · cap 4`, `1 running · cap: system decides`,
    /// `1 running · serial (main queue)`, `0 running, 3 slots held, never
    /// finished · cap 3`.
    static func load(_ row: QueueRow, glyphs: GlyphSet) -> String {
        let cap: String
        if row.isMain {
            cap = "serial (main queue)"
        } else if let limit = row.limit {
            cap = limit == 1 ? "cap 1 (serial)" : "cap \(limit)"
        } else {
            cap = "cap: system decides"
        }
        // Dispatched operations waiting for a thread take a slot too.
        let waiting = row.waitingForThread > 0 ? ", \(row.waitingForThread) waiting for a thread" : ""
        // A start() that returned without posting isFinished holds its slot
        // for good, though it never posted isExecuting: counted as held.
        let held = row.stranded > 0 ? ", \(Spelling.count(row.stranded, "slot")) held, never finished" : ""
        // A count is never drawn below zero, whatever a stream said.
        return "\(max(0, row.executing)) running\(waiting)\(held) \(glyphs.dot) \(cap)"
    }

    static func phase(_ phase: Phase) -> String {
        switch phase {
        case .notAdded: "not added"
        case .pending: "pending"
        case .ready: "ready"
        case .executing: "executing"
        case .finished: "finished"
        case .cancelled: "cancelled"
        }
    }

    /// Column titles.
    static func columnTitle(_ phase: Phase) -> String {
        switch phase {
        case .notAdded, .pending: "Pending"
        case .ready: "Ready"
        case .executing: "Executing"
        case .finished: "Finished"
        case .cancelled: "Cancelled"
        }
    }

    /// A priority bucket, short enough for a card.
    static func priorityShort(_ p: PriorityLevel) -> String {
        switch p {
        case .veryHigh: "vhigh"
        case .high: "high"
        case .normal: "normal"
        case .low: "low"
        case .veryLow: "vlow"
        }
    }

    /// A QoS, short enough for a card (the inspector spells it out).
    static func qosShort(_ q: QoSLevel) -> String {
        switch q {
        case .userInteractive: "UI"
        case .userInitiated: "IN"
        case .default: "DF"
        case .utility: "UT"
        case .background: "BG"
        }
    }

    /// `work`, `blocks`, `async`, `barrier`, `class`.
    static func kind(_ body: OperationBody) -> String {
        switch body {
        case .work: "work"
        case .blocks: "blocks"
        case .async: "async"
        case .barrier: "barrier"
        case .custom: "class"
        }
    }

    /// `fetch`, `fetch and auth`, `a, b and c`.
    static func names(_ ids: [OperationID], in scenario: Scenario) -> String {
        Spelling.list(ids.map { scenario[operation: $0].name })
    }

    /// Text made elsewhere (the event formatter, a scenario's notes, a
    /// diagnostic) with the interface's glyphs: in ASCII mode, arrows,
    /// dashes and ellipses spelt in ASCII (one character may take several);
    /// whatever else is left the grid's ASCII pass maps cell by cell.
    static func plain(_ text: String, glyphs: GlyphSet) -> String {
        // Text from a file shows its control characters as escapes (the
        // grid would show each as `?`): `TerminalText`.
        let text = TerminalText.escaped(text)
        guard glyphs.isASCII, !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var out = ""
        for ch in text {
            switch ch {
            case "→": out += glyphs.arrow
            case "←": out += "<-"
            case "—", "–", "−": out += glyphs.dash
            case "…": out += "..."
            case "×": out += glyphs.times
            case "·": out += glyphs.dot
            case "≤": out += "<="
            case "≥": out += ">="
            default: out.append(ch)
            }
        }
        return out
    }

}

/// Splits `text` into lines of at most `width` cells at spaces; a word
/// longer than a line is cut. Runs of spaces inside a line are kept (the
/// log aligns with them); the spaces where a line breaks are dropped.
/// Lines after the first start with `indent` spaces; the first keeps the
/// text's own leading spaces. Never returns an empty array for text that
/// is not blank.
func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
    guard width > 0 else { return [] }
    let leading = text.prefix { $0 == " " }.count
    if leading > 0 && leading < width && leading < text.count {
        var lines = wrap(String(text.dropFirst(leading)), width: width - leading, indent: indent)
        lines[0] = String(repeating: " ", count: leading) + lines[0]
        return lines
    }
    let pad = String(repeating: " ", count: max(0, min(indent, width - 1)))
    // Each word with the spaces before it.
    var pieces: [(gap: String, word: String)] = []
    var gap = ""
    var word = ""
    for ch in text {
        if ch == " " {
            if !word.isEmpty {
                pieces.append((gap, word))
                gap = ""
                word = ""
            }
            gap.append(ch)
        } else {
            word.append(ch)
        }
    }
    if !word.isEmpty { pieces.append((gap, word)) }

    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    var hasWord = false
    func newLine() {
        lines.append(line)
        line = pad
        lineWidth = pad.count
        hasWord = false
    }
    for (gap, piece) in pieces {
        var word = piece
        let gapWidth = hasWord ? gap.count : 0
        if lineWidth + gapWidth + displayWidth(word) <= width {
            line += (hasWord ? gap : "") + word
            lineWidth += gapWidth + displayWidth(word)
            hasWord = true
            continue
        }
        if hasWord { newLine() }
        while lineWidth + displayWidth(word) > width {
            let head = truncate(word, toWidth: width - lineWidth, ellipsis: "")
            guard !head.isEmpty else { break }
            line += head
            word = String(word.dropFirst(head.count))
            hasWord = true
            newLine()
        }
        if !word.isEmpty {
            line += word
            lineWidth += displayWidth(word)
            hasWord = true
        }
    }
    if hasWord { lines.append(line) }
    return lines
}

/// `text` padded with spaces (or cut with `ellipsis`) to exactly `width` cells.
func fit(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
    let cut = truncate(text, toWidth: width, ellipsis: ellipsis)
    return cut + String(repeating: " ", count: max(0, width - displayWidth(cut)))
}
