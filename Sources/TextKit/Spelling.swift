/// How the project writes a length of time, a moment, a list and a count:
/// one spelling each, so that a duration never reads `1250ms` in one place
/// and `1.25s` in another.
public enum Spelling {
    /// The language's own spelling of a duration, the shortest that reads
    /// back the same: whole and fractional milliseconds below one second
    /// (`0ms`, `250ms`, `0.5ms`), seconds from one second on (`1s`, `1.25s`,
    /// `1.000001s`). Nanosecond precision; a negative duration reads `0ms`.
    public static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "0ms" }
        let nanos = attoseconds / 1_000_000_000
        if seconds >= 1 {
            return String(seconds) + fraction(nanos, digits: 9) + "s"
        }
        return String(nanos / 1_000_000) + fraction(nanos % 1_000_000, digits: 6) + "ms"
    }

    /// A length of scenario time measured by a run (seconds, a `Double`),
    /// to the millisecond, spelt as the language spells durations.
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0ms" }
        let millis = (seconds * 1000).rounded()
        guard millis < 1e15 else { return "\(Int64(1e12))s" }
        return duration(.milliseconds(Int64(millis)))
    }

    /// A moment of scenario time with three decimals and no unit: `1.201`
    /// (the trace's time column, JSON's `t`). Negative and non-finite
    /// values read `0.000`.
    public static func secondsNumber(_ t: Double) -> String {
        guard t.isFinite, t > 0 else { return "0.000" }
        let millis = (t * 1000).rounded()
        guard millis < 1e15 else { return "999999999999.999" }
        let whole = Int64(millis)
        let frac = String(whole % 1000)
        return "\(whole / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// A moment of scenario time as reports and the screen show it: `1.201s`.
    public static func seconds(_ t: Double) -> String { secondsNumber(t) + "s" }

    /// `a`, `a and b`, `a, b and c`; `nothing` for none.
    public static func list(_ words: [String]) -> String {
        switch words.count {
        case 0: return "nothing"
        case 1: return words[0]
        default: return words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
    }

    /// A name's possessive as English writes it: `ep07's`, `net's`, but
    /// `downloads'` and `jobs'` for a name ending in s (never
    /// "downloads's"). Every message that says "X's cap", "X's completion
    /// block" forms it here, so the rule lives in one place.
    public static func possessive(_ name: String) -> String {
        name.last == "s" || name.last == "S" ? name + "'" : name + "'s"
    }

    /// `1 operation`, `3 operations`.
    public static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// `.5` for (5, 1 digit); empty for 0.
    private static func fraction(_ value: Int64, digits: Int) -> String {
        guard value > 0 else { return "" }
        var text = String(value)
        text = String(repeating: "0", count: digits - text.count) + text
        while text.last == "0" { text.removeLast() }
        return "." + text
    }

    /// `text`'s words in lines of at most `width` characters (a longer
    /// word has a line of its own): a paragraph of help or of a report.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
