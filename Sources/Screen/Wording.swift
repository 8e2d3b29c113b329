import Board
import LifecycleEngine
import ScenarioKit

/// Small pieces of text the views share, so a thing is called the same
/// everywhere.
enum Wording {
    /// `×2`, `×0.5`, `×0.125` (`x2` in ASCII mode).
    static func speed(_ speed: Double, ascii: Bool) -> String {
        let sign = ascii ? "x" : "×"
        if abs(speed) < 1e9 && Double(Int(speed)) == speed { return sign + String(Int(speed)) }
        return sign + String(speed)
    }

    /// Scenario seconds as the clock shows them: `1.234s`.
    static func seconds(_ t: Double) -> String { EventFormatter.seconds(t) + "s" }

    /// `2/default`, `1/4`.
    static func load(_ row: QueueRow) -> String {
        "\(row.executing)/\(EventFormatter.capText(row.cap))"
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

    /// `work`, `blocks`, `async`, `barrier`.
    static func kind(_ body: OperationBody) -> String {
        switch body {
        case .work: "work"
        case .blocks: "blocks"
        case .async: "async"
        case .barrier: "barrier"
        }
    }

    /// `fetch`, `fetch and auth`, `a, b and c`.
    static func names(_ ids: [OperationID], in scenario: Scenario) -> String {
        let names = ids.map { scenario[operation: $0].name }
        switch names.count {
        case 0: return "nothing"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }

    /// `1 operation`, `3 operations`.
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}

/// Splits `text` into lines of at most `width` cells at spaces; a word
/// longer than a line is cut. Never returns an empty array for non-empty text.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
        var word = word
        while displayWidth(word) > width {
            if !line.isEmpty {
                lines.append(line)
                line = ""
            }
            let head = truncate(word, toWidth: width, ellipsis: "")
            lines.append(head)
            word = String(word.dropFirst(head.count))
        }
        if line.isEmpty {
            line = word
        } else if displayWidth(line) + 1 + displayWidth(word) <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = word
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}

/// `text` padded with spaces (or cut with `ellipsis`) to exactly `width` cells.
func fit(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
    let cut = truncate(text, toWidth: width, ellipsis: ellipsis)
    return cut + String(repeating: " ", count: max(0, width - displayWidth(cut)))
}
