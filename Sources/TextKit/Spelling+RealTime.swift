extension Spelling {
    /// A length of real time as a person reads it, to three figures in the
    /// largest unit that is at least one: `45 seconds`, `12.5 minutes`,
    /// `3 hours`, `11.6 days`, `31.7 years` (a year of 365.25 days).
    /// Beyond a million years, or not finite: `over a million years`.
    public static func realTime(seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e6 * yearSeconds else { return "over a million years" }
        let units: [(String, Double)] = [
            ("year", yearSeconds), ("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1),
        ]
        let (unit, size) = units.first { seconds >= $0.1 } ?? ("second", 1)
        let value = seconds / size
        let rounded = value >= 100 ? value.rounded() : (value * 10).rounded() / 10
        let number =
            rounded == rounded.rounded() && rounded < 1e15 ? String(Int64(rounded)) : String(format1(rounded))
        return "\(number) \(unit)\(number == "1" ? "" : "s")"
    }

    private static let yearSeconds = 365.25 * 86_400

    /// One decimal, without Foundation.
    private static func format1(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
