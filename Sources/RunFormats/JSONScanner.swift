/// `JSONReader`'s cursor over one line: each method reads one piece of
/// JSON at `position` and moves past it, or throws where it is wrong.
struct JSONScanner {
    /// What a scanner says at each place it finds more than once.
    static let afterMember = "expected ',' or '}' after a value"
    static let afterElement = "expected ',' or ']' after a value"
    static let badUTF8 = "invalid UTF-8 in a string"

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message, atEnd: position >= end)
    }

    mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): position += 1
            default: return
            }
        }
    }

    /// At `{`: the members up to its `}`, appended to `members`.
    mutating func objectMembers(depth: Int, into members: inout [JSONMember]) throws(JSONSyntaxError) {
        position += 1
        skipWhitespace()
        if position < end && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return
        }
        var first = true
        while true {
            skipWhitespace()
            guard position < end, bytes[position] == UInt8(ascii: "\"") else {
                throw failure(first ? "expected a key in double quotes or '}'" : "expected a key in double quotes")
            }
            first = false
            let key = try string()
            skipWhitespace()
            guard position < end, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':' after a key")
            }
            position += 1
            skipWhitespace()
            let value = try value(depth: depth)
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard position < end else { throw failure(Self.afterMember) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw failure(Self.afterMember)
            }
        }
    }

    /// At `[`: the values up to its `]`, appended to `values`.
    mutating func arrayElements(depth: Int, into values: inout [JSONValue]) throws(JSONSyntaxError) {
        position += 1
        skipWhitespace()
        if position < end && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            values.append(try value(depth: depth))
            skipWhitespace()
            guard position < end else { throw failure(Self.afterElement) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            default: throw failure(Self.afterElement)
            }
        }
    }

    /// A value inside a container `depth` deep.
    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard position < end else { throw failure("expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): return try literal("true", .true)
        case UInt8(ascii: "f"): return try literal("false", .false)
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONReader.maxDepth else {
                throw failure("nested deeper than \(JSONReader.maxDepth) levels")
            }
            return try container(depth: depth + 1)
        default: throw failure("expected a value")
        }
    }

    /// At `{` or `[`: the whole container, checked and skipped.
    private mutating func container(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "{") {
            var ignored: [JSONMember] = []
            try objectMembers(depth: depth, into: &ignored)
            return JSONValue(kind: .object, start: start, end: position)
        }
        position += 1
        skipWhitespace()
        if position < end && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return JSONValue(kind: .array, start: start, end: position)
        }
        while true {
            skipWhitespace()
            _ = try value(depth: depth)
            skipWhitespace()
            guard position < end else { throw failure(Self.afterElement) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return JSONValue(kind: .array, start: start, end: position)
            default: throw failure(Self.afterElement)
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONValue.Kind) throws(JSONSyntaxError) -> JSONValue {
        let start = position
        let count = word.utf8CodeUnitCount
        let available = min(count, end - position)
        let matches = word.withUTF8Buffer { w in (0..<available).allSatisfy { bytes[position + $0] == w[$0] } }
        guard matches else { throw failure("expected a value") }
        guard available == count else {
            // `tru` and the line ends: cut short, not misspelt.
            position = end
            throw failure("expected a value")
        }
        position += count
        return JSONValue(kind: kind, start: start, end: position)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var integer = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < end, isDigit(bytes[position]) else { throw failure("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < end, isDigit(bytes[position]) {
                throw failure("invalid number: a leading zero")
            }
        } else {
            skipDigits()
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            integer = false
            position += 1
            guard position < end, isDigit(bytes[position]) else { throw failure("invalid number: no digit after '.'") }
            skipDigits()
        }
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            integer = false
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < end, isDigit(bytes[position]) else {
                throw failure("invalid number: no digit in the exponent")
            }
            skipDigits()
        }
        return JSONValue(kind: integer ? .integer : .number, start: start, end: position)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while position < end, isDigit(bytes[position]) { position += 1 }
    }

    /// At `"`: the string up to its closing quote, escapes and UTF-8 checked.
    mutating func string() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        position += 1
        var escaped = false
        while true {
            guard position < end else { throw failure("unterminated string") }
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return JSONValue(kind: .string, start: start, end: position, isEscaped: escaped)
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                try escape()
            } else if c < 0x20 {
                throw failure("a control character in a string (write it as an escape)")
            } else if c < 0x80 {
                position += 1
            } else {
                try utf8Sequence()
            }
        }
    }

    /// At `\`: one escape, a surrogate pair as one.
    private mutating func escape() throws(JSONSyntaxError) {
        guard position + 1 < end else {
            position += 1
            throw failure("unterminated string")
        }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: position + 2)
            if (0xDC00..<0xE000).contains(unit) {
                throw failure("invalid \\u escape: a low surrogate without a high one")
            }
            if (0xD800..<0xDC00).contains(unit) {
                let next = position + 6
                guard next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u"),
                    (0xDC00..<0xE000).contains(try hex4(at: next + 2))
                else {
                    throw JSONSyntaxError(
                        offset: position, message: "invalid \\u escape: a high surrogate without a low one",
                        atEnd: next + 6 > end)
                }
                position = next + 6
            } else {
                position += 6
            }
        default:
            throw failure("invalid escape \(Self.describe(bytes[position + 1])) in a string")
        }
    }

    private func hex4(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        var n: UInt32 = 0
        for p in start..<(start + 4) {
            guard p < end, let h = Self.hexValue(bytes[p]) else {
                throw JSONSyntaxError(
                    offset: position, message: "invalid \\u escape: four hex digits expected", atEnd: p >= end)
            }
            n = n << 4 | UInt32(h)
        }
        return n
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// At a byte ≥ 0x80: one well-formed UTF-8 sequence (RFC 3629: no
    /// overlong forms, no surrogates, nothing past U+10FFFF).
    private mutating func utf8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[position]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F
        case 0xF0:
            count = 3
            low = 0x90
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F
        default: throw failure(Self.badUTF8)
        }
        for k in 1...count {
            let p = position + k
            guard p < end else {
                throw JSONSyntaxError(offset: position, message: Self.badUTF8, atEnd: true)
            }
            let byte = bytes[p]
            guard byte >= (k == 1 ? low : 0x80), byte <= (k == 1 ? high : 0xBF) else {
                throw failure(Self.badUTF8)
            }
        }
        position += count + 1
    }

    /// A byte as a message shows it: `'x'`, or `byte 0xC3`.
    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = Array("0123456789ABCDEF")
        return "byte 0x\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
    }
}
