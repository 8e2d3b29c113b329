/// A JSON value found on a line: its kind and where its bytes are.
///
/// Strings and numbers stay bytes until someone asks for them, so that
/// reading a line allocates nothing unless one of its strings has escapes
/// or is kept (a caption's text, the header's source).
struct JSONValue: Sendable {
    enum Kind: UInt8, Sendable {
        case string
        /// A number written without a fraction or an exponent.
        case integer
        /// Any other number.
        case number
        case `true`
        case `false`
        case null
        case object
        case array
    }

    var kind: Kind
    /// Offsets into the whole buffer; a string's bytes include its quotes.
    var start: Int
    var end: Int
    /// A string with backslash escapes: read it through `JSONReader.unescaped`.
    var isEscaped: Bool = false

    /// The value's kind as a message says it: `a string`, `null`.
    var kindText: String {
        switch kind {
        case .string: "a string"
        case .integer, .number: "a number"
        case .true, .false: "a boolean"
        case .null: "null"
        case .object: "an object"
        case .array: "an array"
        }
    }
}

/// One `"key": value` of an object.
struct JSONMember: Sendable {
    var key: JSONValue
    var value: JSONValue
}

/// Bytes that are not JSON: where (an offset into the buffer) and why.
struct JSONSyntaxError: Error, Sendable {
    var offset: Int
    var message: String
    /// The line ended before the value did (a cut-short recording ends so).
    var atEnd: Bool
}

/// A small, strict JSON reader over bytes: RFC 8259 without a Foundation
/// round trip and without a `String` per line.
///
/// It reads one object per call, the one a line holds, checks its whole
/// syntax (UTF-8 in strings, escapes, numbers, nesting at most
/// `maxDepth` deep) and hands back its top-level members as byte ranges.
/// Every look at a byte is bounds-checked against the line's end, so no
/// input traps; the recursion is bounded by `maxDepth`.
struct JSONReader {
    /// The deepest nesting a line may have, the line's own object counted.
    /// A recording needs 2 (`stuck`); the cap keeps the recursion small.
    static let maxDepth = 16

    let bytes: UnsafeBufferPointer<UInt8>

    /// The members of the object that fills `bytes[start..<end]`, JSON
    /// whitespace around it allowed, appended to `members` in order.
    func readObject(from start: Int, to end: Int, into members: inout [JSONMember]) throws(JSONSyntaxError) {
        var scanner = JSONScanner(bytes: bytes, position: start, end: end)
        scanner.skipWhitespace()
        guard scanner.position < end, bytes[scanner.position] == UInt8(ascii: "{") else {
            throw scanner.failure("expected '{': a line is one JSON object")
        }
        try scanner.objectMembers(depth: 1, into: &members)
        scanner.skipWhitespace()
        if scanner.position < end {
            throw scanner.failure("unexpected \(JSONScanner.describe(bytes[scanner.position])) after the object")
        }
    }

    /// The members of `object`, a value this reader already checked.
    func members(of object: JSONValue, into members: inout [JSONMember]) throws(JSONSyntaxError) {
        var scanner = JSONScanner(bytes: bytes, position: object.start, end: object.end)
        try scanner.objectMembers(depth: 1, into: &members)
    }

    /// The values of `array`, a value this reader already checked.
    func elements(of array: JSONValue, into values: inout [JSONValue]) throws(JSONSyntaxError) {
        var scanner = JSONScanner(bytes: bytes, position: array.start, end: array.end)
        try scanner.arrayElements(depth: 1, into: &values)
    }

    /// Calls `body` with the UTF-8 bytes a string value stands for: its own
    /// bytes when it has no escapes, else a decoded copy.
    func withText<R>(_ value: JSONValue, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard value.isEscaped else {
            return body(UnsafeBufferPointer(rebasing: bytes[(value.start + 1)..<(value.end - 1)]))
        }
        return unescaped(value).withUnsafeBufferPointer(body)
    }

    /// The string a string value stands for.
    func string(_ value: JSONValue) -> String {
        withText(value) { String(decoding: $0, as: UTF8.self) }
    }

    /// A value's bytes as written, for messages (`1e999`, `"fecth"`).
    func rawText(_ value: JSONValue) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[value.start..<value.end]), as: UTF8.self)
    }

    /// An integer value, or nil when it does not fit an `Int`.
    func int(_ value: JSONValue) -> Int? {
        var p = value.start
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var n = 0
        while p < value.end {
            let digit = Int(bytes[p] &- UInt8(ascii: "0"))
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            // Accumulated negatively, so that Int.min fits.
            let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            n = next
            p += 1
        }
        return n
    }

    /// A number value as the nearest `Double` (infinite when it is too
    /// large for one).
    func double(_ value: JSONValue) -> Double {
        // The common case, `12.345`: at most 19 significant digits and a
        // small power of ten, where one IEEE multiplication or division of
        // two exact values is the correctly rounded result.
        var p = value.start
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var fast = true
        while p < value.end, let d = Self.digit(bytes[p]) {
            if mantissa == 0 && d == 0 {
            } else if digits < 19 {
                mantissa = mantissa * 10 + UInt64(d)
                digits += 1
            } else {
                fast = false
            }
            p += 1
        }
        if p < value.end, bytes[p] == UInt8(ascii: ".") {
            p += 1
            while p < value.end, let d = Self.digit(bytes[p]) {
                if mantissa == 0 && d == 0 {
                    scale -= 1
                } else if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(d)
                    digits += 1
                    scale -= 1
                } else {
                    fast = false
                }
                p += 1
            }
        }
        if p < value.end { fast = false }  // an exponent
        if fast && mantissa <= 1 << 53 && scale >= -22 {
            let m = Double(mantissa)
            let result = scale == 0 ? m : m / Self.powersOfTen[-scale]
            return negative ? -result : result
        }
        // The rest (long mantissas, exponents) the standard library rounds
        // correctly; rare enough for the one `String` it costs.
        return Double(rawText(value)) ?? .nan
    }

    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { p, _ in p * 10 } }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// The UTF-8 a string value with escapes stands for (its syntax is
    /// already checked, escapes and surrogate pairs included).
    func unescaped(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.end - value.start)
        var p = value.start + 1
        let end = value.end - 1
        func hex4(_ at: Int) -> UInt32 {
            var n: UInt32 = 0
            for q in at..<(at + 4) { n = n << 4 | UInt32(JSONScanner.hexValue(bytes[q]) ?? 0) }
            return n
        }
        while p < end {
            let c = bytes[p]
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                p += 1
                continue
            }
            let e = bytes[p + 1]
            p += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(p)
                p += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    let low = hex4(p + 2)
                    p += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: out.append(e)  // " \ /
            }
        }
        return out
    }
}
