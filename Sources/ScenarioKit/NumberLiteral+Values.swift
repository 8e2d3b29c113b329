extension NumberLiteral {
    /// The literal as a duration (`250ms`, `1.5s`), converted exactly from
    /// its digits in `text` (the token's): nanoseconds are the unit, so
    /// `0.1s` is exactly 100 000 000 ns. Every failure throws a diagnostic
    /// at `location`, never a trap.
    func duration(text: String, at location: SourceLocation) throws(ParseFailure) -> Duration {
        if !hasUnit {
            throw ParseFailure(.missingDurationUnit(text, at: location))
        }
        let (nanoseconds, problem) = withDigits(of: text) { integer, fraction, unit -> (Int64?, Problem?) in
            let scaleDigits: Int
            if unit.elementsEqual("ms".utf8) {
                scaleDigits = 6
            } else if unit.elementsEqual("s".utf8) {
                scaleDigits = 9
            } else {
                return (nil, .unknownUnit(String(decoding: unit, as: UTF8.self)))
            }
            if isNegative { return (nil, .negative) }
            // Digits below a nanosecond are allowed only when they are zeros.
            if fraction.dropFirst(scaleDigits).contains(where: { $0 != UInt8(ascii: "0") }) {
                return (nil, .tooPrecise)
            }
            // The integer digits, then the fraction's first `scaleDigits`,
            // padded with zeros.
            var padding = scaleDigits - min(fraction.count, scaleDigits)
            guard var nanoseconds = Self.value(of: integer, then: fraction.prefix(scaleDigits)) else {
                return (nil, .tooLong)
            }
            while padding > 0 {
                let (shifted, overflow) = nanoseconds.multipliedReportingOverflow(by: 10)
                if overflow { return (nil, .tooLong) }
                nanoseconds = shifted
                padding -= 1
            }
            return (nanoseconds, nil)
        }
        switch problem {
        case nil: return .nanoseconds(nanoseconds ?? 0)
        case .unknownUnit(let unit): throw ParseFailure(.unknownDurationUnit(unit, in: text, at: location))
        case .negative: throw ParseFailure(.negativeDuration(text, at: location))
        case .tooPrecise: throw ParseFailure(.durationTooPrecise(text, at: location))
        case .tooLong: throw ParseFailure(.durationTooLong(text, at: location))
        }
    }

    /// Why a literal is no duration, found inside `withDigits`.
    private enum Problem {
        case unknownUnit(String)
        case negative, tooPrecise, tooLong
    }

    /// The literal as a whole number (no point, no unit), sign included.
    /// nil means "not a whole number"; a whole number that does not fit in
    /// an `Int` throws the `.numberTooLarge` diagnostic.
    func wholeNumber(text: String, at location: SourceLocation) throws(ParseFailure) -> Int? {
        guard !hasFraction, !hasUnit else { return nil }
        let wide = withDigits(of: text) { integer, _, _ in Self.value(of: integer, then: EmptyCollection()) }
        guard let wide, let magnitude = Int(exactly: wide) else {
            throw ParseFailure(.numberTooLarge(text, at: location))
        }
        return isNegative ? -magnitude : magnitude
    }

    /// The number in `text` without its unit, as `Double` reads it: `-2`, `0.5`.
    func decimalText(of text: String) -> String {
        String(Substring(text.utf8.dropLast(unitLength)))
    }

    /// `body` with the integer digits, the fraction's digits (empty when
    /// there is no point) and the unit (empty when none) within `text`, as
    /// bytes in place.
    private func withDigits<R>(
        of text: String,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        var text = text
        return text.withUTF8 { bytes in
            let integerStart = min(isNegative ? 1 : 0, bytes.count)
            let integerEnd = min(integerStart + integerLength, bytes.count)
            let fractionStart = min(integerEnd + 1, bytes.count)
            let fractionEnd = min(fractionStart + (fractionLength ?? 0), bytes.count)
            let unitStart = max(bytes.count - unitLength, 0)
            return body(
                UnsafeBufferPointer(rebasing: bytes[integerStart..<integerEnd]),
                UnsafeBufferPointer(rebasing: bytes[fractionStart..<fractionEnd]),
                UnsafeBufferPointer(rebasing: bytes[unitStart...]))
        }
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
