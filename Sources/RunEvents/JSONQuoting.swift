/// JSON's string literal as bytes: the one way opscope quotes a string
/// for JSON, in the text trace's captions (`EventFormatter.quote`) and in
/// every format of `RunFormats`, which adds the numbers.
package enum JSONBytes {
    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else as its UTF-8. The runs between escapes go
    /// in with one copy each: a header carries a whole scenario file.
    package static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscaped(byte, to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
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
