/// Decodes one Unicode scalar from raw bytes, without trusting them.
///
/// The lexer and the diagnostic printer must agree on what a column is:
/// one valid Unicode scalar, or one byte of an ill-formed sequence. Both
/// use this decoder so that a caret always lands under the character the
/// lexer counted.
enum UTF8Scanner {
    /// The scalar starting at `index` and its length in bytes (1…4), or nil
    /// with length 1 when the byte does not start a well-formed sequence
    /// (overlong forms, surrogates and values above U+10FFFF included).
    /// `index` must be a valid index of `bytes`.
    static func scalar(in bytes: [UInt8], at index: Int) -> (scalar: Unicode.Scalar?, length: Int) {
        let b0 = bytes[index]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        let count = bytes.count
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            let j = index + offset
            guard j < count else { return nil }
            let b = bytes[j]
            guard b >= low && b <= high else { return nil }
            return UInt32(b & 0x3F)
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = continuation(1) else { return (nil, 1) }
            return (Unicode.Scalar(UInt32(b0 & 0x1F) << 6 | c1), 2)
        case 0xE0...0xEF:
            let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
            guard let c1 = continuation(1, low, high), let c2 = continuation(2) else { return (nil, 1) }
            return (Unicode.Scalar(UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2), 3)
        case 0xF0...0xF4:
            let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
            guard let c1 = continuation(1, low, high), let c2 = continuation(2),
                let c3 = continuation(3)
            else { return (nil, 1) }
            return (Unicode.Scalar(UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3), 4)
        default:
            return (nil, 1)
        }
    }

    /// `bytes[range]` as text, each byte of an ill-formed sequence (and each
    /// NUL) replaced by U+FFFD, so that one column stays one character.
    static func lossyString(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        var scalars = String.UnicodeScalarView()
        var i = range.lowerBound
        while i < range.upperBound {
            let (scalar, length) = scalar(in: bytes, at: i)
            if let scalar, scalar.value != 0 {
                scalars.append(scalar)
            } else {
                scalars.append("\u{FFFD}")
            }
            i += length
        }
        return String(scalars)
    }
}
