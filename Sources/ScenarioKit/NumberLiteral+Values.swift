extension NumberLiteral {
    /// The literal as a duration (`250ms`, `1.5s`), converted exactly from
    /// its digits in `text` (the token's): nanoseconds are the unit, so
    /// `0.1s` is exactly 100 000 000 ns. Every failure throws a diagnostic
    /// at `location`, never a trap.
    func duration(text: String, at location: SourceLocation) throws(ParseFailure) -> Duration {
        let bytes = text.utf8
        let scaleDigits: Int
        let unit = bytes.suffix(unitLength)
        if !hasUnit {
            throw ParseFailure(.missingDurationUnit(text, at: location))
        } else if unit.elementsEqual("ms".utf8) {
            scaleDigits = 6
        } else if unit.elementsEqual("s".utf8) {
            scaleDigits = 9
        } else {
            throw ParseFailure(.unknownDurationUnit(String(Substring(unit)), in: text, at: location))
        }
        if isNegative { throw ParseFailure(.negativeDuration(text, at: location)) }
        let (integer, fraction) = digits(of: text)
        // Digits below a nanosecond are allowed only when they are zeros.
        if fraction.dropFirst(scaleDigits).contains(where: { $0 != UInt8(ascii: "0") }) {
            throw ParseFailure(.durationTooPrecise(text, at: location))
        }
        // The integer digits, then the fraction's first `scaleDigits`, padded with zeros.
        var padding = scaleDigits - min(fraction.count, scaleDigits)
        guard var nanoseconds = Self.value(of: integer, then: fraction.prefix(scaleDigits)) else {
            throw ParseFailure(.durationTooLong(text, at: location))
        }
        while padding > 0 {
            let (shifted, overflow) = nanoseconds.multipliedReportingOverflow(by: 10)
            if overflow { throw ParseFailure(.durationTooLong(text, at: location)) }
            nanoseconds = shifted
            padding -= 1
        }
        return .nanoseconds(nanoseconds)
    }

    /// The literal as a whole number (no point, no unit), sign included.
    /// nil means "not a whole number"; a whole number that does not fit in
    /// an `Int` throws the `.numberTooLarge` diagnostic.
    func wholeNumber(text: String, at location: SourceLocation) throws(ParseFailure) -> Int? {
        guard !hasFraction, !hasUnit else { return nil }
        let (integer, _) = digits(of: text)
        guard let wide = Self.value(of: integer, then: "".utf8), let magnitude = Int(exactly: wide) else {
            throw ParseFailure(.numberTooLarge(text, at: location))
        }
        return isNegative ? -magnitude : magnitude
    }

    /// The number in `text` without its unit, as `Double` reads it: `-2`, `0.5`.
    func decimalText(of text: String) -> String {
        String(Substring(text.utf8.dropLast(unitLength)))
    }

    /// The integer digits and the fraction's digits (empty when there is no
    /// point) within `text`.
    private func digits(of text: String) -> (Substring.UTF8View, Substring.UTF8View) {
        let integer = text.utf8.dropFirst(isNegative ? 1 : 0).prefix(integerLength)
        let fraction = text.utf8.dropFirst((isNegative ? 1 : 0) + integerLength + 1).prefix(fractionLength ?? 0)
        return (integer, fraction)
    }

    /// Two runs of ASCII digits, one after the other, as an `Int64`, or nil on overflow.
    private static func value(
        of digits: some Sequence<UInt8>, then more: some Sequence<UInt8>
    ) -> Int64? {
        var result: Int64 = 0
        func push(_ digit: UInt8) -> Bool {
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit &- 0x30))
            if overflow1 || overflow2 { return false }
            result = sum
            return true
        }
        for digit in digits where !push(digit) { return nil }
        for digit in more where !push(digit) { return nil }
        return result
    }

}
