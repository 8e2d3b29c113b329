extension Spelling {
    /// A whole number with its thousands grouped: `2,550,000`, `-1,000`,
    /// `999`. The same on every machine (no locale), as messages quote it.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = n < 0 ? "-" : ""
        for (position, digit) in digits.enumerated() {
            if position > 0 && (digits.count - position) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
