/// JSON's string literal as bytes: the one way opscope quotes a string
/// for JSON, in the text trace's captions (`EventFormatter.quote`) and in
/// every format of `RunFormats`, which adds the numbers.
package enum JSONBytes {
    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else as its UTF-8. The control characters are
    /// those `TerminalText` escapes (C0, DEL, C1, the bidi controls, the
    /// line and paragraph separators), so that a JSON output read on a
    /// terminal acts on none of them; a JSON reader gets the same string.
    /// The runs between escapes go in with one copy each: a header carries
    /// a whole scenario file.
    package static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    appendEscaped(byte, to: &out)
                    i += 1
                    start = i
                } else if byte >= 0x7F, let (value, length) = control(in: bytes, at: i) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    appendUnicodeEscape(value, to: &out)
                    i += length
                    start = i
                } else {
                    i += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The code point and length of a control character above ASCII's
    /// (DEL, C1 U+0080–U+009F, U+2028, U+2029, U+202A–U+202E,
    /// U+2066–U+2069) encoded at `i` of valid UTF-8, if one is.
    private static func control(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let byte = bytes[i]
        if byte == 0x7F { return (0x7F, 1) }
        if byte == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) {
            return (UInt32(bytes[i + 1]), 2)
        }
        guard byte == 0xE2, i + 2 < bytes.count else { return nil }
        let (second, third) = (bytes[i + 1], bytes[i + 2])
        switch (second, third) {
        case (0x80, 0xA8...0xAE), (0x81, 0xA6...0xA9):
            return (0x2000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F), 3)
        default:
            return nil
        }
    }

    /// `\uXXXX`.
    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        out.appendLiteral(#"\u"#)
        hex.withUTF8Buffer { digits in
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(digits[Int((value >> UInt32(shift)) & 0xF)])
            }
        }
    }

    /// The escape of a quote, a backslash or a control character.
    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.appendLiteral(#"\""#)
        case UInt8(ascii: "\\"): out.appendLiteral(#"\\"#)
        case UInt8(ascii: "\n"): out.appendLiteral(#"\n"#)
        case UInt8(ascii: "\r"): out.appendLiteral(#"\r"#)
        case UInt8(ascii: "\t"): out.appendLiteral(#"\t"#)
        default:
            let hex: StaticString = "0123456789abcdef"
            out.appendLiteral(#"\u00"#)
            hex.withUTF8Buffer { digits in
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0xF)])
            }
        }
    }
}

extension [UInt8] {
    /// Appends a literal's UTF-8 bytes with one copy (inlinable: the
    /// encoders of `RunFormats` call it for every key).
    @inlinable package mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
