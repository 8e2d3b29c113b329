extension NumberLiteral {
    /// The literal as a duration (`250ms`, `1.5s`), converted exactly from
    /// its digits: nanoseconds are the unit, so `0.1s` is exactly 100 000 000 ns.
    /// Every failure throws a diagnostic at `location`, never a trap.
    func duration(text: String, at location: SourceLocation) throws(ParseFailure) -> Duration {
        let scaleDigits: Int
        switch unit {
        case nil: throw ParseFailure(.missingDurationUnit(text, at: location))
        case "ms": scaleDigits = 6
        case "s": scaleDigits = 9
        case let other?: throw ParseFailure(.unknownDurationUnit(other, in: text, at: location))
        }
        if isNegative { throw ParseFailure(.negativeDuration(text, at: location)) }
        var fraction = fractionDigits ?? []
        // Digits below a nanosecond are allowed only when they are zeros.
        while fraction.count > scaleDigits {
            if fraction.removeLast() != UInt8(ascii: "0") {
                throw ParseFailure(.durationTooPrecise(text, at: location))
            }
        }
        while fraction.count < scaleDigits { fraction.append(UInt8(ascii: "0")) }
        guard let nanoseconds = Self.value(of: integerDigits + fraction) else {
            throw ParseFailure(.durationTooLong(text, at: location))
        }
        return .nanoseconds(nanoseconds)
    }

    /// The literal as a whole number (no point, no unit), sign included.
    /// nil means "not a whole number"; a whole number that does not fit in
    /// an `Int` throws the `.numberTooLarge` diagnostic.
    func wholeNumber(text: String, at location: SourceLocation) throws(ParseFailure) -> Int? {
        guard fractionDigits == nil, unit == nil else { return nil }
        guard let wide = Self.value(of: integerDigits), let magnitude = Int(exactly: wide) else {
            throw ParseFailure(.numberTooLarge(text, at: location))
        }
        return isNegative ? -magnitude : magnitude
    }

    /// The number without its unit, as `Double` reads it: `-2`, `0.5`.
    var decimalText: String {
        var text = isNegative ? "-" : ""
        text += String(decoding: integerDigits, as: UTF8.self)
        if let fractionDigits { text += "." + String(decoding: fractionDigits, as: UTF8.self) }
        return text
    }

    /// ASCII digits as an `Int64`, or nil on overflow.
    private static func value(of digits: [UInt8]) -> Int64? {
        var result: Int64 = 0
        for digit in digits {
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit &- 0x30))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }

}
